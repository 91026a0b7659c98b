// One decoded SIMD-instruction of a workload, as the core consumes it.
//
// Register operands are numbered in 16-bit halves: r5 is half 10 with width 2,
// r5h is half 11 with width 1, r4_r5 is half 8 with width 4. This makes the
// scoreboard and the register cache work on one uniform index space.
#pragma once

#include <array>
#include <cstdint>

#include "isa/catalogue.hpp"

namespace agx {

enum class OperandKind : std::uint8_t { None, Reg, Uniform, Imm };
enum class CacheHint : std::uint8_t { None, Cache, Discard };

struct Operand {
    OperandKind kind = OperandKind::None;
    CacheHint hint = CacheHint::None;
    std::uint8_t halves = 0;       // width in 16-bit halves (1, 2, 4, up to 8 for vectors)
    std::uint8_t mods = 0;         // float source modifiers: kModAbs, kModNeg (kernels)
    std::uint16_t first_half = 0;  // register / uniform index in halves
    std::uint32_t imm = 0;         // immediate bits
};
static_assert(sizeof(Operand) == 12, "the modifiers share the padding: an operand stays 12 bytes");

// A float source's modifiers, applied to the value read: absolute value
// first, then negation (applegpu's `.abs`, `.neg`).
inline constexpr std::uint8_t kModAbs = 1;
inline constexpr std::uint8_t kModNeg = 2;

inline constexpr std::uint32_t kFullMask = 0xffffffffu;
inline constexpr std::uint8_t kNoSlot = 0xff;

// Addresses of a memory instruction: either base + lane * stride for every
// active lane, or an explicit address per lane.
struct MemoryAccess {
    std::uint8_t bytes_per_lane = 0;  // 1..16
    bool explicit_lanes = false;
    std::uint64_t base = 0;
    std::int64_t stride = 0;
    std::array<std::uint64_t, 32> lane{};

    // Addresses wrap around 2^64 (a stride times a lane may exceed an int64).
    std::uint64_t address(unsigned lane_index) const {
        return explicit_lanes ? lane[lane_index]
                              : base + static_cast<std::uint64_t>(stride) * lane_index;
    }
};

struct Instruction {
    isa::Opcode opcode = 0;
    std::uint8_t num_dst = 0;
    std::uint8_t num_src = 0;
    std::array<Operand, 2> dst{};
    std::array<Operand, 4> src{};
    std::uint32_t active_mask = kFullMask;
    std::uint32_t pc = 0;              // byte offset in the kernel's code
    std::uint8_t wait_slot = kNoSlot;  // async instructions and `wait`
    std::uint32_t source_line = 0;     // line in the trace file, for messages
    MemoryAccess mem;                  // meaningful when the catalogue says memory
};

// Copies `from` into `to` but for the 32 lane addresses (256 of the 376
// bytes), which only an explicit-lanes access reads (MemoryAccess::address):
// for the streams that make an instruction per instruction simulated, where
// the full copy was most of what yielding one cost. `to.mem.lane` keeps what
// it held, so a caller that sets explicit_lanes fills the lanes itself.
inline void copy_without_lanes(Instruction& to, const Instruction& from) {
    static_assert(sizeof(Instruction) == 376, "a new field of Instruction: copy it here too");
    to.opcode = from.opcode;
    to.num_dst = from.num_dst;
    to.num_src = from.num_src;
    to.dst = from.dst;
    to.src = from.src;
    to.active_mask = from.active_mask;
    to.pc = from.pc;
    to.wait_slot = from.wait_slot;
    to.source_line = from.source_line;
    to.mem.bytes_per_lane = from.mem.bytes_per_lane;
    to.mem.explicit_lanes = from.mem.explicit_lanes;
    to.mem.base = from.mem.base;
    to.mem.stride = from.mem.stride;
}

}  // namespace agx
