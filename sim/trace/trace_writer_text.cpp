// The text trace writer (traces/FORMAT.md): the inverse of the text reader,
// one instruction line per Instruction in applegpu's operand syntax.
#include <cstdio>
#include <stdexcept>
#include <string>

#include "isa/catalogue.hpp"
#include "sim/trace/trace_writer.hpp"

namespace agx {

namespace {

std::string number(std::uint64_t v) {
    char buf[24];
    std::snprintf(buf, sizeof buf, v < 10 ? "%llu" : "0x%llx", static_cast<unsigned long long>(v));
    return buf;
}

// A register or uniform group: 32-bit registers when it covers whole ones
// (r4, r4_r5), else 16-bit halves (r5h, r4l_r4h_r5l).
std::string register_text(char prefix, const Operand& o) {
    const bool whole = o.halves % 2 == 0 && o.first_half % 2 == 0;
    const unsigned n = whole ? o.halves / 2u : o.halves;
    if (n == 0 || n > 4)
        throw std::invalid_argument("text trace writer: a " + std::to_string(o.halves) +
                                    "-half operand has no text form");
    std::string s;
    for (unsigned i = 0; i < n; ++i) {
        if (i) s += '_';
        const unsigned half = o.first_half + i * (whole ? 2u : 1u);
        s += prefix + std::to_string(half / 2);
        if (!whole) s += half % 2 ? 'h' : 'l';
    }
    return s;
}

std::string operand_text(const Operand& o) {
    std::string s;
    switch (o.kind) {
        case OperandKind::Reg:
            s = register_text('r', o);
            break;
        case OperandKind::Uniform:
            s = register_text('u', o);
            break;
        case OperandKind::Imm:
            return number(o.imm);
        case OperandKind::None:
            throw std::invalid_argument("text trace writer: an operand without a kind");
    }
    if (o.hint == CacheHint::Cache) s += ".cache";
    if (o.hint == CacheHint::Discard) s += ".discard";
    return s;
}

std::string address_text(const MemoryAccess& m) {
    if (m.explicit_lanes) {
        std::string s = "[";
        for (unsigned i = 0; i < m.lane.size(); ++i) s += (i ? "," : "") + number(m.lane[i]);
        return s + "]";
    }
    std::string s = number(m.base);
    if (m.stride > 0) s += "+" + number(static_cast<std::uint64_t>(m.stride)) + "*lane";
    if (m.stride < 0) s += "-" + number(0 - static_cast<std::uint64_t>(m.stride)) + "*lane";
    return s;
}

class TextTraceWriter final : public TraceWriter {
  public:
    explicit TextTraceWriter(std::ostream& out) : out_(out) {}

    void begin(const Launch& l, const std::string& kernel_name) override {
        check_kernel_name(kernel_name);
        out_ << "agxsim-trace 1\n";
        if (!kernel_name.empty()) out_ << "kernel name=" << kernel_name << "\n";
        out_ << "launch threads_per_threadgroup=" << l.threads_per_threadgroup
             << " threadgroups=" << l.threadgroups << " registers=" << l.registers_halves
             << " threadgroup_memory=" << l.threadgroup_memory_bytes;
        if (l.overhead_cycles) out_ << " overhead=" << l.overhead_cycles;
        if (l.code_in_l2_bytes) out_ << " code_in_l2=" << l.code_in_l2_bytes;
        out_ << "\n";
    }

    void begin_section(std::uint32_t first_simd, std::uint32_t last_simd) override {
        out_ << "\nsimd " << first_simd;
        if (last_simd != first_simd) out_ << ".." << last_simd;
        out_ << "\n";
        depth_ = 1;
    }

    void instruction(const Instruction& in) override {
        const isa::InstructionInfo& info = isa::Catalogue::instance().info(in.opcode);
        indent();
        out_ << info.mnemonic;
        for (unsigned i = 0; i < in.num_dst + in.num_src; ++i)
            out_ << (i ? ", " : " ")
                 << operand_text(i < in.num_dst ? in.dst[i] : in.src[i - in.num_dst]);
        if (in.active_mask != kFullMask) out_ << " mask=" << number(in.active_mask);
        // `wait` names its slot as its operand; asynchronous instructions default to slot 0.
        if (info.is_async && in.wait_slot != kNoSlot && in.wait_slot != 0)
            out_ << " slot=" << unsigned{in.wait_slot};
        if (info.memory != isa::MemorySpace::None) {
            if (in.mem.bytes_per_lane) out_ << " size=" << in.mem.bytes_per_lane * 8u;
            out_ << " addr=" << address_text(in.mem);
        }
        out_ << "\n";
    }

    void begin_repeat(std::uint32_t count) override {
        indent();
        out_ << "repeat " << count << "\n";
        ++depth_;
    }

    void end_repeat() override {
        --depth_;
        indent();
        out_ << "end\n";
    }

    void end_section() override {
        out_ << "end\n";
        depth_ = 0;
    }

    void finish() override { out_.flush(); }

  private:
    void indent() {
        for (unsigned i = 0; i < depth_; ++i) out_ << "  ";
    }

    std::ostream& out_;
    unsigned depth_ = 0;
};

}  // namespace

std::unique_ptr<TraceWriter> make_text_trace_writer(std::ostream& out) {
    return std::make_unique<TextTraceWriter>(out);
}

}  // namespace agx
