#include "validation/probe/msl_ops.hpp"

#include <charconv>

namespace agx::probe {

namespace {

// 32-bit float functions name their variant: fast:: is what Metal's default
// math gives, precise:: the "Precise" rows. Kernels are compiled with fast
// math off (so float chains are not reassociated), which would otherwise turn
// every metal:: function precise. Half functions have one variant.
constexpr std::string_view kIdempotent = "f(f(x)) folds to f(x): an add feeds each operation";
constexpr std::string_view kUniform =
    "the result is uniform across the simd; the lane is mixed in so the next input varies";

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
        {"CONVERT(F->I32)", "float", "as_type<float>(int($x))", F::Direct,
         "the integer's bits are the next input: one conversion per operation"},
        {"RINT32", "float", "rint($x + $y)", F::Direct, kIdempotent},
        {"TRUNC32", "float", "trunc($x + $y)", F::Direct, kIdempotent},
        {"FLOOR32", "float", "floor($x + $y)", F::Direct, kIdempotent},
        {"CEIL32", "float", "ceil($x + $y)", F::Direct, kIdempotent},
        {"RECIP16", "half", "half(1.0f) / $x"},
        {"RECIP32", "float", "fast::divide(1.0f, $x)"},
        {"RSQRT16", "half", "rsqrt($x)"},
        {"RSQRT32", "float", "fast::rsqrt($x)"},
        {"Precise RSQRT32", "float", "precise::rsqrt($x)"},
        {"EXP2_16", "half", "exp2($x)"},
        {"LOG2_16", "half", "log2($x)"},
        {"EXP2_32", "float", "fast::exp2($x)"},
        {"LOG2_32", "float", "fast::log2($x)"},
        {"Precise EXP2_32", "float", "precise::exp2($x)"},
        {"Precise LOG2_32", "float", "precise::log2($x)"},
        {"FMAX32", "float", "fmax($x, $y)", F::RotatingLattice},
        {"FMIN32", "float", "fmin($x, $y)", F::RotatingLattice},
        {"FMAX16", "half", "fmax($x, $y)", F::RotatingLattice},
        {"FMIN16", "half", "fmin($x, $y)", F::RotatingLattice},
        {"FCMPSEL16", "half", "$x < $z ? $x : $y", F::RotatingLattice},
        {"FCMPSEL32", "float", "$x < $z ? $x : $y", F::RotatingLattice},

        // --- int_instructions.csv ------------------------------------------------
        {"IADD16", "ushort", "$x + $y", F::Rotating},
        {"IMUL16", "ushort", "$x * $y", F::Rotating},
        {"IMAD16", "ushort", "$x * $y + $z"},
        {"IMUL(16x16=32)", "uint", "uint(ushort($x)) * uint(ushort($y))", F::Rotating},
        {"IMAD((16x16=32)+32)", "uint", "uint(ushort($x)) * uint(ushort($y)) + $z"},
        {"IADD32", "uint", "$x + $y", F::Rotating},
        {"ADD32", "uint", "$x + $y", F::Rotating},
        {"IMUL32", "uint", "$x * $y", F::Rotating},
        {"IMAD32", "uint", "$x * $y + $z"},
        {"IMULHI32", "uint", "mulhi($x, $y)"},
        {"IMUL(32x32=64)", "ulong", "ulong(uint($x >> 32)) * ulong(uint($y))", F::Direct,
         "the next operation reads the product's high word, so the whole 64-bit product is kept"},
        {"IADDSAT32", "uint", "addsat($x, $y)", F::Rotating},
        {"BITEXTRACT32", "uint", "extract_bits($x, 3u, 20u) + $y", F::Direct,
         "offset and count known at compile time; an IADD32 refills the bits the extraction drops"},
        {"BITINSERT32", "uint", "insert_bits($x, $y, 5u, 8u) + $z", F::Direct,
         "offset and count known at compile time; inserting the same field again folds, so an "
         "IADD32 follows"},
        {"BITWISE32", "uint", "$x ^ $y", F::RotatingLattice},
        {"BITREV32", "uint", "reverse_bits($x) + $y", F::Direct,
         "reverse_bits is its own inverse: an IADD32 follows each"},
        {"POPCOUNT32", "uint", "popcount($x)"},
        {"IMAX32", "uint", "max($x, $y)", F::RotatingLattice},
        {"IMIN32", "uint", "min($x, $y)", F::RotatingLattice},
        {"IMAX16", "ushort", "max($x, $y)", F::RotatingLattice},
        {"IMIN16", "ushort", "min($x, $y)", F::RotatingLattice},
        {"ICMPSEL16", "ushort", "$x < $z ? $x : $y", F::RotatingLattice},
        {"ICMPSEL32", "uint", "$x < $z ? $x : $y", F::RotatingLattice},

