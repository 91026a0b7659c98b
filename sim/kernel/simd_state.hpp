// The functional state of one running simd: its registers (32 lanes each),
// execution mask, program position and where it sits in the launch.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "sim/kernel/kernel_program.hpp"

namespace agx::kernel {

inline constexpr unsigned kLanes = 32;

// The uniform registers of a dispatch: 256 x 32 bits, shared by every simd.
using Uniforms = std::array<std::uint32_t, 256>;

// Where a simd sits in the launch (for get_sr and the stack's addresses).
struct SimdPlace {
    std::array<std::uint32_t, 3> threadgroup_position{};  // in the grid, in threadgroups
    std::array<std::uint32_t, 3> threadgroup_size{};      // threads
    std::array<std::uint32_t, 3> grid_size{};             // threads
    std::uint32_t simd_in_group = 0;
    std::uint64_t first_global_thread = 0;  // stack slot of lane 0 (linear over the launch)

    std::uint32_t index_in_threadgroup(unsigned lane) const {
        return simd_in_group * kLanes + lane;
    }
    std::array<std::uint32_t, 3> position_in_threadgroup(unsigned lane) const {
        const std::uint32_t i = index_in_threadgroup(lane);
        return {i % threadgroup_size[0], (i / threadgroup_size[0]) % threadgroup_size[1],
                i / (threadgroup_size[0] * threadgroup_size[1])};
    }
    std::array<std::uint32_t, 3> position_in_grid(unsigned lane) const {
        auto p = position_in_threadgroup(lane);
        for (int d = 0; d < 3; ++d) p[d] += threadgroup_position[d] * threadgroup_size[d];
        return p;
    }
    // position_in_threadgroup (or, `in_grid`, position_in_grid) of every
    // lane, dimension by dimension: lane 0's divided out, each next lane's
    // stepped from it (x counts up and wraps into y, y into z).
    using LanePositions = std::array<std::array<std::uint32_t, kLanes>, 3>;
    LanePositions lane_positions(bool in_grid) const {
        LanePositions out;
        std::array<std::uint32_t, 3> q = position_in_threadgroup(0);
        for (unsigned l = 0; l < kLanes; ++l) {
            for (int d = 0; d < 3; ++d)
                out[d][l] = q[d] + (in_grid ? threadgroup_position[d] * threadgroup_size[d] : 0u);
            if (++q[0] == threadgroup_size[0]) {
                q[0] = 0;
                if (++q[1] == threadgroup_size[1]) {
                    q[1] = 0;
                    ++q[2];
                }
            }
        }
        return out;
    }
};

struct SimdState {
    std::vector<std::uint32_t> regs;  // register r, lane l at [r * 32 + l]
    std::uint32_t present = 0;        // lanes that are threads of the grid
    std::uint32_t exec = 0;           // the execution mask
    std::size_t index = 0;            // the next instruction
    std::uint32_t depth = 0;          // exec-mask stack levels pushed (for underflow checks)
    bool finished = false;
    SimdPlace place;

    std::uint32_t* reg(unsigned r) { return regs.data() + r * kLanes; }
    const std::uint32_t* reg(unsigned r) const { return regs.data() + r * kLanes; }

    // r0l of every lane (the exec-mask stack counter).
    std::uint16_t r0l(unsigned lane) const { return static_cast<std::uint16_t>(regs[lane]); }
    void set_r0l(unsigned lane, std::uint16_t v) { regs[lane] = (regs[lane] & 0xffff0000u) | v; }
};

// A source operand resolved for the lanes of one instruction: a register's
// lanes (p, shifted right by `shift` for a high half) or one value for every
// lane (a uniform or an immediate). The user masks to the operand's width.
struct Source {
    const std::uint32_t* p = nullptr;  // null: `scalar` for every lane
    std::uint32_t shift = 0;
    std::uint32_t scalar = 0;

    // Float modifiers (.abs, .neg) as bit operations on the sign bit.
    std::uint32_t and_mask = ~0u, xor_mask = 0;

    std::uint32_t u32(unsigned lane) const {
        return ((p ? p[lane] >> shift : scalar) & and_mask) ^ xor_mask;
    }
    std::uint16_t u16(unsigned lane) const { return static_cast<std::uint16_t>(u32(lane)); }
};

// How an immediate reads as a 16-bit operand: float immediates are written
// as binary32 and converted for 16-bit float operations.
enum class Imm16 : std::uint8_t { Integer, Float };

Source resolve(const Operand& o, const SimdState& s, const Uniforms& u,
               Imm16 imm16 = Imm16::Integer);
// A 64-bit source (a register pair, a uniform pair, or an immediate
// zero-extended). Inline: the executor calls it per lane.
inline std::uint64_t read64(const Operand& o, const SimdState& s, const Uniforms& u,
                            unsigned lane) {
    switch (o.kind) {
        case OperandKind::Reg: {
            const unsigned r = o.first_half >> 1;
            const std::uint64_t lo = s.reg(r)[lane];
            if (o.halves == 1) return (lo >> ((o.first_half & 1u) * 16u)) & 0xffffu;
            if (o.halves == 2) return lo;
            return lo | std::uint64_t{s.reg(r + 1)[lane]} << 32;
        }
        case OperandKind::Uniform: {
            const unsigned r = o.first_half >> 1;
            if (o.halves == 1) return (u[r] >> ((o.first_half & 1u) * 16u)) & 0xffffu;
            if (o.halves == 2) return u[r];
            return u[r] | std::uint64_t{u[r + 1]} << 32;
        }
        case OperandKind::Imm:
            return o.imm;
        case OperandKind::None:
            break;
    }
    return 0;
}

// Writes lane `lane` of a destination of 16, 32 or 64 bits (the operand's
// width; a 16-bit destination keeps the other half of its register).
inline void write_lane(const Operand& d, SimdState& s, unsigned lane, std::uint64_t value) {
    const unsigned r = d.first_half >> 1;
    std::uint32_t& lo = s.reg(r)[lane];
    if (d.halves == 1) {
        const unsigned sh = (d.first_half & 1u) * 16u;
        lo = (lo & ~(0xffffu << sh)) | (static_cast<std::uint32_t>(value & 0xffffu) << sh);
    } else {
        lo = static_cast<std::uint32_t>(value);
        if (d.halves >= 4) s.reg(r + 1)[lane] = static_cast<std::uint32_t>(value >> 32);
    }
}

}  // namespace agx::kernel
