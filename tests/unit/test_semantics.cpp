// The per-lane semantics of isa/semantics: each function against values
// worked out by hand or by an independent route (the host's IEEE float
// unit, exhaustive binary16 round trips), at the edges its contract names.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>

#include "isa/semantics.hpp"

using namespace agx::isa::sem;

namespace {
std::uint32_t b(float f) {
    return bits(f);
}
constexpr std::uint32_t kNaN = 0x7fc00000u;
constexpr std::uint32_t kDenorm = 0x00000001u;     // smallest positive binary32 denormal
constexpr std::uint32_t kNegDenorm = 0x80400000u;  // a negative binary32 denormal
}  // namespace

TEST_CASE("binary16 round-trips exactly through binary32, and binary32 rounds to nearest even") {
    for (std::uint32_t h = 0; h < 0x10000u; ++h) {
        const auto x = static_cast<std::uint16_t>(h);
        const bool nan = (x & 0x7fffu) > 0x7c00u;
        if (nan) {
            CHECK(std::isnan(f16_to_f32(x)));
            continue;
        }
        CHECK(f32_to_f16(f16_to_f32(x)) == x);
    }
    CHECK(f16_to_f32(0x3c00) == 1.0f);
    CHECK(f16_to_f32(0x0001) == std::ldexp(1.0f, -24));  // smallest denormal is kept
    CHECK(f16_to_f32(0xfc00) == -std::numeric_limits<float>::infinity());
    // 1 + 2^-11 is halfway between 1 and 1 + 2^-10: ties go to the even 1.
    CHECK(f32_to_f16(1.0f + std::ldexp(1.0f, -11)) == 0x3c00);
    // 1 + 3 * 2^-11 is halfway between 1 + 2^-10 and 1 + 2^-9: even is 1 + 2^-9.
    CHECK(f32_to_f16(1.0f + 3 * std::ldexp(1.0f, -11)) == 0x3c02);
    CHECK(f32_to_f16(65520.0f) == 0x7c00);  // rounds past the largest finite to infinity
    CHECK(f32_to_f16(65504.0f) == 0x7bff);
    CHECK(f32_to_f16(std::ldexp(1.0f, -25)) == 0x0000);  // halfway to the smallest denormal: even
    CHECK(f32_to_f16(std::ldexp(1.5f, -25)) == 0x0001);
    CHECK(f32_to_f16(-0.0f) == 0x8000);
    CHECK(f32_to_f16(std::nanf("")) == 0x7e00);
}

TEST_CASE("binary32 arithmetic is IEEE, fused for fmadd, with denormals flushed") {
    CHECK(fadd32(b(1.5f), b(2.25f)) == b(3.75f));
    CHECK(fmul32(b(-3.0f), b(0.5f)) == b(-1.5f));
    // Fused: (1 + 2^-23)(1 - 2^-23) - 1 = -2^-46 exactly; unfused it is 0.
    const float e = std::ldexp(1.0f, -23);
    CHECK(fmadd32(b(1 + e), b(1 - e), b(-1.0f)) == b(-std::ldexp(1.0f, -46)));
    // Denormal inputs count as zero (sign kept) and denormal results flush.
    CHECK(fadd32(kDenorm, kDenorm) == 0);
    CHECK(fmul32(kNegDenorm, b(1.0f)) == 0x80000000u);
    const float tiny = std::ldexp(1.0f, -100);
    CHECK(fmul32(b(tiny), b(tiny)) == 0);                                    // 2^-200 underflows
    CHECK(fmul32(b(std::ldexp(1.0f, -70)), b(std::ldexp(1.0f, -70))) == 0);  // would be a denormal
    CHECK(fadd32(b(INFINITY), b(-INFINITY)) == kNaN);
    CHECK(fadd32(0x7f800001u, b(1.0f)) == kNaN);  // any NaN comes out canonical
    // Round to nearest even on a tie: 1 + 2^-24 is halfway.
    CHECK(fadd32(b(1.0f), b(std::ldexp(1.0f, -24))) == b(1.0f));
}

TEST_CASE("binary16 arithmetic rounds once and keeps denormals") {
    const std::uint16_t one = 0x3c00, two = 0x4000, half_denorm = 0x0001;
    CHECK(fadd16(one, one) == two);
    CHECK(fadd16(half_denorm, half_denorm) == 0x0002);  // denormals are not flushed
    CHECK(fmul16(two, 0x3800) == one);                  // 2 * 0.5
    CHECK(fmul16(0x7bff, two) == 0x7c00);               // overflow to infinity
    // Fused: (1 + 2^-10)^2 - (1 + 2^-9) = 2^-20 exactly (a binary16
    // denormal); rounding the product first would give 1 + 2^-9 and so 0.
    const std::uint16_t one_ulp = 0x3c01, minus_one_two_ulp = 0xbc02;
    CHECK(fmadd16(one_ulp, one_ulp, minus_one_two_ulp) == 0x0010);
    CHECK(fadd16(fmul16(one_ulp, one_ulp), minus_one_two_ulp) == 0x0000);
    CHECK(fadd16(0x7c00, 0xfc00) == 0x7e00);
}

