// Workload and instruction streams of a text trace.
#include "sim/trace/text_trace.hpp"

#include <stdexcept>
#include <vector>

#include "sim/common/errors.hpp"
#include "sim/trace/repeat_replay.hpp"
#include "sim/trace/trace_index.hpp"
#include "sim/trace/trace_line_reader.hpp"
#include "sim/trace/trace_parse.hpp"

namespace agx {

namespace {

using trace_detail::LineContext;
using trace_detail::LineReader;
using trace_detail::SectionIndex;
using trace_detail::TraceFile;

// Streams hold a small buffer each: a repeat body of a few dozen lines
// loops inside it without touching the file.
constexpr std::size_t kStreamBuffer = 4096;
// An innermost repeat body of at most this many instructions is parsed once
// and replayed from its decoded copy: memory stays bounded (per resident
// simd), and the benchmark-style trace, a short body repeated thousands of
// times, costs no parsing after its first pass.
constexpr std::size_t kMaxReplayedBody = 256;

class TextStream final : public InstructionStream {
  public:
    TextStream(std::shared_ptr<const TraceFile> file, const SectionIndex& section,
               std::uint32_t registers)
        : reader_(std::move(file), kStreamBuffer), registers_(registers) {
        reader_.seek(section.body_offset, section.body_line);
        repeats_.reserve(trace_detail::kMaxRepeatNesting);
    }

    const Instruction* peek() override {
        if (!ready_ && !done_) fetch();
        return ready_ ? head_ : nullptr;
    }

    void advance() override {
        if (!ready_ && !done_) fetch();
        ready_ = false;
    }

  private:
    // A repeat block being executed: where its body starts and how many
    // more passes remain after the current one.
    struct Frame {
        std::uint64_t body_offset;
        std::uint32_t body_line;
        std::uint32_t body_pc;  // a repeat body reuses its pcs
        std::uint32_t remaining;
    };

    void fetch() {
        if (const Instruction* replayed = replay_.next()) {
            head_ = replayed;
            ready_ = true;
            return;
        }
        std::string_view raw;
        while (reader_.next(raw)) {
            LineContext at{reader_.path(), reader_.line_number()};
            auto text = trace_detail::strip_comment(raw);
            if (text.empty()) continue;
            auto rest = text;
            auto word = trace_detail::next_word(rest);
            if (word == "repeat") {
                std::uint64_t n = 0;
                trace_detail::parse_uint(rest, n);  // checked by the index pass
                repeats_.push_back(
                    {reader_.tell(), at.line + 1, pc_, static_cast<std::uint32_t>(n) - 1});
                replay_.repeat_started();
            } else if (word == "end") {
                if (repeats_.empty()) {
                    done_ = true;
                    return;
                }
                Frame& f = repeats_.back();
                if (f.remaining == 0) {
                    repeats_.pop_back();
                    replay_.take_over(0);
                } else if (replay_.take_over(f.remaining)) {
                    // The remaining passes come from the decoded copy.
                    repeats_.pop_back();
                    fetch();
                    return;
                } else {
                    --f.remaining;
                    reader_.seek(f.body_offset, f.body_line);
                    pc_ = f.body_pc;
                }
            } else {
                trace_detail::parse_instruction(text, at, registers_, current_);
                current_.pc = pc_;
                pc_ += isa::Catalogue::instance().info(current_.opcode).encoded_bytes;
                head_ = &current_;
                replay_.decoded(current_);
                ready_ = true;
                return;
            }
        }
        // The index pass saw an 'end': the file changed under us.
        throw InputError(reader_.path() + ":" + std::to_string(reader_.line_number()),
                         "truncated: the trace changed after it was opened");
    }

    LineReader reader_;
    std::uint32_t registers_;
    std::vector<Frame> repeats_;
    Instruction current_;
    const Instruction* head_ = &current_;
    RepeatReplay replay_{kMaxReplayedBody};
    std::uint32_t pc_ = 0;
    bool ready_ = false;
    bool done_ = false;
};

class TextTraceWorkload final : public Workload {
  public:
    explicit TextTraceWorkload(const std::string& path)
        : file_(std::make_shared<TraceFile>(path)), index_(trace_detail::index_trace(file_)) {}

    const Launch& launch() const override { return index_.launch; }

    std::unique_ptr<InstructionStream> open(std::uint32_t threadgroup,
                                            std::uint32_t simd_in_group) override {
        const auto per_group = index_.launch.simds_per_threadgroup();
        if (threadgroup >= index_.launch.threadgroups || simd_in_group >= per_group)
            throw std::out_of_range("text trace: no simd " + std::to_string(simd_in_group) +
                                    " in threadgroup " + std::to_string(threadgroup));
        const auto* section = index_.find(threadgroup * per_group + simd_in_group);
        if (!section) throw std::logic_error("text trace: index does not cover every simd");
        return std::make_unique<TextStream>(file_, *section, index_.launch.registers_halves);
    }

    std::string name() const override { return file_->path(); }

  private:
    std::shared_ptr<const TraceFile> file_;
    trace_detail::TraceIndex index_;
};

}  // namespace

std::unique_ptr<Workload> open_text_trace(const std::string& path) {
    return std::make_unique<TextTraceWorkload>(path);
}

}  // namespace agx
