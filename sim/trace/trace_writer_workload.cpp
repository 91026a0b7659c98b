// Writing any Workload as a trace, the writers' shared kernel-name check,
// and comparing instructions.
#include <memory>

#include "sim/common/errors.hpp"
#include "sim/trace/kernel_name.hpp"
#include "sim/trace/trace_writer.hpp"

namespace agx {

namespace {

// An immediate is its bits: its width and first half mean nothing, and the
// text format has no place for them.
bool same_operand(const Operand& a, const Operand& b) {
    if (a.kind != b.kind || a.hint != b.hint || a.imm != b.imm) return false;
    return a.kind == OperandKind::Imm || (a.halves == b.halves && a.first_half == b.first_half);
}

bool same_memory(const MemoryAccess& a, const MemoryAccess& b) {
    return a.bytes_per_lane == b.bytes_per_lane && a.explicit_lanes == b.explicit_lanes &&
           a.base == b.base && a.stride == b.stride && a.lane == b.lane;
}

// Whether simd `a`'s and simd `b`'s streams are the same, read side by side.
bool same_stream(Workload& w, std::uint32_t a, std::uint32_t b) {
    const std::uint32_t per_group = w.launch().simds_per_threadgroup();
    auto sa = w.open(a / per_group, a % per_group);
    auto sb = w.open(b / per_group, b % per_group);
    for (;;) {
        const Instruction* x = sa->peek();
        const Instruction* y = sb->peek();
        if (!x || !y) return !x && !y;
        if (!same_instruction(*x, *y)) return false;
        sa->advance();
        sb->advance();
    }
}

}  // namespace

bool same_instruction(const Instruction& a, const Instruction& b, bool compare_lines) {
    if (a.opcode != b.opcode || a.num_dst != b.num_dst || a.num_src != b.num_src ||
        a.active_mask != b.active_mask || a.pc != b.pc || a.wait_slot != b.wait_slot ||
        (compare_lines && a.source_line != b.source_line) || !same_memory(a.mem, b.mem))
        return false;
    for (unsigned i = 0; i < a.num_dst; ++i)
        if (!same_operand(a.dst[i], b.dst[i])) return false;
    for (unsigned i = 0; i < a.num_src; ++i)
        if (!same_operand(a.src[i], b.src[i])) return false;
    return true;
}

void check_kernel_name(const std::string& kernel_name) {
    if (kernel_name.empty()) return;
    const auto problem = kernel_name_problem(kernel_name);
    if (!problem) return;
    // Quoted on one line, shortened.
    std::string quoted = kernel_name.size() <= 40 ? kernel_name : kernel_name.substr(0, 37) + "...";
    for (char& c : quoted)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
    throw InputError("kernel name '" + quoted + "'", "cannot be written to a trace: " + *problem);
}

void write_workload(Workload& workload, const std::string& kernel_name, TraceWriter& out) {
    const Launch& launch = workload.launch();
    const std::uint32_t per_group = launch.simds_per_threadgroup();
    const std::uint64_t total = std::uint64_t{launch.threadgroups} * per_group;
    out.begin(launch, kernel_name);
    for (std::uint64_t first = 0; first < total;) {
        const auto head = static_cast<std::uint32_t>(first);
        std::uint64_t last = first;
        while (last + 1 < total &&
               same_stream(workload, head, static_cast<std::uint32_t>(last + 1)))
            ++last;
        out.begin_section(head, static_cast<std::uint32_t>(last));
        auto stream = workload.open(head / per_group, head % per_group);
        while (const Instruction* in = stream->peek()) {
            out.instruction(*in);
            stream->advance();
        }
        out.end_section();
        first = last + 1;
    }
    out.finish();
}

}  // namespace agx