        // --- simd_instructions.csv -----------------------------------------------
        {"BALLOT", "uint", "uint(simd_vote::vote_t(simd_ballot(bool($x)))) ^ $l", F::Direct,
         kUniform},
        {"ICMP_BALLOT", "uint", "uint(simd_vote::vote_t(simd_ballot($x < $y)))"},
        {"FCMP_BALLOT", "float", "as_type<float>(uint(simd_vote::vote_t(simd_ballot($x < $y))))"},
        {"BROADCAST32", "uint", "simd_broadcast($x, ushort(1)) + $l", F::Direct, kUniform},
        {"SHUFFLE_ROTATE32", "uint", "simd_shuffle_rotate_down($x, ushort(1))"},
        {"SHUFFLE_NOROTATE32", "uint", "simd_shuffle_down($x, ushort(1))"},
        {"MATMUL<8x8xF16>", "simdgroup_half8x8", "simdgroup_multiply_accumulate($x, $x, $y, $z)",
         F::Statement},
        {"MATMUL<8x8xF32>", "simdgroup_float8x8", "simdgroup_multiply_accumulate($x, $x, $y, $z)",
         F::Statement},
        {"SUM<F16>", "half", "simd_sum($x) + $l", F::Direct, kUniform},
        {"SUM<F32>", "float", "simd_sum($x) + $l", F::Direct, kUniform},
        {"SUM<I16>", "ushort", "simd_sum($x) + $l", F::Direct, kUniform},
        {"SUM<I32>", "uint", "simd_sum($x) + $l", F::Direct, kUniform},
        {"PRODUCT<F16>", "half", "simd_product($x) + $l", F::Direct, kUniform},
        {"PRODUCT<F32>", "float", "simd_product($x) + $l", F::Direct, kUniform},
        {"PRODUCT<I16>", "ushort", "simd_product($x) + $l", F::Direct, kUniform},
        {"PRODUCT<I32>", "uint", "simd_product($x) + $l", F::Direct, kUniform},
        {"BITWISE_REDUCE16", "ushort", "simd_xor($x) ^ $l", F::Direct, kUniform},
        {"BITWISE_REDUCE32", "uint", "simd_xor($x) ^ $l", F::Direct, kUniform},
        {"PREFIX_ESUM<F32>", "float", "simd_prefix_exclusive_sum($x)"},
        {"PREFIX_ISUM<F32>", "float", "simd_prefix_inclusive_sum($x)"},
        {"PREFIX_ESUM<I32>", "uint", "simd_prefix_exclusive_sum($x)"},
        {"PREFIX_ISUM<I32>", "uint", "simd_prefix_inclusive_sum($x)"},
        {"PREFIX_EPROD<F32>", "float", "simd_prefix_exclusive_product($x)"},
        {"PREFIX_IPROD<F32>", "float", "simd_prefix_inclusive_product($x)"},

