// The arithmetic, special-function, shuffle and matrix instructions, lane
// by lane, on isa/semantics.hpp's per-lane definitions.
#include <array>
#include <cstring>
#include <functional>

#include "isa/semantics.hpp"
#include "sim/kernel/execute.hpp"
#include "sim/kernel/fp32_lanes.hpp"

namespace agx::kernel {

namespace sem = isa::sem;

Source resolve(const Operand& o, const SimdState& s, const Uniforms& u, Imm16 imm16) {
    Source r;
    switch (o.kind) {
        case OperandKind::Reg:
            r.p = s.reg(o.first_half >> 1);
            r.shift = o.halves == 1 ? (o.first_half & 1u) * 16u : 0u;
            break;
        case OperandKind::Uniform:
            r.scalar = o.halves == 1 ? u[o.first_half >> 1] >> ((o.first_half & 1u) * 16u)
                                     : u[o.first_half >> 1];
            break;
        case OperandKind::Imm:
            r.scalar =
                (o.halves == 1 && imm16 == Imm16::Float) ? sem::f32_to_f16(sem::f32(o.imm)) : o.imm;
            break;
        case OperandKind::None:
            break;
    }
    // A 16-bit register or uniform reads as its 16 bits, zero-extended (a
    // 32-bit select of 16-bit values, say); then the float modifiers.
    if (o.halves == 1 && o.kind != OperandKind::Imm) r.and_mask = 0xffffu;
    if (o.mods) {
        const std::uint32_t sign = o.halves == 1 ? 0x8000u : 0x80000000u;
        if (o.mods & kModAbs) r.and_mask &= ~sign;
        if (o.mods & kModNeg) r.xor_mask = sign;
    }
    return r;
}

bool is_alu(Sem k) {
    return k < Sem::DeviceLoad;
}

// The special registers of a thread's position, x y z from these numbers:
// in its threadgroup, and in the grid.
constexpr std::uint32_t kSrPositionInThreadgroup = 48;
constexpr std::uint32_t kSrPositionInGrid = 80;

std::uint32_t special_register(std::uint32_t sr, const SimdState& s, unsigned lane) {
    const SimdPlace& p = s.place;
    switch (sr) {
        case 0:
        case 1:
        case 2:
            return p.threadgroup_position[sr];
        case 4:
        case 5:
        case 6:
            return p.threadgroup_size[sr - 4];
        case 8:
        case 9:
        case 10:
            return p.threadgroup_size[sr - 8];
        case 20:
            return 0;
        case kSrPositionInThreadgroup:
        case kSrPositionInThreadgroup + 1:
        case kSrPositionInThreadgroup + 2:
            return p.position_in_threadgroup(lane)[sr - kSrPositionInThreadgroup];
        case 51:
            return p.index_in_threadgroup(lane);
        case 52:
            return lane;
        case 53:
            return p.simd_in_group;
        case 56:  // among the quad's active lanes below this one
            return static_cast<std::uint32_t>(
                __builtin_popcount(s.exec & ((1u << lane) - 1u) & (0xfu << (lane & ~3u))));
        case 58:
            return static_cast<std::uint32_t>(__builtin_popcount(s.exec & ((1u << lane) - 1u)));
        case 63:
            return (s.exec >> lane) & 1u;
        case kSrPositionInGrid:
        case kSrPositionInGrid + 1:
        case kSrPositionInGrid + 2:
            return p.position_in_grid(lane)[sr - kSrPositionInGrid];
        default:
            return 0;
    }
}

namespace {

template <class F>
void each(std::uint32_t mask, F&& f) {
    for (unsigned l = 0; l < kLanes; ++l)
        if (mask >> l & 1u) f(l);
}

// The 8x8 matrix fragment of a simd: lane l holds row m, columns n and n+1
// (the layout Apple's simdgroup_matrix uses, as Metal code that reads the
// fragments directly, e.g. MLX's steel GEMM, relies on).
struct FragmentPlace {
    unsigned row, col;
};
constexpr FragmentPlace fragment_place(unsigned lane) {
    const unsigned q = lane / 4;
    return {(q & 4u) + ((lane / 2) % 4), (q & 2u) * 2 + (lane % 2) * 2};
}

// Where each lane's pair of a 32-bit fragment sits among its 64 elements
// (row-major): elements i and i + 1. A table, so that moving a fragment
// between registers and rows costs a load per lane, not the arithmetic of
// fragment_place.
constexpr std::array<std::uint8_t, kLanes> kFragmentElement = [] {
    std::array<std::uint8_t, kLanes> t{};
    for (unsigned l = 0; l < kLanes; ++l) {
        const FragmentPlace p = fragment_place(l);
        t[l] = static_cast<std::uint8_t>(8 * p.row + p.col);
    }
    return t;
}();

// An even lane and the next hold neighbouring pairs of one row (columns
// n, n + 1 and n + 2, n + 3): the register pair's two lanes move as four
// consecutive elements.
constexpr bool even_lanes_lead_runs_of_four() {
    for (unsigned l = 0; l < kLanes; l += 2)
        if (kFragmentElement[l + 1] != kFragmentElement[l] + 2 || kFragmentElement[l] % 4 != 0)
            return false;
    return true;
}
static_assert(even_lanes_lead_runs_of_four());

// Elements i..i+3 of a fragment from lanes l, l + 1 (even l) of a register
// pair (lo, hi), and back: whole words, no per-element index.
void pair_lanes_to_elements(const std::uint32_t* lo, const std::uint32_t* hi, unsigned l,
                            std::uint32_t* elements) {
    const std::uint32_t run[4] = {lo[l], hi[l], lo[l + 1], hi[l + 1]};
    std::memcpy(elements, run, sizeof run);
}
void elements_to_pair_lanes(const std::uint32_t* elements, unsigned l, std::uint32_t* lo,
                            std::uint32_t* hi) {
    std::uint32_t run[4];
    std::memcpy(run, elements, sizeof run);
    const std::uint32_t even[2] = {run[0], run[2]}, odd[2] = {run[1], run[3]};
    std::memcpy(lo + l, even, sizeof even);
    std::memcpy(hi + l, odd, sizeof odd);
}

// A 32-bit fragment's 64 elements, row-major, from a 64-bit source: a
// register pair's two registers read straight (the common case), anything
// else lane by lane.
void gather_fragment32(const Operand& o, const SimdState& s, const Uniforms& u,
                       std::uint32_t* out) {
    if (o.kind == OperandKind::Reg && o.halves == 4) {
        const std::uint32_t* lo = s.reg(o.first_half >> 1);
        const std::uint32_t* hi = lo + kLanes;  // the pair's second register
        for (unsigned l = 0; l < kLanes; l += 2)
            pair_lanes_to_elements(lo, hi, l, out + kFragmentElement[l]);
        return;
    }
    for (unsigned l = 0; l < kLanes; ++l) {
        const unsigned i = kFragmentElement[l];
        const std::uint64_t v = read64(o, s, u, l);
        out[i] = static_cast<std::uint32_t>(v);
        out[i + 1] = static_cast<std::uint32_t>(v >> 32);
    }
}

void matrix_fmadd32(const KernelInstruction& k, SimdState& s, const Uniforms& u) {
    std::uint32_t a[64], b[64], c[64], d[64];
    gather_fragment32(k.in.src[0], s, u, a);
    gather_fragment32(k.in.src[1], s, u, b);
    gather_fragment32(k.in.src[2], s, u, c);
    fp32_matrix_fmadd8x8(d, a, b, c);
    const Operand& dst = k.in.dst[0];
    if (dst.halves == 4 && s.exec == 0xffffffffu) {  // every lane: the pair written straight
        std::uint32_t* lo = s.reg(dst.first_half >> 1);
        std::uint32_t* hi = lo + kLanes;
        for (unsigned l = 0; l < kLanes; l += 2)
            elements_to_pair_lanes(d + kFragmentElement[l], l, lo, hi);
        return;
    }
    each(s.exec, [&](unsigned l) {
        const unsigned i = kFragmentElement[l];
        write_lane(dst, s, l, d[i] | std::uint64_t{d[i + 1]} << 32);
    });
}

void matrix_fmadd16(const KernelInstruction& k, SimdState& s, const Uniforms& u) {
    std::uint16_t a[8][8], b[8][8], c[8][8];
    for (unsigned l = 0; l < kLanes; ++l) {
        const auto [m, n] = fragment_place(l);
        const std::uint64_t av = read64(k.in.src[0], s, u, l), bv = read64(k.in.src[1], s, u, l),
                            cv = read64(k.in.src[2], s, u, l);
        for (unsigned e = 0; e < 2; ++e) {
            a[m][n + e] = static_cast<std::uint16_t>(av >> (16 * e));
            b[m][n + e] = static_cast<std::uint16_t>(bv >> (16 * e));
            c[m][n + e] = static_cast<std::uint16_t>(cv >> (16 * e));
        }
    }
    each(s.exec, [&](unsigned l) {
        const auto [m, n] = fragment_place(l);
        std::uint32_t out = 0;
        for (unsigned e = 0; e < 2; ++e) {
            std::uint16_t acc = c[m][n + e];
            for (unsigned i = 0; i < 8; ++i) acc = sem::fmadd16(a[m][i], b[i][n + e], acc);
            out |= std::uint32_t{acc} << (16 * e);
        }
        write_lane(k.in.dst[0], s, l, out);
    });
}

// Cross-lane reads: every lane's source first, then the writes, so a
// destination that is also the source reads the old values.
template <class Index>
void shuffle(const KernelInstruction& k, SimdState& s, const Uniforms& u, Index index) {
    const Source a = resolve(k.in.src[0], s, u), b = resolve(k.in.src[1], s, u);
    std::array<std::uint32_t, kLanes> values{};
    for (unsigned l = 0; l < kLanes; ++l) values[l] = a.u32(l);
    each(s.exec,
         [&](unsigned l) { write_lane(k.in.dst[0], s, l, values[index(l, b.u32(l)) & 31u]); });
}

// Exclusive prefix within each group of `width` lanes (4: a quad, 32: the
// simd) over its active lanes, lowest lane first: a lane gets `identity`
// combined with every active lane below it in its group.
template <typename Op>
void prefix(const KernelInstruction& k, SimdState& s, const Uniforms& u, unsigned width,
            std::uint32_t identity, Op op) {
    const Source a = resolve(k.in.src[0], s, u);
    std::array<std::uint32_t, kLanes> result{};
    for (unsigned q = 0; q < kLanes; q += width) {
        std::uint32_t running = identity;
        for (unsigned l = q; l < q + width; ++l) {
            if (!((s.exec >> l) & 1u)) continue;
            result[l] = running;
            running = op(running, a.u32(l));
        }
    }
    each(s.exec, [&](unsigned l) { write_lane(k.in.dst[0], s, l, result[l]); });
}

// Reduction within each group of `width` lanes over its active lanes, lowest
// lane first: every active lane gets its group's combined value.
template <typename Op>
void reduce(const KernelInstruction& k, SimdState& s, const Uniforms& u, unsigned width,
            std::uint32_t identity, Op op, Imm16 imm16 = Imm16::Integer) {
    const Source a = resolve(k.in.src[0], s, u, imm16);
    std::array<std::uint32_t, kLanes> result{};
    for (unsigned q = 0; q < kLanes; q += width) {
        std::uint32_t running = identity;
        for (unsigned l = q; l < q + width; ++l)
            if ((s.exec >> l) & 1u) running = op(running, a.u32(l));
        for (unsigned l = q; l < q + width; ++l) result[l] = running;
    }
    each(s.exec, [&](unsigned l) { write_lane(k.in.dst[0], s, l, result[l]); });
}

// The 16-bit operations of the reductions, on values held in 32 bits.
std::uint32_t fadd16_of(std::uint32_t a, std::uint32_t b) {
    return sem::fadd16(static_cast<std::uint16_t>(a), static_cast<std::uint16_t>(b));
}
std::uint32_t fmul16_of(std::uint32_t a, std::uint32_t b) {
    return sem::fmul16(static_cast<std::uint16_t>(a), static_cast<std::uint16_t>(b));
}
std::uint32_t iadd16_of(std::uint32_t a, std::uint32_t b) {
    return (a + b) & 0xffffu;
}

void ballot(const KernelInstruction& k, SimdState& s, std::uint32_t result, bool quad) {
    each(s.exec, [&](unsigned l) {
        write_lane(k.in.dst[0], s, l, quad ? (result >> (l & ~3u)) & 0xfu : result);
    });
}

}  // namespace

void execute_alu(const KernelInstruction& k, SimdState& s, const Uniforms& u) {
    const Instruction& in = k.in;
    const std::uint32_t mask = s.exec;
    const Operand& d = in.dst[0];
    // Sources, resolved once for every lane. 16-bit float operations read
    // float immediates as 16-bit floats.
    auto src = [&](unsigned i, Imm16 f = Imm16::Integer) { return resolve(in.src[i], s, u, f); };
    // Writes value(l) to the destination of every active lane. A 32-bit
    // destination is stored directly (the common case, and the fast path of
    // the executor: no per-lane width test, no mask test for a full simd).
    auto store = [&](auto value) {
        if (d.halves == 2) {
            std::uint32_t* out = s.reg(d.first_half >> 1);
            if (mask == 0xffffffffu) {
                for (unsigned l = 0; l < kLanes; ++l) out[l] = static_cast<std::uint32_t>(value(l));
            } else {
                each(mask, [&](unsigned l) { out[l] = static_cast<std::uint32_t>(value(l)); });
            }
        } else {
            each(mask, [&](unsigned l) { write_lane(d, s, l, value(l)); });
        }
    };
    auto unary32 = [&](auto f) {
        const Source a = src(0);
        store([&](unsigned l) { return f(a.u32(l)); });
    };
    auto binary32 = [&](auto f) {
        const Source a = src(0), b = src(1);
        store([&](unsigned l) { return f(a.u32(l), b.u32(l)); });
    };
    auto ternary32 = [&](auto f) {
        const Source a = src(0), b = src(1), c = src(2);
        store([&](unsigned l) { return f(a.u32(l), b.u32(l), c.u32(l)); });
    };
    auto unary16 = [&](auto f, Imm16 kind) {
        const Source a = src(0, kind);
        each(mask, [&](unsigned l) { write_lane(d, s, l, f(a.u16(l))); });
    };
    auto binary16 = [&](auto f, Imm16 kind) {
        const Source a = src(0, kind), b = src(1, kind);
        each(mask, [&](unsigned l) { write_lane(d, s, l, f(a.u16(l), b.u16(l))); });
    };
    auto ternary16 = [&](auto f, Imm16 kind) {
        const Source a = src(0, kind), b = src(1, kind), c = src(2, kind);
        each(mask, [&](unsigned l) { write_lane(d, s, l, f(a.u16(l), b.u16(l), c.u16(l))); });
    };
    // fadd32 / fmul32 / fmadd32 with a 32-bit destination go through the
    // vectorised lane loops; sources become 32-lane arrays first.
    auto fp32 = [&](Fp32Op op) {
        const unsigned n = op == Fp32Op::Madd ? 3 : 2;
        if (d.halves != 2) {
            if (op == Fp32Op::Add)
                return binary32([](std::uint32_t a, std::uint32_t b) { return sem::fadd32(a, b); });
            if (op == Fp32Op::Mul)
                return binary32([](std::uint32_t a, std::uint32_t b) { return sem::fmul32(a, b); });
            return ternary32([](std::uint32_t a, std::uint32_t b, std::uint32_t c) {
                return sem::fmadd32(a, b, c);
            });
        }
        std::uint32_t splat[3][kLanes];
        const std::uint32_t* lanes[3] = {nullptr, nullptr, nullptr};
        for (unsigned i = 0; i < n; ++i) {
            const Source v = src(i);
            if (v.p && v.shift == 0 && v.and_mask == ~0u && v.xor_mask == 0) {
                lanes[i] = v.p;
            } else if (!v.p) {  // a uniform or an immediate: one value for every lane
                const std::uint32_t x = v.u32(0);
                for (unsigned l = 0; l < kLanes; ++l) splat[i][l] = x;
                lanes[i] = splat[i];
            } else {
                for (unsigned l = 0; l < kLanes; ++l) splat[i][l] = v.u32(l);
                lanes[i] = splat[i];
            }
        }
        fp32_lanes(op, s.reg(d.first_half >> 1), lanes[0], lanes[1], lanes[2], mask);
    };
    const auto F = Imm16::Float, I = Imm16::Integer;
    const bool sg = k.is_signed;
    const auto icond = static_cast<sem::IntCond>(k.cond);
    const auto fcond = static_cast<sem::FloatCond>(k.cond);
    auto sx16 = [](std::uint32_t v) {
        return static_cast<std::uint32_t>(static_cast<std::int16_t>(v));
    };

    // Integer min and max for the reductions (the identity is the other extreme).
    const auto smax = [](std::uint32_t a, std::uint32_t b) {
        return static_cast<std::int32_t>(a) < static_cast<std::int32_t>(b) ? b : a;
    };
    const auto smin = [](std::uint32_t a, std::uint32_t b) {
        return static_cast<std::int32_t>(b) < static_cast<std::int32_t>(a) ? b : a;
    };
    const auto umax = [](std::uint32_t a, std::uint32_t b) { return a < b ? b : a; };
    const auto umin = [](std::uint32_t a, std::uint32_t b) { return b < a ? b : a; };
    switch (k.sem) {
        case Sem::Fadd16:
            return binary16(sem::fadd16, F);
        case Sem::Fmul16:
            return binary16(sem::fmul16, F);
        case Sem::Fmadd16:
            return ternary16(sem::fmadd16, F);
        case Sem::Fadd32:
            return fp32(Fp32Op::Add);
        case Sem::Fmul32:
            return fp32(Fp32Op::Mul);
        case Sem::Fmadd32:
            return fp32(Fp32Op::Madd);
        case Sem::Iadd16: {
            const unsigned sh = k.shift;
            const bool neg = k.negate;
            return binary16(
                [&](std::uint16_t a, std::uint16_t b) {
                    const std::uint32_t bb = static_cast<std::uint32_t>(b) << sh;
                    return static_cast<std::uint16_t>(neg ? a - bb : a + bb);
                },
                I);
        }
        case Sem::Iadd32: {
            const unsigned sh = k.shift;
            const bool neg = k.negate;
            return binary32([&](std::uint32_t a, std::uint32_t b) {
                return neg ? a - (b << sh) : a + (b << sh);
            });
        }
        case Sem::Iaddsat32:
            return binary32(
                [&](std::uint32_t a, std::uint32_t b) { return sem::iaddsat32(a, b, sg); });
        case Sem::Bitop16:
            return binary16(
                [&](std::uint16_t a, std::uint16_t b) {
                    return static_cast<std::uint16_t>(sem::bitop(k.table, a, b));
                },
                I);
        case Sem::Bitop32:
            return binary32(
                [&](std::uint32_t a, std::uint32_t b) { return sem::bitop(k.table, a, b); });
        case Sem::Fcmpsel16: {
            const Source a = src(0, F), b = src(1, F), x = src(2, F), y = src(3, F);
            return each(mask, [&](unsigned l) {
                write_lane(d, s, l,
                           sem::fcompare16(fcond, a.u16(l), b.u16(l)) ? x.u16(l) : y.u16(l));
            });
        }
        case Sem::Fcmpsel32: {
            const Source a = src(0), b = src(1), x = src(2), y = src(3);
            return each(mask, [&](unsigned l) {
                write_lane(d, s, l,
                           sem::fcompare32(fcond, a.u32(l), b.u32(l)) ? x.u32(l) : y.u32(l));
            });
        }
        case Sem::Icmpsel16:
        case Sem::Icmpsel32: {
            const unsigned bits = k.sem == Sem::Icmpsel16 ? 16 : 32;
            const Source a = src(0), b = src(1), x = src(2), y = src(3);
            return each(mask, [&](unsigned l) {
                write_lane(d, s, l,
                           sem::icompare(icond, a.u32(l), b.u32(l), bits) ? x.u32(l) : y.u32(l));
            });
        }
        case Sem::Fmin16:
            return binary16(sem::fmin16, F);
        case Sem::Fmax16:
            return binary16(sem::fmax16, F);
        case Sem::Fmin32:
            return binary32(sem::fmin32);
        case Sem::Fmax32:
            return binary32(sem::fmax32);
        case Sem::Imin16:
        case Sem::Imax16: {
            const auto lt = sg ? sem::IntCond::SLt : sem::IntCond::ULt;
            const bool mn = k.sem == Sem::Imin16;
            return binary16(
                [&](std::uint16_t a, std::uint16_t b) {
                    return sem::icompare(lt, a, b, 16) == mn ? a : b;
                },
                I);
        }
        case Sem::Imin32:
        case Sem::Imax32: {
            const auto lt = sg ? sem::IntCond::SLt : sem::IntCond::ULt;
            const bool mn = k.sem == Sem::Imin32;
            return binary32([&](std::uint32_t a, std::uint32_t b) {
                return sem::icompare(lt, a, b, 32) == mn ? a : b;
            });
        }
        case Sem::Mov:
        case Sem::MovImm:
            return each(mask, [&](unsigned l) { write_lane(d, s, l, read64(in.src[0], s, u, l)); });
        case Sem::GetSr: {
            const std::uint32_t sr = in.src[0].imm;
            // A position: every lane's at once, stepped rather than divided
            // out per lane as special_register (the per-lane definition) does.
            auto positions = [&](bool in_grid, std::uint32_t first) {
                const auto dim = s.place.lane_positions(in_grid)[sr - first];
                each(mask, [&](unsigned l) { write_lane(d, s, l, dim[l]); });
            };
            if (sr >= kSrPositionInThreadgroup && sr < kSrPositionInThreadgroup + 3)
                return positions(false, kSrPositionInThreadgroup);
            if (sr >= kSrPositionInGrid && sr < kSrPositionInGrid + 3)
                return positions(true, kSrPositionInGrid);
            return each(mask, [&](unsigned l) { write_lane(d, s, l, special_register(sr, s, l)); });
        }
        case Sem::Imul16:
            return binary16(
                [](std::uint16_t a, std::uint16_t b) {
                    return static_cast<std::uint16_t>(std::uint32_t{a} * b);
                },
                I);
        case Sem::Imadd16: {
            const unsigned sh = k.shift;
            const bool neg = k.negate;
            return ternary16(
                [&](std::uint16_t a, std::uint16_t b, std::uint16_t c) {
                    const std::uint32_t cc = static_cast<std::uint32_t>(c) << sh;
                    return static_cast<std::uint16_t>(std::uint32_t{a} * b + (neg ? 0u - cc : cc));
                },
                I);
        }
        case Sem::Imul16x32:
            return binary32([&](std::uint32_t a, std::uint32_t b) {
                return sg ? sx16(a) * sx16(b) : (a & 0xffffu) * (b & 0xffffu);
            });
        case Sem::Imadd16x32:
            return ternary32([&](std::uint32_t a, std::uint32_t b, std::uint32_t c) {
                return (sg ? sx16(a) * sx16(b) : (a & 0xffffu) * (b & 0xffffu)) + c;
            });
        case Sem::Imul32:
            return binary32([](std::uint32_t a, std::uint32_t b) { return a * b; });
        case Sem::Imadd32: {
            const unsigned sh = k.shift;
            const bool neg = k.negate;
            return ternary32([&](std::uint32_t a, std::uint32_t b, std::uint32_t c) {
                return a * b + (neg ? 0u - (c << sh) : c << sh);
            });
        }
        case Sem::Imul32x64: {
            const Source a = src(0), b = src(1);
            return each(mask, [&](unsigned l) {
                write_lane(d, s, l, sem::imul32x64(a.u32(l), b.u32(l), sg));
            });
        }
        case Sem::Imadd32x64: {
            const Source a = src(0), b = src(1);
            return each(mask, [&](unsigned l) {
                write_lane(d, s, l,
                           sem::imul32x64(a.u32(l), b.u32(l), sg) + read64(in.src[2], s, u, l));
            });
        }
        case Sem::Imulhi32:
            return binary32(
                [&](std::uint32_t a, std::uint32_t b) { return sem::imulhi32(a, b, sg); });
        case Sem::Bfeil:
            return ternary32(sem::bfeil);
        case Sem::Bfi: {
            const Source a = src(0), b = src(1), c = src(2), e = src(3);
            return each(mask, [&](unsigned l) {
                write_lane(d, s, l, sem::bfi(a.u32(l), b.u32(l), c.u32(l), e.u32(l)));
            });
        }
        case Sem::Extr:
            return ternary32(sem::extr);
        case Sem::Intl: {
            const Source a = src(0), b = src(1);
            return each(mask,
                        [&](unsigned l) { write_lane(d, s, l, sem::intl(a.u16(l), b.u16(l))); });
        }
        case Sem::Bitrev:
            return unary32(sem::bitrev32);
        case Sem::Popcount:
            return unary32(sem::popcount32);
        case Sem::Ffs:
            return unary32(sem::ffs32);
        case Sem::Clz:
            return unary32(sem::clz32);
        case Sem::Shl:
            return binary32(sem::shl32);
        case Sem::Shr:
            return binary32(sem::shr32);
        case Sem::Asr:
            return binary32(sem::asr32);
        case Sem::Shlhi:
            return binary16(sem::shl16, I);
        case Sem::Shrhi:
            return binary16(sem::shr16, I);
        case Sem::Asrh:
            return binary16(sem::asr16, I);
        case Sem::Convert: {
            const auto mode = static_cast<sem::ConvertMode>(k.table);
            return unary32([&](std::uint32_t a) { return sem::convert32(mode, a); });
        }
        case Sem::Rint:
            return unary32(sem::rint32);
        case Sem::Trunc:
            return unary32(sem::trunc32);
        case Sem::Floor:
            return unary32(sem::floor32);
        case Sem::Ceil:
            return unary32(sem::ceil32);
        case Sem::Rcp16:
            return unary16(sem::rcp16, F);
        case Sem::Rcp32:
            return unary32(sem::rcp32);
        case Sem::Rsqrt16:
            return unary16(sem::rsqrt16, F);
        case Sem::Rsqrt32:
            return unary32(sem::rsqrt32);
        case Sem::Exp2_16:
            return unary16(sem::exp2_16, F);
        case Sem::Exp2_32:
            return unary32(sem::exp2_32);
        case Sem::Log2_16:
            return unary16(sem::log2_16, F);
        case Sem::Log2_32:
            return unary32(sem::log2_32);
        case Sem::SinPt1:
            return unary32(sem::sin_pt_1);
        case Sem::SinPt2:
            return unary32(sem::sin_pt_2);
        case Sem::SimdShuffle:
        case Sem::SimdBroadcast:
            return shuffle(k, s, u, [](unsigned, std::uint32_t b) { return b; });
        case Sem::SimdShuffleDown:  // lanes past the end read their own value
            return shuffle(k, s, u,
                           [](unsigned l, std::uint32_t b) { return l + b < kLanes ? l + b : l; });
        case Sem::SimdShuffleUp:
            return shuffle(k, s, u, [](unsigned l, std::uint32_t b) { return b <= l ? l - b : l; });
        case Sem::SimdShuffleXor:
            return shuffle(k, s, u, [](unsigned l, std::uint32_t b) { return l ^ (b & 31u); });
        case Sem::SimdShuffleRotate:
            return shuffle(k, s, u, [](unsigned l, std::uint32_t b) { return l + b; });
        case Sem::QuadShuffle:
        case Sem::QuadBroadcast:
            return shuffle(k, s, u,
                           [](unsigned l, std::uint32_t b) { return (l & ~3u) | (b & 3u); });
        case Sem::QuadPrefixFadd32:
            return prefix(k, s, u, 4, 0u, sem::fadd32);
        case Sem::QuadPrefixFmul32:
            return prefix(k, s, u, 4, 0x3f800000u, sem::fmul32);  // 1.0f
        case Sem::QuadPrefixIadd32:
            return prefix(k, s, u, 4, 0u, std::plus<std::uint32_t>{});
        case Sem::QuadPrefixIxor32:
            return prefix(k, s, u, 4, 0u, std::bit_xor<std::uint32_t>{});
        case Sem::SimdPrefixFadd32:
            return prefix(k, s, u, kLanes, 0u, sem::fadd32);
        case Sem::SimdPrefixFmul32:
            return prefix(k, s, u, kLanes, 0x3f800000u, sem::fmul32);
        case Sem::SimdPrefixIadd32:
            return prefix(k, s, u, kLanes, 0u, std::plus<std::uint32_t>{});
        case Sem::SimdPrefixIxor32:
            return prefix(k, s, u, kLanes, 0u, std::bit_xor<std::uint32_t>{});
        case Sem::QuadReduceFadd32:
            return reduce(k, s, u, 4, 0u, sem::fadd32);
        case Sem::QuadReduceFmul32:
            return reduce(k, s, u, 4, 0x3f800000u, sem::fmul32);
        case Sem::QuadReduceIadd32:
            return reduce(k, s, u, 4, 0u, std::plus<std::uint32_t>{});
        case Sem::QuadReduceIxor32:
            return reduce(k, s, u, 4, 0u, std::bit_xor<std::uint32_t>{});
        case Sem::SimdReduceFadd32:
            return reduce(k, s, u, kLanes, 0u, sem::fadd32);
        case Sem::SimdReduceFmul32:
            return reduce(k, s, u, kLanes, 0x3f800000u, sem::fmul32);
        case Sem::SimdReduceIadd32:
            return reduce(k, s, u, kLanes, 0u, std::plus<std::uint32_t>{});
        case Sem::SimdReduceIxor32:
            return reduce(k, s, u, kLanes, 0u, std::bit_xor<std::uint32_t>{});
        // maxNum/minNum's identity is NaN (a NaN loses to every number), so a
        // group of NaNs gives NaN.
        case Sem::QuadReduceFmax32:
            return reduce(k, s, u, 4, 0x7fc00000u, sem::fmax32);
        case Sem::SimdReduceFmax32:
            return reduce(k, s, u, kLanes, 0x7fc00000u, sem::fmax32);
        case Sem::QuadReduceFmin32:
            return reduce(k, s, u, 4, 0x7fc00000u, sem::fmin32);
        case Sem::SimdReduceFmin32:
            return reduce(k, s, u, kLanes, 0x7fc00000u, sem::fmin32);
        case Sem::QuadReduceSmax32:
            return reduce(k, s, u, 4, 0x80000000u, smax);
        case Sem::SimdReduceSmax32:
            return reduce(k, s, u, kLanes, 0x80000000u, smax);
        case Sem::QuadReduceSmin32:
            return reduce(k, s, u, 4, 0x7fffffffu, smin);
        case Sem::SimdReduceSmin32:
            return reduce(k, s, u, kLanes, 0x7fffffffu, smin);
        case Sem::QuadReduceUmax32:
            return reduce(k, s, u, 4, 0u, umax);
        case Sem::SimdReduceUmax32:
            return reduce(k, s, u, kLanes, 0u, umax);
        case Sem::QuadReduceUmin32:
            return reduce(k, s, u, 4, 0xffffffffu, umin);
        case Sem::SimdReduceUmin32:
            return reduce(k, s, u, kLanes, 0xffffffffu, umin);
        case Sem::QuadReduceIand32:
            return reduce(k, s, u, 4, 0xffffffffu, std::bit_and<std::uint32_t>{});
        case Sem::SimdReduceIand32:
            return reduce(k, s, u, kLanes, 0xffffffffu, std::bit_and<std::uint32_t>{});
        case Sem::QuadReduceIor32:
            return reduce(k, s, u, 4, 0u, std::bit_or<std::uint32_t>{});
        case Sem::SimdReduceIor32:
            return reduce(k, s, u, kLanes, 0u, std::bit_or<std::uint32_t>{});
        // 16 bits: the source reads as its 16-bit value (a float immediate
        // made 16-bit), the destination keeps its other half.
        case Sem::QuadReduceFadd16:
            return reduce(k, s, u, 4, 0u, fadd16_of, Imm16::Float);
        case Sem::QuadReduceFmul16:
            return reduce(k, s, u, 4, 0x3c00u, fmul16_of, Imm16::Float);  // 1.0 in half
        case Sem::QuadReduceIadd16:
            return reduce(k, s, u, 4, 0u, iadd16_of);
        case Sem::QuadReduceIxor16:
            return reduce(k, s, u, 4, 0u, std::bit_xor<std::uint32_t>{});
        case Sem::SimdReduceFadd16:
            return reduce(k, s, u, kLanes, 0u, fadd16_of, Imm16::Float);
        case Sem::SimdReduceFmul16:
            return reduce(k, s, u, kLanes, 0x3c00u, fmul16_of, Imm16::Float);
        case Sem::SimdReduceIadd16:
            return reduce(k, s, u, kLanes, 0u, iadd16_of);
        case Sem::SimdReduceIxor16:
            return reduce(k, s, u, kLanes, 0u, std::bit_xor<std::uint32_t>{});
        case Sem::SimdBallot:
        case Sem::QuadBallot: {
            const Source a = src(0);
            std::uint32_t r = 0;
            each(mask, [&](unsigned l) { r |= (a.u32(l) != 0 ? 1u : 0u) << l; });
            return ballot(k, s, r, k.sem == Sem::QuadBallot);
        }
        case Sem::IcmpBallot: {
            const Source a = src(0), b = src(1);
            std::uint32_t r = 0;
            each(mask, [&](unsigned l) {
                r |= (sem::icompare(icond, a.u32(l), b.u32(l), 32) ? 1u : 0u) << l;
            });
            return ballot(k, s, r, false);
        }
        case Sem::FcmpBallot: {
            const Source a = src(0), b = src(1);
            std::uint32_t r = 0;
            each(mask, [&](unsigned l) {
                r |= (sem::fcompare32(fcond, a.u32(l), b.u32(l)) ? 1u : 0u) << l;
            });
            return ballot(k, s, r, false);
        }
        case Sem::SimdMatrixFmadd16:
            return matrix_fmadd16(k, s, u);
        case Sem::SimdMatrixFmadd32:
            return matrix_fmadd32(k, s, u);
        default:
            return;  // memory, control and synchronisation run in the stream
    }
}

}  // namespace agx::kernel
