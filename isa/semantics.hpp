// What each instruction computes, per lane, as plain functions on the bits
// of its operands: the functional semantics the kernel executor
// (sim/kernel/) applies lane by lane. ISA fact only: no registers, no
// memory, no timing.
//
// Sources: applegpu's documentation (dougallj/applegpu, docs.html) for the
// operations it specifies; where it leaves an operation open (convert,
// sin_pt_*, the 16-bit shifts, min/max on NaN) the definition here is
// agxsim's and is stated at the function and in traces/KERNEL.md.
//
// Floating point: binary32 operations flush denormal inputs and results to
// zero (sign kept), as applegpu specifies for 32-bit float sources and
// destinations; binary16 operations keep denormals. Every arithmetic result
// is rounded to nearest, ties to even; fmadd is fused (one rounding).
// A NaN result is the canonical quiet NaN (0x7fc00000 / 0x7e00).
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string_view>

namespace agx::isa::sem {

// ---- conversions between the float formats ------------------------------
inline float f32(std::uint32_t bits);
inline std::uint32_t bits(float f);
// binary16 <-> binary32, exact one way, round to nearest even the other.
float f16_to_f32(std::uint16_t h);
std::uint16_t f32_to_f16(float f);

// ---- float arithmetic ---------------------------------------------------
inline std::uint32_t fadd32(std::uint32_t a, std::uint32_t b);
inline std::uint32_t fmul32(std::uint32_t a, std::uint32_t b);
inline std::uint32_t fmadd32(std::uint32_t a, std::uint32_t b, std::uint32_t c);  // a*b+c, fused
std::uint16_t fadd16(std::uint16_t a, std::uint16_t b);
std::uint16_t fmul16(std::uint16_t a, std::uint16_t b);
std::uint16_t fmadd16(std::uint16_t a, std::uint16_t b, std::uint16_t c);
// IEEE minNum / maxNum: a NaN operand loses to a number; both NaN gives NaN.
// -0 is below +0.
std::uint32_t fmin32(std::uint32_t a, std::uint32_t b);
std::uint32_t fmax32(std::uint32_t a, std::uint32_t b);
std::uint16_t fmin16(std::uint16_t a, std::uint16_t b);
std::uint16_t fmax16(std::uint16_t a, std::uint16_t b);

// Rounding to an integral value (32-bit float in, 32-bit float out).
std::uint32_t rint32(std::uint32_t a);   // nearest, ties to even
std::uint32_t trunc32(std::uint32_t a);  // toward zero
std::uint32_t floor32(std::uint32_t a);
std::uint32_t ceil32(std::uint32_t a);

// float <-> integer. Float to integer rounds toward zero and saturates to
// the integer's range (as Metal's conversions do); NaN gives 0. Integer to
// float rounds to nearest even.
enum class ConvertMode : std::uint8_t { U32ToF, S32ToF, FToU32, FToS32 };
std::optional<ConvertMode> parse_convert_mode(
    std::string_view name);  // "u32_to_f", "s32_to_f", "f_to_u32", "f_to_s32"
std::uint32_t convert32(ConvertMode mode, std::uint32_t a);

// ---- transcendental (the special-function units) -------------------------
// Computed in double precision from the (flushed) input and rounded once to
// the result format: within 1 ulp of the exact result (documented precision;
// the hardware's own error is up to a few ulp and not modelled).
// Special cases follow IEEE/C: rcp(+-0) = +-inf, rsqrt(-x) = NaN,
// rsqrt(+0) = +inf, log2(0) = -inf, log2(-x) = NaN, exp2(-inf) = 0.
std::uint32_t rcp32(std::uint32_t a);
std::uint32_t rsqrt32(std::uint32_t a);
std::uint32_t exp2_32(std::uint32_t a);
std::uint32_t log2_32(std::uint32_t a);
std::uint16_t rcp16(std::uint16_t a);
std::uint16_t rsqrt16(std::uint16_t a);
std::uint16_t exp2_16(std::uint16_t a);
std::uint16_t log2_16(std::uint16_t a);
// Sine in two parts (applegpu: the input is an angle in quarter turns in
// [0, 4); sin(x * tau / 4) = sin_pt_1(x) * sin_pt_2(sin_pt_1(x))).
// agxsim's split: sin_pt_1 folds x to y in [-1, 1] with the same sine
// (y = x for x < 1, 2 - x for x < 3, x - 4 above); sin_pt_2(y) is
// sin(y * pi / 2) / y (pi / 2 at y = 0). Inputs outside [0, 4) are first
// reduced modulo 4.
std::uint32_t sin_pt_1(std::uint32_t a);
std::uint32_t sin_pt_2(std::uint32_t a);

// ---- comparisons --------------------------------------------------------
// Float conditions: eq, ne, lt, le, gt, ge are IEEE (any NaN: false, except
// ne: true). applegpu's "nan loses" forms ltn / gtn: the comparison of
// min/max, true when b is NaN and a is not.
enum class FloatCond : std::uint8_t { Eq, Ne, Lt, Le, Gt, Ge, LtN, GtN };
enum class IntCond : std::uint8_t { Eq, Ne, ULt, ULe, UGt, UGe, SLt, SLe, SGt, SGe };
// Names as written in kernels: "eq", "ne", "lt", "le", "gt", "ge", "ltn",
// "gtn"; integer "eq", "ne", "ult", "ule", "ugt", "uge", "slt", "sle", "sgt",
// "sge" (applegpu's "seq"/"ueq" are accepted for eq).
std::optional<FloatCond> parse_float_cond(std::string_view name);
std::optional<IntCond> parse_int_cond(std::string_view name);
bool fcompare32(FloatCond c, std::uint32_t a, std::uint32_t b);
bool fcompare16(FloatCond c, std::uint16_t a, std::uint16_t b);
// `bits` is 16 or 32: the operands' width (their low `bits` bits count).
bool icompare(IntCond c, std::uint32_t a, std::uint32_t b, unsigned bits);
// The same for the 32 lanes of a simd at once: bit l of the result is the
// comparison of a[l] with b[l], as the functions above give it (0 for a
// condition outside the enumeration, as they return false).
using LaneWords = std::array<std::uint32_t, 32>;
using LaneHalves = std::array<std::uint16_t, 32>;
std::uint32_t icompare_lanes(IntCond c, const LaneWords& a, const LaneWords& b, unsigned bits);
std::uint32_t fcompare32_lanes(FloatCond c, const LaneWords& a, const LaneWords& b);
std::uint32_t fcompare16_lanes(FloatCond c, const LaneHalves& a, const LaneHalves& b);

// ---- integer ------------------------------------------------------------
// Saturating add: to [0, 2^32-1] unsigned or [-2^31, 2^31-1] signed.
std::uint32_t iaddsat32(std::uint32_t a, std::uint32_t b, bool is_signed);
// High 32 bits of the 64-bit product.
std::uint32_t imulhi32(std::uint32_t a, std::uint32_t b, bool is_signed);
// Full 64-bit product of two 32-bit values.
std::uint64_t imul32x64(std::uint32_t a, std::uint32_t b, bool is_signed);
// Two-input bitwise truth table, applegpu's tt0..tt3 as bits 0..3 of `table`:
// bit 0 selects ~a&~b, bit 1 a&~b, bit 2 ~a&b, bit 3 a&b.
std::uint32_t bitop(std::uint8_t table, std::uint32_t a, std::uint32_t b);
// Names for the tables: and, or, xor, nand, nor, xnor, andn (a & ~b),
// orn (a | ~b), not_a, not_b, a, b, zero, ones.
std::optional<std::uint8_t> parse_bitop(std::string_view name);
std::uint32_t bitrev32(std::uint32_t a);
std::uint32_t popcount32(std::uint32_t a);
// applegpu's ffs: the index of the most significant set bit, 0xffffffff for 0.
std::uint32_t ffs32(std::uint32_t a);
std::uint32_t clz32(std::uint32_t a);  // 32 for 0
// Bit fields, as the catalogue documents their operands. Offsets and counts
// use their low 7 bits; a count of 0 or above 31 means 32 bits.
std::uint32_t bfeil(std::uint32_t value, std::uint32_t offset,
                    std::uint32_t count);  // (value >> offset) & mask
std::uint32_t bfi(std::uint32_t base, std::uint32_t insert, std::uint32_t offset,
                  std::uint32_t count);
std::uint32_t extr(std::uint32_t lo, std::uint32_t hi,
                   std::uint32_t shift);  // ((hi:lo) >> shift) low 32 bits
// Interleave: bit i of a goes to bit 2i, bit i of b to bit 2i+1 (16-bit inputs).
std::uint32_t intl(std::uint16_t a, std::uint16_t b);
// Shifts take the amount's low 7 bits (applegpu): 32 and above shifts out
// every bit (asr fills with the sign), so a negative amount (-1 = 127) does too.
std::uint32_t shl32(std::uint32_t a, std::uint32_t amount);
std::uint32_t shr32(std::uint32_t a, std::uint32_t amount);
std::uint32_t asr32(std::uint32_t a, std::uint32_t amount);
// The 16-bit forms, on 16-bit operands with the same rule at 16 bits.
std::uint16_t shl16(std::uint16_t a, std::uint16_t amount);
std::uint16_t shr16(std::uint16_t a, std::uint16_t amount);
std::uint16_t asr16(std::uint16_t a, std::uint16_t amount);

// ---- inline definitions -------------------------------------------------
// The operations kernels run most are defined here, so that the executor's
// per-lane loops inline them.
namespace detail {
// binary32 denormals flush to a zero of the same sign.
inline std::uint32_t flush32(std::uint32_t a) {
    return (a & 0x7f800000u) == 0 ? (a & 0x80000000u) : a;
}
inline float in32(std::uint32_t a) {
    return f32(flush32(a));
}
inline std::uint32_t out32(float r) {
    const std::uint32_t b = bits(r);
    return (b & 0x7fffffffu) > 0x7f800000u ? 0x7fc00000u : flush32(b);
}
}  // namespace detail

inline float f32(std::uint32_t b) {
    float f;
    std::memcpy(&f, &b, sizeof f);
    return f;
}
inline std::uint32_t bits(float f) {
    std::uint32_t b;
    std::memcpy(&b, &f, sizeof b);
    return b;
}
inline std::uint32_t fadd32(std::uint32_t a, std::uint32_t b) {
    return detail::out32(detail::in32(a) + detail::in32(b));
}
inline std::uint32_t fmul32(std::uint32_t a, std::uint32_t b) {
    return detail::out32(detail::in32(a) * detail::in32(b));
}
inline std::uint32_t fmadd32(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    return detail::out32(std::fma(detail::in32(a), detail::in32(b), detail::in32(c)));
}

}  // namespace agx::isa::sem
