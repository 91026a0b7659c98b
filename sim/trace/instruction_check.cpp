#include "sim/trace/instruction_check.hpp"

#include <cstdio>

#include "sim/trace/memory_fault.hpp"

namespace agx::trace_detail {

namespace {

using isa::OperandRole;
using isa::OperandSpec;

constexpr unsigned kUniformHalves = 512;  // u0..u255
constexpr unsigned kWaitSlots = 2;

std::string hex(std::uint64_t v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
    return buf;
}

// The operand at `position` (from 1) against its spec, as check_operand()
// in instruction_parser.cpp checks its text.
std::string operand_problem(const Operand& op, const OperandSpec& spec, unsigned position,
                            std::uint32_t registers_halves) {
    const std::string who = "operand " + std::to_string(position);
    if (op.kind == OperandKind::None) return who + ": of kind 0 (none)";
    if (spec.role == OperandRole::Dst && op.kind != OperandKind::Reg)
        return who + ": a destination must be a register";
    if (op.kind == OperandKind::Uniform && !spec.allow_uniform)
        return who + ": a uniform is not allowed here";
    if (op.kind == OperandKind::Imm && !spec.allow_immediate)
        return who + ": an immediate is not allowed here";
    if (op.kind == OperandKind::Reg && !spec.allow_register) return who + ": expected an immediate";
    if (op.hint != CacheHint::None && op.kind != OperandKind::Reg)
        return who + ": cache hints only apply to registers";
    if (spec.role == OperandRole::Dst && op.hint == CacheHint::Discard)
        return who + ": '.discard' only applies to sources";
    // An immediate is its 32 bits; its width and first half mean nothing.
    if (op.kind == OperandKind::Imm) return {};
    // As the text writes a group: whole 32-bit registers when it can, else
    // 16-bit halves; at most 4 of either.
    const bool whole = op.halves % 2 == 0 && op.first_half % 2 == 0;
    const unsigned components = whole ? op.halves / 2u : op.halves;
    if (op.halves == 0 || components > 4)
        return who + ": a group of " + std::to_string(op.halves) + " halves from half " +
               std::to_string(op.first_half) + " has no register syntax";
    if (spec.vector) {
        if (op.halves > 8) return who + ": memory data is at most 4 32-bit registers";
    } else if (spec.width_halves != 0) {
        if (op.halves != spec.width_halves && !(spec.accepts_16 && op.halves == 1))
            return who + ": expected " + std::to_string(spec.width_halves) + " halves, got " +
                   std::to_string(op.halves);
        if (spec.width_halves == 4 && op.first_half % 4 != 0)
            return who + ": a 64-bit pair must start at an even register";
        if (spec.width_halves == 2 && op.halves == 2 && op.first_half % 2 != 0)
            return who + ": a 32-bit operand is one register, not the halves of two";
    } else if (components > 1) {
        if (components != 2 || !whole)
            return who + ": expected a 16-bit, 32-bit or 64-bit register";
        if (op.first_half % 4 != 0) return who + ": a 64-bit pair must start at an even register";
    }
    const unsigned end = unsigned{op.first_half} + op.halves;
    if (op.kind == OperandKind::Reg && end > registers_halves)
        return who + ": register halves " + std::to_string(op.first_half) + ".." +
               std::to_string(end - 1) + " out of range: launch declares " +
               std::to_string(registers_halves) + " half-registers";
    if (op.kind == OperandKind::Uniform && end > kUniformHalves)
        return who + ": uniform halves " + std::to_string(op.first_half) + ".." +
               std::to_string(end - 1) + " do not exist (u0..u255)";
    return {};
}

bool has_memory(const MemoryAccess& m) {
    return m.explicit_lanes || m.bytes_per_lane || m.base || m.stride;
}

}  // namespace

std::string instruction_problem(const Instruction& in, const Launch& launch) {
    const auto& info = isa::Catalogue::instance().info(in.opcode);
    const auto& specs = info.operands;
    std::size_t required = 0;
    for (const auto& s : specs) required += s.optional ? 0 : 1;
    const unsigned n = unsigned{in.num_dst} + in.num_src;
    if (in.num_dst > in.dst.size() || in.num_src > in.src.size() || n < required ||
        n > specs.size())
        return std::to_string(in.num_dst) + " destinations and " + std::to_string(in.num_src) +
               " sources, where the catalogue has " +
               (required == specs.size()
                    ? std::to_string(required)
                    : std::to_string(required) + " to " + std::to_string(specs.size())) +
               " operands";
    for (unsigned k = 0; k < n; ++k) {
        const bool dst = k < in.num_dst;
        if ((specs[k].role == OperandRole::Dst) != dst)
            return "operand " + std::to_string(k + 1) + ": a " + (dst ? "destination" : "source") +
                   " where the catalogue has a " + (dst ? "source" : "destination");
        const std::string p = operand_problem(dst ? in.dst[k] : in.src[k - in.num_dst], specs[k],
                                              k + 1, launch.registers_halves);
        if (!p.empty()) return p;
    }

    if (info.is_wait) {
        if (in.src[0].imm >= kWaitSlots)
            return "wait slot " + std::to_string(in.src[0].imm) + " out of range (0 or 1)";
        if (in.wait_slot != in.src[0].imm)
            return "a wait whose slot field (" + std::to_string(in.wait_slot) +
                   ") differs from its operand";
    } else if (info.is_async) {
        if (in.wait_slot >= kWaitSlots)
            return "an asynchronous instruction without a wait slot (0 or 1)";
    } else if (in.wait_slot != kNoSlot) {
        return "a wait slot on an instruction that names none";
    }

    const MemoryAccess& m = in.mem;
    if (info.memory == isa::MemorySpace::None) {
        if (has_memory(m)) return "a memory access on an instruction that has none";
        return {};
    }
    const Operand& data = (info.is_store || info.is_atomic) ? in.src[0] : in.dst[0];
    const unsigned capacity =
        (in.num_dst + in.num_src > 0 && data.kind == OperandKind::Reg) ? data.halves * 2u : 4u;
    if (m.bytes_per_lane < 1 || m.bytes_per_lane > 16 || m.bytes_per_lane > capacity)
        return std::to_string(m.bytes_per_lane) + " bytes per lane (1 to " +
               std::to_string(capacity < 16 ? capacity : 16) + " for its data register)";
    if (!m.explicit_lanes && m.stride == INT64_MIN) return "a stride of -2^63 bytes";
    const unsigned size = m.bytes_per_lane;
    const unsigned align = natural_alignment(size);
    const bool device = info.memory == isa::MemorySpace::Device;
    for (unsigned lane = 0; lane < 32; ++lane) {
        if (!(in.active_mask >> lane & 1u)) continue;
        const std::uint64_t a = m.address(lane);
        if (a % align != 0)
            return "lane " + std::to_string(lane) + " address " + hex(a) +
                   " is not aligned to its " + std::to_string(size) + "-byte access";
        if (!device && !within(a, size, launch.threadgroup_memory_bytes))
            return "lane " + std::to_string(lane) + " address " + hex(a) + " (" +
                   std::to_string(size) + " bytes) is outside the launch's threadgroup_memory=" +
                   std::to_string(launch.threadgroup_memory_bytes);
    }
    return {};
}

}  // namespace agx::trace_detail