TEST_CASE("min and max follow minNum/maxNum: a NaN loses, -0 is below +0") {
    CHECK(fmin32(b(1.0f), b(2.0f)) == b(1.0f));
    CHECK(fmax32(b(1.0f), b(2.0f)) == b(2.0f));
    CHECK(fmin32(kNaN, b(5.0f)) == b(5.0f));
    CHECK(fmax32(b(5.0f), 0x7f800001u) == b(5.0f));
    CHECK(fmin32(kNaN, kNaN) == kNaN);
    CHECK(fmin32(b(0.0f), b(-0.0f)) == b(-0.0f));
    CHECK(fmax32(b(-0.0f), b(0.0f)) == b(0.0f));
    CHECK(fmin16(0x3c00, 0xbc00) == 0xbc00);
    CHECK(fmax16(0x7e00, 0x3c00) == 0x3c00);
}

TEST_CASE("rounding to integral values and conversions saturate and round toward zero") {
    CHECK(rint32(b(2.5f)) == b(2.0f));
    CHECK(rint32(b(3.5f)) == b(4.0f));
    CHECK(trunc32(b(-2.7f)) == b(-2.0f));
    CHECK(floor32(b(-2.2f)) == b(-3.0f));
    CHECK(ceil32(b(2.2f)) == b(3.0f));
    CHECK(convert32(ConvertMode::FToS32, b(-7.9f)) == static_cast<std::uint32_t>(-7));
    CHECK(convert32(ConvertMode::FToS32, b(3e9f)) == 0x7fffffffu);
    CHECK(convert32(ConvertMode::FToS32, b(-3e9f)) == 0x80000000u);
    CHECK(convert32(ConvertMode::FToU32, b(-1.0f)) == 0);
    CHECK(convert32(ConvertMode::FToU32, b(5e9f)) == 0xffffffffu);
    CHECK(convert32(ConvertMode::FToU32, kNaN) == 0);
    CHECK(convert32(ConvertMode::U32ToF, 0xffffffffu) == b(4294967296.0f));
    CHECK(convert32(ConvertMode::S32ToF, static_cast<std::uint32_t>(-5)) == b(-5.0f));
    // 2^24 + 1 is not a float: rounds to even, 2^24.
    CHECK(convert32(ConvertMode::U32ToF, (1u << 24) + 1) == b(16777216.0f));
    CHECK(parse_convert_mode("f_to_s32") == ConvertMode::FToS32);
    CHECK_FALSE(parse_convert_mode("f2i"));
}

TEST_CASE("transcendentals are correctly rounded from double, with IEEE special cases") {
    CHECK(rcp32(b(4.0f)) == b(0.25f));
    CHECK(rcp32(b(-0.0f)) == b(-INFINITY));
    CHECK(rcp32(kDenorm) == b(INFINITY));  // the denormal input is a zero
    CHECK(rsqrt32(b(16.0f)) == b(0.25f));
    CHECK(rsqrt32(b(-1.0f)) == kNaN);
    CHECK(rsqrt32(b(0.0f)) == b(INFINITY));
    CHECK(exp2_32(b(10.0f)) == b(1024.0f));
    CHECK(exp2_32(b(-INFINITY)) == 0);
    CHECK(exp2_32(b(-200.0f)) == 0);  // would be a denormal
    CHECK(log2_32(b(0.125f)) == b(-3.0f));
    CHECK(log2_32(b(0.0f)) == b(-INFINITY));
    CHECK(log2_32(b(-1.0f)) == kNaN);
    CHECK(rcp16(0x4000) == 0x3800);
    CHECK(rsqrt16(0x4400) == 0x3800);  // 1/sqrt(4)
    CHECK(exp2_16(0x4000) == 0x4400);  // 2^2
    CHECK(log2_16(0x4400) == 0x4000);
    // exp2 of 1/3 in binary32 is the double result rounded once.
    const float third = 1.0f / 3.0f;
    CHECK(exp2_32(b(third)) == b(static_cast<float>(std::exp2(static_cast<double>(third)))));
}

