// The binary trace writer (traces/FORMAT.md, "Binary trace format"): the
// sections writer with one section open at a time.
#include <stdexcept>
#include <string>

#include "sim/trace/binary_trace_sections.hpp"
#include "sim/trace/trace_writer.hpp"

namespace agx {

namespace {

class BinaryTraceWriter final : public TraceWriter {
  public:
    explicit BinaryTraceWriter(std::ostream& out) : sections_(out) {}

    void begin(const Launch& launch, const std::string& kernel_name) override {
        sections_.begin(launch, kernel_name);
    }
    void begin_section(std::uint32_t first_simd, std::uint32_t last_simd) override {
        expect(!in_section_, "begin_section() inside a section");
        current_ = sections_.open_section(first_simd, last_simd);
        in_section_ = true;
    }
    void instruction(const Instruction& in) override {
        expect(in_section_, "instruction outside a section");
        sections_.instruction(current_, in);
    }
    void begin_repeat(std::uint32_t count) override {
        expect(in_section_, "repeat outside a section");
        sections_.begin_repeat(current_, count);
    }
    void end_repeat() override {
        expect(in_section_, "end_repeat() without a repeat block");
        sections_.end_repeat(current_);
    }
    void end_section() override {
        expect(in_section_, "end_section() outside a section");
        sections_.close_section(current_);
        in_section_ = false;
    }
    void finish() override {
        expect(!in_section_, "finish() inside a section");
        sections_.finish();
    }

  private:
    static void expect(bool ok, const char* what) {
        if (!ok) throw std::invalid_argument(std::string("binary trace writer: ") + what);
    }

    BinarySectionsWriter sections_;
    BinarySectionsWriter::Section current_ = 0;
    bool in_section_ = false;
};

}  // namespace

std::unique_ptr<TraceWriter> make_binary_trace_writer(std::ostream& out) {
    return std::make_unique<BinaryTraceWriter>(out);
}

}  // namespace agx
