#include "validation/probe/msl_ops.hpp"

#include "isa/catalogue.hpp"

#include <algorithm>
#include <charconv>

namespace agx::probe {

namespace {

// Every kernel is compiled with the same math settings on every macOS
// (metal_backend.mm): math mode safe (no transformation that could change a
// result: no reassociation) and the precise variant of the 32-bit float functions,
// which is what fastMathEnabled = NO gave before macOS 15. So a metal::
// function without a namespace is its precise variant, rows measuring
// Metal's fast variant write fast:: and the "Precise" rows write precise::,
// and the kernel is the same whichever macOS compiles it. Half functions
// have one variant.
//
// The chains' arithmetic is checked on the host (tests/probe/test_chains.cpp):
// an integer chain never returns to an earlier state within its kernel's
// repetitions, and a float chain whose operation is a function, a
// conversion, a comparison or a SIMD reduction changes every step and stays
// finite (no inf, no NaN: their special-value paths are not what is timed).

// Companions, named in the notes below.
constexpr const char* kIdempotent = "f(f(x)) folds to f(x): an add feeds each operation";
constexpr const char* kFeistelXor =
    "its result is xored into the oldest value (one BITWISE32 more on the chain)";
constexpr const char* kFeistelAdd =
    "its result is added to the oldest value (one IADD more on the chain)";
constexpr const char* kSymplectic =
    "the older value is subtracted (one FADD more on the chain): x' = f(x) - y keeps area, so "
    "the pair circles the fixed point f(p) = 2p its seeds start near, and neither settles nor "
    "grows";
constexpr const char* kMantissa =
    "the result's mantissa is kept, as a value in [1, 2) (two bitwise operations more): the "
    "chain's values stay finite";
constexpr const char* kMantissaExclusive =
    "the result's mantissa is kept, as a value in [1, 2), and the older value subtracted (three "
    "operations more): the first lane's exclusive prefix is always the identity, and without "
    "the older value every lane settles on 1";
constexpr const char* kNudge =
    "the converted integer is added to the bits of the older value (one IADD32 more), which "
    "moves it by that many units in the last place: the chain stays finite and changes every "
    "step";

constexpr const char* kFeistelMul =
    "a product of odd values stays odd: it is multiplied into the oldest value (one IMUL more "
    "on the chain); an add or xor would make it even, and the products then 0";
constexpr const char* kUniform =
    "the result is uniform across the simd; the lane is mixed in so the next input varies";
constexpr const char* kSymplecticSum =
    "x' = sum(x) / n - y (the scale and subtraction are one FFMA more) keeps the values "
    "bounded: their mean turns with period 6 and each lane's difference from it with period 4, "
    "where the sum alone grows n times a step";

// Seeds near the fixed points of the x' = f(x) - y chains (kSymplectic).
constexpr const char* kNearOne = "1.0f + float($s) * 0.00390625f";
constexpr const char* kNearOneHalf = "half(1.0f + float($s) * 0.00390625f)";
constexpr const char* kNearFour = "4.0f + float($s) * 0.015625f";
constexpr const char* kNearFourHalf = "half(4.0f + float($s) * 0.015625f)";
constexpr const char* kNearQuarter = "0.25f + float($s) * 0.0009765625f";
constexpr const char* kNearQuarterHalf = "half(0.25f + float($s) * 0.0009765625f)";
constexpr const char* kNearHalf = "0.5f + float($s) * 0.0009765625f";
constexpr const char* kNearHalfHalf = "half(0.5f + float($s) * 0.0009765625f)";
constexpr const char* kNearZero = "float($s) * 0.00390625f";
constexpr const char* kNearZeroHalf = "half(float($s) * 0.00390625f)";
// Odd and small (a few tens of thousands after 1440 steps): clz keeps finding
// leading zeros.
constexpr const char* kSmallOdd = "($s) * 2u + 1u";

std::vector<MslOp> build() {
    using F = OpForm;
    return {
        // --- float_instructions.csv ----------------------------------------------
        {"FADD16", "half", "$x + $y"},
        {"FMUL16", "half", "$x * $y"},
        {"FFMA16", "half", "fma($x, $y, $z)"},
        {"FADD32", "float", "$x + $y"},
        {"FMUL32", "float", "$x * $y"},
        {"FFMA32", "float", "fma($x, $y, $z)"},
        {"CONVERT(F->I32)", "float", "as_type<float>(int($x) + as_type<int>($y))", F::Feistel,
         "IADD32", kNudge, "float($s)"},
        {"RINT32", "float", "rint($x + $y)", F::Direct, "FADD32", kIdempotent},
        {"TRUNC32", "float", "trunc($x + $y)", F::Direct, "FADD32", kIdempotent},
        {"FLOOR32", "float", "floor($x + $y)", F::Direct, "FADD32", kIdempotent},
        {"CEIL32", "float", "ceil($x + $y)", F::Direct, "FADD32", kIdempotent},
        {"RECIP16", "half", "half(1.0f) / $x"},
        {"RECIP32", "float", "fast::divide(1.0f, $x)"},
        {"RSQRT16", "half", "rsqrt($x) + $y", F::Feistel, "FADD16",
         "rsqrt alone settles at 1: its result is added to the older value (one FADD more), so "
         "the values grow slowly (to about 110 over 1440 steps) and change every step"},
        {"RSQRT32", "float", "fast::rsqrt($x) + $y", F::Feistel, "FADD32",
         "rsqrt alone settles at 1: its result is added to the older value (one FADD more), so "
         "the values grow slowly (to about 110 over 1440 steps) and change every step"},
        {"Precise RSQRT32", "float", "precise::rsqrt($x) + $y", F::Feistel, "FADD32",
         "rsqrt alone settles at 1: its result is added to the older value (one FADD more), so "
         "the values grow slowly (to about 110 over 1440 steps) and change every step"},
        {"EXP2_16", "half", "exp2($x) - $y", F::Feistel, "FADD16", kSymplectic, kNearOneHalf},
        {"LOG2_16", "half", "fma(log2($x), half(4.0f), -$y)", F::Feistel, "FFMA16",
         "x' = 4 log2(x) - y (the scale and subtraction are one FFMA more) keeps area: the pair "
         "circles the fixed point 4 its seeds start near, and neither settles nor leaves the "
         "positive numbers",
         kNearFourHalf},
        {"EXP2_32", "float", "fast::exp2($x) - $y", F::Feistel, "FADD32", kSymplectic, kNearOne},
        {"LOG2_32", "float", "fma(fast::log2($x), 4.0f, -$y)", F::Feistel, "FFMA32",
         "x' = 4 log2(x) - y (the scale and subtraction are one FFMA more) keeps area: the pair "
         "circles the fixed point 4 its seeds start near, and neither settles nor leaves the "
         "positive numbers",
         kNearFour},
        {"Precise EXP2_32", "float", "precise::exp2($x) - $y", F::Feistel, "FADD32", kSymplectic,
         kNearOne},
        {"Precise LOG2_32", "float", "fma(precise::log2($x), 4.0f, -$y)", F::Feistel, "FFMA32",
         "x' = 4 log2(x) - y (the scale and subtraction are one FFMA more) keeps area: the pair "
         "circles the fixed point 4 its seeds start near, and neither settles nor leaves the "
         "positive numbers",
         kNearFour},
        {"FMAX32", "float", "fmax($x, $z) - $y", F::Feistel, "FADD32",
         "fmax returns one of its inputs, so a chain of it alone settles on its seeds' largest: "
         "the older value is subtracted (one FADD more)"},
        {"FMIN32", "float", "fmin($x, $z) - $y", F::Feistel, "FADD32",
         "fmin returns one of its inputs, so a chain of it alone settles on its seeds' smallest: "
         "the older value is subtracted (one FADD more)"},
        {"FMAX16", "half", "fmax($x, $z) - $y", F::Feistel, "FADD16",
         "fmax returns one of its inputs, so a chain of it alone settles on its seeds' largest: "
         "the older value is subtracted (one FADD more)"},
        {"FMIN16", "half", "fmin($x, $z) - $y", F::Feistel, "FADD16",
         "fmin returns one of its inputs, so a chain of it alone settles on its seeds' smallest: "
         "the older value is subtracted (one FADD more)"},
        {"FCMPSEL16", "half", "($x < $z ? $x : $l) - $y", F::Feistel, "FADD16",
         "a select returns one of its inputs, so a chain of it alone settles: the older value is "
         "subtracted (one FADD more)"},
        {"FCMPSEL32", "float", "($x < $z ? $x : $l) - $y", F::Feistel, "FADD32",
         "a select returns one of its inputs, so a chain of it alone settles: the older value is "
         "subtracted (one FADD more)"},

        // --- int_instructions.csv ------------------------------------------------
        {"IADD16", "ushort", "$x + $y", F::Rotating},
        {"IMUL16", "ushort", "$x * $y", F::Rotating, "",
         "the seeds are odd, so the products stay odd and never reach 0"},
        {"IMAD16", "ushort", "$x * $y + $z"},
        {"IMUL(16x16=32)", "uint", "uint(ushort($x)) * uint(ushort($y))", F::Rotating, "",
         "the seeds are odd, so the products stay odd and never reach 0"},
        {"IMAD((16x16=32)+32)", "uint", "uint(ushort($x)) * uint(ushort($y)) + $z"},
        {"IADD32", "uint", "$x + $y", F::Rotating},
        {"ADD32", "uint", "$x + $y", F::Rotating},
        {"IMUL32", "uint", "$x * $y", F::Rotating, "",
         "the seeds are odd, so the products stay odd and never reach 0"},
        {"IMAD32", "uint", "$x * $y + $z"},
        {"IMULHI32", "uint", "mulhi($x, $z) ^ $y", F::Feistel, "BITWISE32",
         "mulhi alone only shrinks (to 0); " + std::string(kFeistelXor)},
        {"IMUL(32x32=64)", "ulong", "ulong(uint($x) ^ uint($x >> 32)) * ulong(uint($z))", F::Direct,
         "BITWISE32",
         "the product's two words are xored into the next input (one BITWISE32 more), so the "
         "whole 64-bit product is used and the chain neither shrinks nor settles"},
        {"IADDSAT32", "uint", "addsat($x, $z) ^ $y", F::Feistel, "BITWISE32",
         "saturating adds alone reach the maximum and stay; " + std::string(kFeistelXor)},
        {"BITEXTRACT32", "uint", "extract_bits($x, 3u, 20u) + $y", F::Feistel, "IADD32",
         "offset and count known at compile time; " + std::string(kFeistelAdd) +
             ", which refills the bits the extraction drops"},
        {"BITINSERT32", "uint", "insert_bits($x, $z, 5u, 8u) + $y", F::Feistel, "IADD32",
         "offset and count known at compile time; inserting the same field again folds: " +
             std::string(kFeistelAdd)},
        {"BITWISE32", "uint", "$x ^ $y", F::Lfsr},
        {"BITREV32", "uint", "reverse_bits($x) + $y", F::Direct, "IADD32",
         "reverse_bits is its own inverse: an IADD32 follows each"},
        {"POPCOUNT32", "uint", "popcount($x) + $y", F::Feistel, "IADD32",
         "popcount alone settles at 1; " + std::string(kFeistelAdd)},
        {"IMAX32", "uint", "max($x, $z) + $y", F::Feistel, "IADD32",
         "max returns one of its inputs, so a chain of it alone settles on its seeds' largest; " +
             std::string(kFeistelAdd)},
        {"IMIN32", "uint", "min($x, $z) + $y", F::Feistel, "IADD32",
         "min returns one of its inputs, so a chain of it alone settles on its seeds' smallest; " +
             std::string(kFeistelAdd)},
        {"IMAX16", "ushort", "max($x, $z) + $y", F::Feistel, "IADD16",
         "max returns one of its inputs, so a chain of it alone settles on its seeds' largest; " +
             std::string(kFeistelAdd)},
        {"IMIN16", "ushort", "min($x, $z) + $y", F::Feistel, "IADD16",
         "min returns one of its inputs, so a chain of it alone settles on its seeds' smallest; " +
             std::string(kFeistelAdd)},
        {"ICMPSEL16", "ushort", "($x < $z ? $x : $l) + $y", F::Feistel, "IADD16",
         "a select returns one of its inputs, so a chain of it alone settles; " +
             std::string(kFeistelAdd)},
        {"ICMPSEL32", "uint", "($x < $z ? $x : $l) + $y", F::Feistel, "IADD32",
         "a select returns one of its inputs, so a chain of it alone settles; " +
             std::string(kFeistelAdd)},

        // --- simd_instructions.csv -----------------------------------------------
        {"BALLOT", "uint", "uint(simd_vote::vote_t(simd_ballot(bool($x)))) + $y", F::Feistel,
         "IADD32",
         "the vote is the same for every lane and, alone, the same every step; " +
             std::string(kFeistelAdd)},
        {"ICMP_BALLOT", "uint", "uint(simd_vote::vote_t(simd_ballot($x < $y))) + $y", F::Feistel,
         "IADD32",
         "the vote (newest below oldest, lane by lane) is the same for every lane; " +
             std::string(kFeistelAdd) + "; against a constant it would soon be 0 every step"},
        {"FCMP_BALLOT", "float",
         "as_type<float>(uint(simd_vote::vote_t(simd_ballot($x < $y))) & 0x007fffffu | "
         "0x3f800000u)",
         F::Direct, "2 BITWISE32",
         "the vote's low 23 bits become the mantissa of a value in [1, 2) (two bitwise operations "
         "more): the vote's bits as a float would be NaN or a denormal"},
        {"BROADCAST32", "uint", "simd_broadcast($x, ushort(1)) + $l", F::Direct, "IADD32",
         kUniform},
        {"SHUFFLE_ROTATE32", "uint", "simd_shuffle_rotate_down($x, ushort(1)) + $y", F::Feistel,
         "IADD32",
         "a rotation of the lanes alone repeats every 32 steps; " + std::string(kFeistelAdd)},
        {"SHUFFLE_NOROTATE32", "uint", "simd_shuffle_down($x, ushort(1)) + $y", F::Feistel,
         "IADD32",
         "shifting the lanes alone fills the simd with the last lane's value; " +
             std::string(kFeistelAdd)},
        {"MATMUL<8x8xF16>", "simdgroup_half8x8", "simdgroup_multiply_accumulate($x, $x, $y, $z)",
         F::Statement},
        {"MATMUL<8x8xF32>", "simdgroup_float8x8", "simdgroup_multiply_accumulate($x, $x, $y, $z)",
         F::Statement},
        {"SUM<F16>", "half", "fma(simd_sum($x), half(0.03125f), -$y)", F::Feistel, "FFMA16",
         kSymplecticSum},
        {"SUM<F32>", "float", "fma(simd_sum($x), 0.03125f, -$y)", F::Feistel, "FFMA32",
         kSymplecticSum},
        {"SUM<I16>", "ushort", "simd_sum($x) + $y", F::Feistel, "IADD16",
         "the sum is the same for every lane; " + std::string(kFeistelAdd)},
        {"SUM<I32>", "uint", "simd_sum($x) + $y", F::Feistel, "IADD32",
         "the sum is the same for every lane; " + std::string(kFeistelAdd)},
        {"PRODUCT<F16>", "half",
         "as_type<half>(ushort(as_type<ushort>(simd_product($x)) & 0x00ffu | 0x3c00u))", F::Direct,
         "2 BITWISE32",
         "the product's top mantissa bits are kept, as a value in [1, 1.25) (two bitwise "
         "operations more): a product of 32 such values stays finite in half"},
        {"PRODUCT<F32>", "float",
         "as_type<float>(as_type<uint>(simd_product($x)) & 0x007fffffu | 0x3f800000u)", F::Direct,
         "2 BITWISE32", kMantissa},
        {"PRODUCT<I16>", "ushort", "simd_product($x) * $y", F::Feistel, "IMUL16", kFeistelMul},
        {"PRODUCT<I32>", "uint", "simd_product($x) * $y", F::Feistel, "IMUL32", kFeistelMul},
        {"BITWISE_REDUCE16", "ushort", "simd_xor($x) + $y", F::Feistel, "IADD16",
         "the xor is the same for every lane; " + std::string(kFeistelAdd)},
        {"BITWISE_REDUCE32", "uint", "simd_xor($x) + $y", F::Feistel, "IADD32",
         "the xor is the same for every lane; " + std::string(kFeistelAdd)},
        {"PREFIX_ESUM<F32>", "float",
         "as_type<float>(as_type<uint>(simd_prefix_exclusive_sum($x)) & 0x007fffffu | 0x3f800000u) "
         "- $y",
         F::Feistel, "2 BITWISE32 + FADD32", kMantissaExclusive},
        {"PREFIX_ISUM<F32>", "float",
         "as_type<float>(as_type<uint>(simd_prefix_inclusive_sum($x)) & 0x007fffffu | "
         "0x3f800000u)",
         F::Direct, "2 BITWISE32", kMantissa},
        {"PREFIX_ESUM<I32>", "uint", "simd_prefix_exclusive_sum($x) ^ $y", F::Feistel, "BITWISE32",
         "an exclusive prefix sum alone empties the simd (lane 0 gets 0) in 32 steps; " +
             std::string(kFeistelXor)},
        {"PREFIX_ISUM<I32>", "uint", "simd_prefix_inclusive_sum($x)"},
        {"PREFIX_EPROD<F32>", "float",
         "as_type<float>(as_type<uint>(simd_prefix_exclusive_product($x)) & 0x007fffffu | "
         "0x3f800000u) - $y",
         F::Feistel, "2 BITWISE32 + FADD32", kMantissaExclusive},
        {"PREFIX_IPROD<F32>", "float",
         "as_type<float>(as_type<uint>(simd_prefix_inclusive_product($x)) & 0x007fffffu | "
         "0x3f800000u)",
         F::Direct, "2 BITWISE32", kMantissa},

        // --- quad-scoped forms (Metal's quad_* functions) -------------------------
        {"QUAD_BALLOT", "uint", "uint(quad_vote::vote_t(quad_ballot(bool($x)))) + $y", F::Feistel,
         "IADD32",
         "the vote is the same for every lane of a quad and, alone, the same every step; " +
             std::string(kFeistelAdd)},
        {"QUAD_ICMP_BALLOT", "uint", "uint(quad_vote::vote_t(quad_ballot($x < $y))) + $y",
         F::Feistel, "IADD32",
         "the vote (newest below oldest, lane by lane) is the same for every lane of a quad; " +
             std::string(kFeistelAdd) + "; against a constant it would soon be 0 every step"},
        {"QUAD_FCMP_BALLOT", "float",
         "as_type<float>(uint(quad_vote::vote_t(quad_ballot($x < $y))) << 19 | 0x3f800000u)",
         F::Direct, "LSHIFT32 + BITWISE32",
         "the vote's four bits become the top mantissa bits of a value in [1, 2) (two bitwise "
         "operations more): the vote's bits as a float would be a denormal"},
        {"QUAD_BROADCAST32", "uint", "quad_broadcast($x, ushort(1)) + $l", F::Direct, "IADD32",
         kUniform},
        {"QUAD_SHUFFLE_ROTATE32", "uint", "quad_shuffle_rotate_down($x, ushort(1)) + $y",
         F::Feistel, "IADD32",
         "a rotation of a quad's lanes alone repeats every 4 steps; " + std::string(kFeistelAdd)},
        {"QUAD_SHUFFLE_NOROTATE32", "uint", "quad_shuffle_down($x, ushort(1)) + $y", F::Feistel,
         "IADD32",
         "shifting a quad's lanes alone fills it with its last lane's value; " +
             std::string(kFeistelAdd)},
        {"QUAD_SHUFFLE_DOWNUP32", "uint", "quad_shuffle_up($x, ushort(1)) + $y", F::Feistel,
         "IADD32",
         "quad_shuffle_up (its down form is QUAD_SHUFFLE_NOROTATE32's); shifting a quad's lanes "
         "alone fills it with its first lane's value; " +
             std::string(kFeistelAdd)},
        {"QUAD_SHUFFLE_RANDOM_SAME32", "uint", "quad_shuffle($x, ushort($u & 3u)) + $l", F::Direct,
         "IADD32",
         "every lane reads the one lane of its quad a run-time uniform value names; the result is "
         "uniform in the quad, so the lane is mixed in"},
        {"QUAD_SHUFFLE_RANDOM_DIFF32", "uint", "quad_shuffle($x, ushort($z & 3u)) + $y", F::Feistel,
         "IADD32",
         "each lane reads a lane of its quad of its own, unknown at compile time; a fixed "
         "permutation of a quad's lanes alone repeats within 4 steps: " +
             std::string(kFeistelAdd)},
        {"QUAD_SUM<F16>", "half", "fma(quad_sum($x), half(0.25f), -$y)", F::Feistel, "FFMA16",
         kSymplecticSum},
        {"QUAD_SUM<F32>", "float", "fma(quad_sum($x), 0.25f, -$y)", F::Feistel, "FFMA32",
         kSymplecticSum},
        {"QUAD_SUM<I16>", "ushort", "quad_sum($x) + $y", F::Feistel, "IADD16",
         "the sum is the same for every lane of a quad; " + std::string(kFeistelAdd)},
        {"QUAD_SUM<I32>", "uint", "quad_sum($x) + $y", F::Feistel, "IADD32",
         "the sum is the same for every lane of a quad; " + std::string(kFeistelAdd)},
        {"QUAD_PRODUCT<F16>", "half",
         "as_type<half>(ushort(as_type<ushort>(quad_product($x)) & 0x03ffu | 0x3c00u))", F::Direct,
         "2 BITWISE32", kMantissa},
        {"QUAD_PRODUCT<F32>", "float",
         "as_type<float>(as_type<uint>(quad_product($x)) & 0x007fffffu | 0x3f800000u)", F::Direct,
         "2 BITWISE32", kMantissa},
        {"QUAD_PRODUCT<I16>", "ushort", "quad_product($x) * $y", F::Feistel, "IMUL16", kFeistelMul},
        {"QUAD_PRODUCT<I32>", "uint", "quad_product($x) * $y", F::Feistel, "IMUL32", kFeistelMul},
        {"QUAD_BITWISE_REDUCE16", "ushort", "quad_xor($x) + $y", F::Feistel, "IADD16",
         "the xor is the same for every lane of a quad; " + std::string(kFeistelAdd)},
        {"QUAD_BITWISE_REDUCE32", "uint", "quad_xor($x) + $y", F::Feistel, "IADD32",
         "the xor is the same for every lane of a quad; " + std::string(kFeistelAdd)},
        {"QUAD_PREFIX_ESUM<F32>", "float",
         "as_type<float>(as_type<uint>(quad_prefix_exclusive_sum($x)) & 0x007fffffu | 0x3f800000u) "
         "- $y",
         F::Feistel, "2 BITWISE32 + FADD32", kMantissaExclusive},
        {"QUAD_PREFIX_ISUM<F32>", "float",
         "as_type<float>(as_type<uint>(quad_prefix_inclusive_sum($x)) & 0x007fffffu | "
         "0x3f800000u)",
         F::Direct, "2 BITWISE32", kMantissa},
        {"QUAD_PREFIX_ESUM<I32>", "uint", "quad_prefix_exclusive_sum($x) + $y", F::Feistel,
         "IADD32",
         "an exclusive prefix sum alone empties the quad (its first lane gets 0) in 4 steps; " +
             std::string(kFeistelAdd)},
        {"QUAD_PREFIX_ISUM<I32>", "uint", "quad_prefix_inclusive_sum($x)"},
        {"QUAD_PREFIX_EPROD<F32>", "float",
         "as_type<float>(as_type<uint>(quad_prefix_exclusive_product($x)) & 0x007fffffu | "
         "0x3f800000u) - $y",
         F::Feistel, "2 BITWISE32 + FADD32", kMantissaExclusive},
        {"QUAD_PREFIX_IPROD<F32>", "float",
         "as_type<float>(as_type<uint>(quad_prefix_inclusive_product($x)) & 0x007fffffu | "
         "0x3f800000u)",
         F::Direct, "2 BITWISE32", kMantissa},

        // --- float_sequences.csv -------------------------------------------------
        {"DIV16", "half", "$x / $y"},
        {"DIV32", "float", "fast::divide($x, $y)"},
        // DIV32 as the mixed transcendental table spells it in one row.
        {"DIV_32", "float", "fast::divide($x, $y)"},
        {"FRACT32", "float", "fast::fract($x + 0.618034f)", F::Direct, "FADD32",
         "fract of a value in [0, 1) is that value: an FADD of the golden ratio's fraction "
         "precedes each (one FADD more), a rotation by an irrational step that does not repeat "
         "within the repetitions"},
        {"SIN16", "half", "sin($x) - $y", F::Feistel, "FADD16", kSymplectic, kNearZeroHalf},
        {"SIN32", "float", "fast::sin($x) - $y", F::Feistel, "FADD32", kSymplectic, kNearZero},
        {"COS32", "float", "fast::cos($x) - $y", F::Feistel, "FADD32", kSymplectic,
         "0.45f + float($s) * 0.00390625f"},
        {"SINPI16", "half", "sinpi($x) - $y", F::Feistel, "FADD16", kSymplectic, kNearHalfHalf},
        {"SINPI32", "float", "fast::sinpi($x) - $y", F::Feistel, "FADD32", kSymplectic, kNearHalf},
        {"SQRT16", "half", "sqrt($x) - $y", F::Feistel, "FADD16", kSymplectic, kNearQuarterHalf},
        {"SQRT32", "float", "fast::sqrt($x) - $y", F::Feistel, "FADD32", kSymplectic, kNearQuarter},
        {"EXPE_32", "float", "fast::exp(-$x) - $y", F::Feistel, "FADD32",
         "x' = exp(-x) - y (the negation rides on the multiply exp() starts with; the "
         "subtraction is one FADD more) keeps area: the pair circles the fixed point 0.352 its "
         "seeds start near, and neither settles nor grows",
         "0.35f + float($s) * 0.00390625f"},
        {"EXP10_32", "float", "fast::exp10(-$x) - $y", F::Feistel, "FADD32",
         "x' = exp10(-x) - y (the negation rides on the multiply exp10() starts with; the "
         "subtraction is one FADD more) keeps area: the pair circles the fixed point 0.27 its "
         "seeds start near, and neither settles nor grows",
         "0.27f + float($s) * 0.0009765625f"},
        {"LOGE_32", "float", "fma(fast::log($x), 5.7707802f, -$y)", F::Feistel, "FFMA32",
         "x' = 5.77 log(x) - y (8 / log(4): the scale and subtraction are one FFMA more) keeps "
         "area: the pair circles the fixed point 4 its seeds start near, and neither settles nor "
         "leaves the positive numbers",
         kNearFour},
        {"LOG10_32", "float", "fma(fast::log10($x), 13.287712f, -$y)", F::Feistel, "FFMA32",
         "x' = 13.29 log10(x) - y (8 / log10(4): the scale and subtraction are one FFMA more) "
         "keeps area: the pair circles the fixed point 4 its seeds start near, and neither "
         "settles nor leaves the positive numbers",
         kNearFour},
        {"FMEDIAN16", "half", "median3($x, $z, $l) - $y", F::Feistel, "FADD16",
         "a median returns one of its inputs, so a chain of it alone settles: the older value is "
         "subtracted (one FADD more)"},
        {"FMEDIAN32", "float", "median3($x, $z, $l) - $y", F::Feistel, "FADD32",
         "a median returns one of its inputs, so a chain of it alone settles: the older value is "
         "subtracted (one FADD more)"},
        {"CONVERT(F->I64)", "float", "as_type<float>(int(long($x) >> 32) + as_type<int>($y))",
         F::Feistel, "IADD32",
         "the 64-bit integer's high word (the seeds are about 2^32 times a small number) is added "
         "to the bits of the older value (one IADD32 more), which moves it by that many units in "
         "the last place: the whole conversion is kept, and the chain stays finite and changes",
         "float($s) * 4294967296.0f"},
        {"ROUND_INF", "float", "round($x + $y)", F::Direct, "FADD32", kIdempotent},
        {"Precise RECIP32", "float", "precise::divide(1.0f, $x)"},
        {"Precise DIV32", "float", "precise::divide($x, $y)"},
        {"Precise SQRT32", "float", "precise::sqrt($x) - $y", F::Feistel, "FADD32", kSymplectic,
         kNearQuarter},
        {"Precise SIN32", "float", "precise::sin($x) - $y", F::Feistel, "FADD32", kSymplectic,
         kNearZero},
        {"Precise SINPI32", "float", "precise::sinpi($x) - $y", F::Feistel, "FADD32", kSymplectic,
         kNearHalf},

        // --- int_sequences.csv ---------------------------------------------------
        {"IMADHI16", "ushort", "madhi($x, $z, $y)", F::Feistel, "",
         "madhi adds the older value to the high product itself (mulhi(x, z) + y): no companion; "
         "with a constant addend instead it settles on a fixed point"},
        {"IMADHI32", "uint", "madhi($x, $z, $y)", F::Feistel, "",
         "madhi adds the older value to the high product itself (mulhi(x, z) + y): no companion; "
         "with a constant addend instead it settles on a fixed point"},
        {"BITREV16", "ushort", "reverse_bits($x) + $y", F::Direct, "IADD16",
         "reverse_bits is its own inverse: an IADD16 follows each"},
        {"BITROTATE32", "uint", "rotate($x, $z) + $y", F::Feistel, "IADD32",
         "rotation by an amount unknown at compile time; rotations alone repeat within 32 steps: " +
             std::string(kFeistelAdd)},
        {"RHADD16", "ushort", "rhadd($x, $z) ^ $y", F::Feistel, "BITWISE32",
         "averaging alone settles on the other operand; " + std::string(kFeistelXor)},
        {"RHADD32", "uint", "rhadd($x, $z) ^ $y", F::Feistel, "BITWISE32",
         "averaging alone settles on the other operand; " + std::string(kFeistelXor)},
        {"CLZ32", "uint", "clz($x) + $y", F::Feistel, "IADD32",
         "clz alone settles within a few steps; " + std::string(kFeistelAdd) +
             " (small odd seeds, so the values keep leading zeros)",
         kSmallOdd},
        {"LSHIFT32", "uint", "($x << ($z & 31u)) + $y", F::Feistel, "IADD32",
         "a shift amount unknown at compile time, as measured; shifts alone empty the value; " +
             std::string(kFeistelAdd)},
        {"RSHIFT32", "uint", "($x >> ($z & 31u)) + $y", F::Feistel, "IADD32",
         "a shift amount unknown at compile time, as measured; shifts alone empty the value; " +
             std::string(kFeistelAdd)},
        {"ABSDIFF32", "uint", "absdiff($x, $z) + $y", F::Feistel, "IADD32",
         "absdiff alone alternates between two values; " + std::string(kFeistelAdd)},
        {"IADD(32+32=64)", "ulong", "ulong(uint($x) + uint($x >> 32)) + ulong(uint($y))",
         F::Rotating, "IADD32",
         "the carry (high word) is added back into the next input so it is not dead: one IADD32 "
         "more"},
        {"IADD(64+32=64)", "ulong", "$x + ulong(uint($y))", F::Rotating},
        {"IADD64", "ulong", "$x + $y", F::Rotating},
        {"IADD(64+64=64)", "ulong", "$x + $y", F::Rotating},
        {"IMUL(64x64=64)", "ulong", "$x * $y", F::Rotating, "",
         "the seeds are odd, so the products stay odd and never reach 0"},
        {"IMAD((32x32=32)+64)", "ulong", "$y + ulong(uint($x) * uint($z))", F::Feistel, "",
         "the older value is the addend: with the chain's own value there, the product's factor "
         "(1 + z) is even and the low word reaches 0 within 32 steps"},
        {"IMAD((32x32=64)+64)", "ulong", "$y + ulong(uint($x)) * ulong(uint($z))", F::Feistel, "",
         "the older value is the addend: with the chain's own value there, the product's factor "
         "(1 + z) is even and the low word reaches 0 within 32 steps"},
        {"IMAD((64x64=64)+64)", "ulong", "$x * $y + $z"},
        {"IMULHI64", "ulong", "mulhi($x, $z) ^ $y", F::Feistel, "2 BITWISE32",
         "mulhi alone only shrinks (to 0); its result is xored into the oldest value (a 64-bit "
         "xor: two BITWISE32 more on the chain)"},

        // --- simd_sequences.csv --------------------------------------------------
        {"SHUFFLE_RANDOM_SAME32", "uint", "simd_shuffle($x, ushort($u & 31u)) + $l", F::Direct,
         "IADD32",
         "every lane reads the one lane a run-time uniform value names; the result is uniform, so "
         "the lane is mixed in"},
        {"SHUFFLE_RANDOM_DIFF32", "uint", "simd_shuffle($x, ushort($z & 31u)) + $y", F::Feistel,
         "IADD32",
         "each lane reads a lane of its own, unknown at compile time; a fixed permutation of the "
         "lanes alone repeats within a few steps: " +
             std::string(kFeistelAdd)},
    };
}

// Names the catalogue expands that no Metal expression isolates.
struct Unmappable {
    std::string_view name, reason;
};
constexpr Unmappable kUnmappable[] = {
    {"SIN_PT_1",
     "an internal step of sin(); Metal has no operation for it alone (SIN32 measures the whole)"},
    {"SIN_PT_2",
     "an internal step of sin(); Metal has no operation for it alone (SIN32 measures the whole)"},
    {"TRIG_REDUCE", "the range reduction inside sin() and cos(); not a Metal operation"},
    {"BITINTERLEAVE16", "the Metal Shading Language has no bit-interleave function"},
    {"FREXP",
     "frexp() returns the exponent through a reference; the reference row has no measurement to "
     "compare"},
};

std::string_view trim(std::string_view s) {
    while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
    while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
    return s;
}

// "3 IADD32" -> (3, "IADD32"); "IADD32" -> (1, "IADD32"), as the mixes write a term.
std::pair<std::uint32_t, std::string_view> split_count(std::string_view term) {
    std::uint32_t count = 1;
    auto [end, ec] = std::from_chars(term.data(), term.data() + term.size(), count);
    if (ec == std::errc() && end != term.data() && end < term.data() + term.size() && *end == ' ' &&
        count > 0)
        return {count, trim(term.substr(static_cast<std::size_t>(end - term.data())))};
    return {1, term};
}

// A name with the width appended first, as validation::expand_operation does.
const MslOp* find_with_width(std::string_view name, std::uint32_t bits) {
    if (const MslOp* op = find_msl_op(std::string(name) + std::to_string(bits))) return op;
    if (const MslOp* op = find_msl_op(name)) return op;
    // "FADD/FFMA/IADD32", any of these measured alike: the first.
    const std::string first = isa::first_alternative(name);
    return first.empty() ? nullptr : find_msl_op(first);
}

[[noreturn]] void unmapped(std::string_view term, std::string_view whole) {
    std::string msg = "operation '" + std::string(term) + "'";
    if (term != whole) msg += " (in '" + std::string(whole) + "')";
    const std::string why = unmappable_reason(term);
    throw GeneratorError(
        msg + (why.empty()
                   ? " has no Metal expression in the probe's table (validation/probe/msl_ops.cpp)"
                   : " cannot be written in Metal: " + why));
}

}  // namespace

std::uint32_t rotation_period(OpForm form) {
    switch (form) {
        case OpForm::Rotating:
        case OpForm::Feistel:
            return 2;
        case OpForm::Lfsr:
            return kLfsrTaps;
        default:
            return 1;
    }
}

const std::vector<MslOp>& msl_ops() {
    static const std::vector<MslOp> ops = build();
    return ops;
}

const MslOp* find_msl_op(std::string_view name) {
    for (const auto& op : msl_ops())
        if (op.name == name) return &op;
    return nullptr;
}

std::string unmappable_reason(std::string_view name) {
    for (const auto& u : kUnmappable)
        if (u.name == name) return std::string(u.reason);
    return {};
}

std::vector<ResolvedTerm> resolve_operation(const std::string& whole_op,
                                            std::uint32_t register_bits) {
    // Fast math's forms (fast::exp2, fast::divide) are what the table's
    // entries already are.
    const std::string_view op = isa::without_fast_math(whole_op);
    if (const MslOp* whole = find_with_width(op, register_bits)) return {{whole, 1}};
    if (!unmappable_reason(op).empty()) unmapped(op, whole_op);
    // A mix: "IMUL32 + 3 IADD32", each term with an optional count.
    std::vector<ResolvedTerm> terms;
    std::string_view rest = op;
    while (!rest.empty()) {
        const auto plus = rest.find(" + ");
        std::string_view term = trim(rest.substr(0, plus));
        rest = plus == std::string_view::npos ? std::string_view{} : rest.substr(plus + 3);
        const auto [count, name] = split_count(term);
        const MslOp* found = find_with_width(name, register_bits);
        if (!found) unmapped(name, whole_op);
        terms.push_back({found, count});
    }
    if (terms.empty()) unmapped(whole_op, whole_op);
    return terms;
}

std::vector<Companion> companions(const MslOp& op) {
    std::vector<Companion> out;
    std::string_view rest = op.companion;
    while (!rest.empty()) {
        const auto plus = rest.find(" + ");
        std::string_view term = trim(rest.substr(0, plus));
        rest = plus == std::string_view::npos ? std::string_view{} : rest.substr(plus + 3);
        const auto [count, name] = split_count(term);
        out.push_back({std::string(name), count});
    }
    return out;
}

std::string with_companions(const std::string& op, std::uint32_t register_bits) {
    const auto terms = resolve_operation(op, register_bits);
    if (std::none_of(terms.begin(), terms.end(),
                     [](const ResolvedTerm& t) { return !t.op->companion.empty(); }))
        return op;
    std::string out;
    auto add = [&](std::uint32_t count, std::string_view name) {
        if (!out.empty()) out += " + ";
        if (count > 1) out += std::to_string(count) + " ";
        out += name;
    };
    for (const auto& t : terms) {
        add(t.count, t.op->name);
        for (const auto& c : companions(*t.op)) add(t.count * c.count, c.op);
    }
    return out;
}

}  // namespace agx::probe