TEST_CASE("sin_pt_1 then sin_pt_2 give sin of a quarter-turn angle") {
    for (int i = -40; i <= 80; ++i) {
        const float x = static_cast<float>(i) * 0.1f;  // quarter turns
        const std::uint32_t y = sin_pt_1(b(x));
        CHECK(f32(y) >= -1.0f);
        CHECK(f32(y) <= 1.0f);
        const float s = f32(fmul32(y, sin_pt_2(y)));
        CHECK(s ==
              Approx(std::sin(static_cast<double>(x) * 3.14159265358979323846 / 2)).margin(1e-6));
    }
    CHECK(f32(sin_pt_2(0)) == Approx(3.14159265358979323846 / 2));
    CHECK(sin_pt_1(b(INFINITY)) == kNaN);
}

TEST_CASE("comparisons: IEEE conditions, the nan-loses forms, 16-bit and signed integers") {
    CHECK(fcompare32(FloatCond::Lt, b(1.0f), b(2.0f)));
    CHECK_FALSE(fcompare32(FloatCond::Lt, kNaN, b(2.0f)));
    CHECK(fcompare32(FloatCond::Ne, kNaN, kNaN));
    CHECK_FALSE(fcompare32(FloatCond::Eq, kNaN, kNaN));
    CHECK(fcompare32(FloatCond::Eq, b(0.0f), b(-0.0f)));
    CHECK(fcompare32(FloatCond::Eq, kDenorm, 0));  // flushed
    CHECK(fcompare32(FloatCond::LtN, b(1.0f), kNaN));
    CHECK(fcompare32(FloatCond::GtN, b(1.0f), kNaN));
    CHECK_FALSE(fcompare32(FloatCond::LtN, kNaN, b(1.0f)));
    CHECK(fcompare16(FloatCond::Ge, 0x3c00, 0x3c00));
    CHECK_FALSE(fcompare16(FloatCond::Gt, 0x7e00, 0x3c00));
    CHECK(icompare(IntCond::SLt, 0xffffffffu, 1, 32));
    CHECK_FALSE(icompare(IntCond::ULt, 0xffffffffu, 1, 32));
    CHECK(icompare(IntCond::SLt, 0x0000ffffu, 1, 16));  // -1 at 16 bits
    CHECK(icompare(IntCond::Eq, 0x12340005u, 0x00000005u, 16));
    CHECK(parse_int_cond("seq") == IntCond::Eq);
    CHECK(parse_int_cond("sge") == IntCond::SGe);
    CHECK(parse_float_cond("gtn") == FloatCond::GtN);
    CHECK_FALSE(parse_float_cond("ult"));
}

TEST_CASE("comparisons of 32 lanes at once: each lane's bit is its own comparison") {
    // Operands drawn so that lanes tie, differ in sign, differ only above
    // bit 15, and hold NaNs, infinities, zeros of both signs and denormals.
    const std::uint32_t special[] = {
        0,       0x80000000u, kDenorm, kNegDenorm, kNaN,    0xffc00001u, 0x7f800000u, 0xff800000u,
        b(1.0f), b(-2.5f),    0x7e00u, 0xfc00u,    0x3c00u, 0x0001u,     0x8000u,     0x12340005u};
    std::uint64_t state = 7;
    auto draw = [&] {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        const auto r = static_cast<std::uint32_t>(state >> 32);
        return (r & 3u) == 0 ? r : special[r % (sizeof special / sizeof special[0])];
    };
    for (int round = 0; round < 200; ++round) {
        LaneWords a, c;
        LaneHalves a16, c16;
        for (unsigned l = 0; l < 32; ++l) {
            a[l] = draw();
            c[l] = (l % 5 == 0) ? a[l] : draw();  // some lanes equal
            a16[l] = static_cast<std::uint16_t>(a[l]);
            c16[l] = static_cast<std::uint16_t>(c[l]);
        }
        for (unsigned k = 0; k <= static_cast<unsigned>(IntCond::SGe); ++k)
            for (unsigned width : {16u, 32u}) {
                const auto cond = static_cast<IntCond>(k);
                std::uint32_t want = 0;
                for (unsigned l = 0; l < 32; ++l)
                    want |= std::uint32_t{icompare(cond, a[l], c[l], width)} << l;
                CHECK(icompare_lanes(cond, a, c, width) == want);
            }
        for (unsigned k = 0; k <= static_cast<unsigned>(FloatCond::GtN); ++k) {
            const auto cond = static_cast<FloatCond>(k);
            std::uint32_t want32 = 0, want16 = 0;
            for (unsigned l = 0; l < 32; ++l) {
                want32 |= std::uint32_t{fcompare32(cond, a[l], c[l])} << l;
                want16 |= std::uint32_t{fcompare16(cond, a16[l], c16[l])} << l;
            }
            CHECK(fcompare32_lanes(cond, a, c) == want32);
            CHECK(fcompare16_lanes(cond, a16, c16) == want16);
        }
    }
}