        // --- quad-scoped forms (Metal's quad_* functions) -------------------------
        {"QUAD_BALLOT", "uint", "uint(quad_vote::vote_t(quad_ballot(bool($x)))) ^ $l", F::Direct,
         kUniform},
        {"QUAD_ICMP_BALLOT", "uint", "uint(quad_vote::vote_t(quad_ballot($x < $y)))"},
        {"QUAD_FCMP_BALLOT", "float",
         "as_type<float>(uint(quad_vote::vote_t(quad_ballot($x < $y))))"},
        {"QUAD_BROADCAST32", "uint", "quad_broadcast($x, ushort(1)) + $l", F::Direct, kUniform},
        {"QUAD_SHUFFLE_ROTATE32", "uint", "quad_shuffle_rotate_down($x, ushort(1))"},
        {"QUAD_SHUFFLE_NOROTATE32", "uint", "quad_shuffle_down($x, ushort(1))"},
        {"QUAD_SHUFFLE_DOWNUP32", "uint", "quad_shuffle_up($x, ushort(1))", F::Direct,
         "quad_shuffle_up (its down form is QUAD_SHUFFLE_NOROTATE32's), one shuffle per step as "
         "measured"},
        {"QUAD_SHUFFLE_RANDOM_SAME32", "uint", "quad_shuffle($x, ushort($u & 3u)) + $l", F::Direct,
         "every lane reads the one lane of its quad a run-time uniform value names; the result is "
         "uniform in the quad, so the lane is mixed in"},
        {"QUAD_SHUFFLE_RANDOM_DIFF32", "uint", "quad_shuffle($x, ushort($y & 3u))", F::Direct,
         "each lane reads a lane of its quad of its own, unknown at compile time"},
        {"QUAD_SUM<F16>", "half", "quad_sum($x) + $l", F::Direct, kUniform},
        {"QUAD_SUM<F32>", "float", "quad_sum($x) + $l", F::Direct, kUniform},
        {"QUAD_SUM<I16>", "ushort", "quad_sum($x) + $l", F::Direct, kUniform},
        {"QUAD_SUM<I32>", "uint", "quad_sum($x) + $l", F::Direct, kUniform},
        {"QUAD_PRODUCT<F16>", "half", "quad_product($x) + $l", F::Direct, kUniform},
        {"QUAD_PRODUCT<F32>", "float", "quad_product($x) + $l", F::Direct, kUniform},
        {"QUAD_PRODUCT<I16>", "ushort", "quad_product($x) + $l", F::Direct, kUniform},
        {"QUAD_PRODUCT<I32>", "uint", "quad_product($x) + $l", F::Direct, kUniform},
        {"QUAD_BITWISE_REDUCE16", "ushort", "quad_xor($x) ^ $l", F::Direct, kUniform},
        {"QUAD_BITWISE_REDUCE32", "uint", "quad_xor($x) ^ $l", F::Direct, kUniform},
        {"QUAD_PREFIX_ESUM<F32>", "float", "quad_prefix_exclusive_sum($x)"},
        {"QUAD_PREFIX_ISUM<F32>", "float", "quad_prefix_inclusive_sum($x)"},
        {"QUAD_PREFIX_ESUM<I32>", "uint", "quad_prefix_exclusive_sum($x)"},
        {"QUAD_PREFIX_ISUM<I32>", "uint", "quad_prefix_inclusive_sum($x)"},
        {"QUAD_PREFIX_EPROD<F32>", "float", "quad_prefix_exclusive_product($x)"},
        {"QUAD_PREFIX_IPROD<F32>", "float", "quad_prefix_inclusive_product($x)"},

        // --- float_sequences.csv -------------------------------------------------
        {"DIV16", "half", "$x / $y"},
        {"DIV32", "float", "fast::divide($x, $y)"},
        {"FRACT32", "float", "fast::fract($x)"},
        {"SIN16", "half", "sin($x)"},
        {"SIN32", "float", "fast::sin($x)"},
        {"COS32", "float", "fast::cos($x)"},
        {"SINPI16", "half", "sinpi($x)"},
        {"SINPI32", "float", "fast::sinpi($x)"},
        {"SQRT16", "half", "sqrt($x)"},
        {"SQRT32", "float", "fast::sqrt($x)"},
        {"EXPE_32", "float", "fast::exp($x)"},
        {"EXP10_32", "float", "fast::exp10($x)"},
        {"LOGE_32", "float", "fast::log($x)"},
        {"LOG10_32", "float", "fast::log10($x)"},
        {"FMEDIAN16", "half", "median3($x, $y, $z)", F::RotatingLattice},
        {"FMEDIAN32", "float", "median3($x, $y, $z)", F::RotatingLattice},
        {"CONVERT(F->I64)", "float", "as_type<float2>(long($x)).y", F::Direct,
         "the 64-bit integer's high word is the next input, so the whole conversion is kept"},
        {"ROUND_INF", "float", "round($x + $y)", F::Direct, kIdempotent},
        {"Precise RECIP32", "float", "precise::divide(1.0f, $x)"},
        {"Precise DIV32", "float", "precise::divide($x, $y)"},
        {"Precise SQRT32", "float", "precise::sqrt($x)"},
        {"Precise SIN32", "float", "precise::sin($x)"},
        {"Precise SINPI32", "float", "precise::sinpi($x)"},