TEST_CASE("integer operations: saturation, high products, bit tables and fields") {
    CHECK(iaddsat32(0xfffffff0u, 0x20, false) == 0xffffffffu);
    CHECK(iaddsat32(0x7ffffff0u, 0x20, true) == 0x7fffffffu);
    CHECK(iaddsat32(0x80000010u, static_cast<std::uint32_t>(-0x20), true) == 0x80000000u);
    CHECK(iaddsat32(5, static_cast<std::uint32_t>(-7), true) == static_cast<std::uint32_t>(-2));
    CHECK(imulhi32(0xffffffffu, 0xffffffffu, false) == 0xfffffffeu);
    CHECK(imulhi32(0xffffffffu, 0xffffffffu, true) == 0);  // -1 * -1 = 1
    CHECK(imul32x64(0xffffffffu, 2, true) == static_cast<std::uint64_t>(-2));
    const std::uint32_t x = 0b1100, y = 0b1010;
    CHECK(bitop(*parse_bitop("and"), x, y) == (x & y));
    CHECK(bitop(*parse_bitop("or"), x, y) == (x | y));
    CHECK(bitop(*parse_bitop("xor"), x, y) == (x ^ y));
    CHECK(bitop(*parse_bitop("nand"), x, y) == ~(x & y));
    CHECK(bitop(*parse_bitop("nor"), x, y) == ~(x | y));
    CHECK(bitop(*parse_bitop("xnor"), x, y) == ~(x ^ y));
    CHECK(bitop(*parse_bitop("andn"), x, y) == (x & ~y));
    CHECK(bitop(*parse_bitop("orn"), x, y) == (x | ~y));
    CHECK(bitop(*parse_bitop("not_a"), x, y) == ~x);
    CHECK(bitop(*parse_bitop("not_b"), x, y) == ~y);
    CHECK(bitop(*parse_bitop("a"), x, y) == x);
    CHECK(bitop(*parse_bitop("b"), x, y) == y);
    CHECK(bitop(*parse_bitop("zero"), x, y) == 0);
    CHECK(bitop(*parse_bitop("ones"), x, y) == 0xffffffffu);
    CHECK_FALSE(parse_bitop("nxor"));
    CHECK(bitrev32(1) == 0x80000000u);
    CHECK(bitrev32(0x0000f00du) == 0xb00f0000u);
    CHECK(popcount32(0xf0f0f0f1u) == 17);
    CHECK(ffs32(0) == 0xffffffffu);
    CHECK(ffs32(0x00010010u) == 16);
    CHECK(clz32(0) == 32);
    CHECK(clz32(0x00010010u) == 15);
    CHECK(bfeil(0xabcd1234u, 8, 8) == 0x12);
    CHECK(bfeil(0xabcd1234u, 16, 0) == 0xabcd);  // count 0: the whole word
    CHECK(bfeil(0xabcd1234u, 32, 4) == 0);       // everything shifted out
    CHECK(bfi(0xffffffffu, 0, 4, 8) == 0xfffff00fu);
    CHECK(bfi(0, 0x1ff, 4, 8) == 0xff0);  // the insert is cut to the field
    CHECK(extr(0x89abcdefu, 0x01234567u, 8) == 0x6789abcdu);
    CHECK(extr(0x89abcdefu, 0x01234567u, 32) == 0x01234567u);
    CHECK(intl(0xffff, 0) == 0x55555555u);
    CHECK(intl(0, 0xffff) == 0xaaaaaaaau);
    CHECK(intl(0x0003, 0x0001) == 0b0111u);
}

TEST_CASE("shifts take the amount's low 7 bits and shift everything out at the width") {
    CHECK(shl32(1, 31) == 0x80000000u);
    CHECK(shl32(1, 32) == 0);
    CHECK(shl32(1, 128 + 3) == 8);  // only the low 7 bits count
    CHECK(shr32(0x80000000u, 31) == 1);
    CHECK(shr32(0x80000000u, 0xffffffffu) == 0);  // -1 is 127
    CHECK(asr32(0x80000000u, 31) == 0xffffffffu);
    CHECK(asr32(0x80000000u, 40) == 0xffffffffu);
    CHECK(asr32(0x40000000u, 40) == 0);
    CHECK(shl16(1, 15) == 0x8000);
    CHECK(shl16(1, 16) == 0);
    CHECK(shr16(0x8000, 15) == 1);
    CHECK(asr16(0x8000, 15) == 0xffff);
    CHECK(asr16(0x8000, 20) == 0xffff);
    CHECK(asr16(0x4000, 20) == 0);
}