        // --- int_sequences.csv ---------------------------------------------------
        {"IMADHI16", "ushort", "madhi($x, $y, $z)"},
        {"IMADHI32", "uint", "madhi($x, $y, $z)"},
        {"BITREV16", "ushort", "reverse_bits($x) + $y", F::Direct,
         "reverse_bits is its own inverse: an IADD16 follows each"},
        {"BITROTATE32", "uint", "rotate($x, $y)", F::Direct,
         "rotation by an amount unknown at compile time"},
        {"RHADD16", "ushort", "rhadd($x, $y)"},
        {"RHADD32", "uint", "rhadd($x, $y)"},
        {"CLZ32", "uint", "clz($x)"},
        {"LSHIFT32", "uint", "$x << ($y & 31u)", F::Direct,
         "a shift amount unknown at compile time, as measured"},
        {"RSHIFT32", "uint", "$x >> ($y & 31u)", F::Direct,
         "a shift amount unknown at compile time, as measured"},
        {"ABSDIFF32", "uint", "absdiff($x, $y)"},
        {"IADD(32+32=64)", "ulong", "ulong(uint($x) + uint($x >> 32)) + ulong(uint($y))",
         F::Rotating,
         "the carry (high word) is added back into the next input so it is not dead: one IADD32 "
         "more"},
        {"IADD(64+32=64)", "ulong", "$x + ulong(uint($y))", F::Rotating},
        {"IADD64", "ulong", "$x + $y", F::Rotating},
        {"IADD(64+64=64)", "ulong", "$x + $y", F::Rotating},
        {"IMUL(64x64=64)", "ulong", "$x * $y", F::Rotating},
        {"IMAD((32x32=32)+64)", "ulong", "$x + ulong(uint($x) * uint($y))"},
        {"IMAD((32x32=64)+64)", "ulong", "$x + ulong(uint($x)) * ulong(uint($y))"},
        {"IMAD((64x64=64)+64)", "ulong", "$x * $y + $z"},
        {"IMULHI64", "ulong", "mulhi($x, $y)"},

        // --- simd_sequences.csv --------------------------------------------------
        {"SHUFFLE_RANDOM_SAME32", "uint", "simd_shuffle($x, ushort($u & 31u)) + $l", F::Direct,
         "every lane reads the one lane a run-time uniform value names; the result is uniform, so "
         "the lane is mixed in"},
        {"SHUFFLE_RANDOM_DIFF32", "uint", "simd_shuffle($x, ushort($y & 31u))", F::Direct,
         "each lane reads a lane of its own, unknown at compile time"},
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

// A name with the width appended first, as validation::expand_operation does.
const MslOp* find_with_width(std::string_view name, std::uint32_t bits) {
    if (const MslOp* op = find_msl_op(std::string(name) + std::to_string(bits))) return op;
    return find_msl_op(name);
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
    return form == OpForm::Rotating ? 2 : form == OpForm::RotatingLattice ? 3 : 1;
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

std::vector<ResolvedTerm> resolve_operation(const std::string& op, std::uint32_t register_bits) {
    if (const MslOp* whole = find_with_width(trim(op), register_bits)) return {{whole, 1}};
    if (!unmappable_reason(trim(op)).empty()) unmapped(trim(op), op);
    // A mix: "IMUL32 + 3 IADD32", each term with an optional count.
    std::vector<ResolvedTerm> terms;
    std::string_view rest = op;
    while (!rest.empty()) {
        const auto plus = rest.find(" + ");
        std::string_view term = trim(rest.substr(0, plus));
        rest = plus == std::string_view::npos ? std::string_view{} : rest.substr(plus + 3);
        std::uint32_t count = 1;
        auto [end, ec] = std::from_chars(term.data(), term.data() + term.size(), count);
        if (ec == std::errc() && end != term.data() && end < term.data() + term.size() &&
            *end == ' ' && count > 0)
            term = trim(term.substr(static_cast<std::size_t>(end - term.data())));
        else
            count = 1;
        const MslOp* found = find_with_width(term, register_bits);
        if (!found) unmapped(term, op);
        terms.push_back({found, count});
    }
    if (terms.empty()) unmapped(op, op);
    return terms;
}

}  // namespace agx::probe
