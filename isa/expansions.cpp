// Metal operations (the row names of validation/data/metal-benchmarks/*.csv)
// as machine-instruction sequences.
//
// Three kinds of entry, told apart by `source`:
//   "metal-benchmarks ..."   documented expansion (the sequence tables)
//   "csv: ..."               a single machine instruction measured as itself
//   "guess: ..."             a reconstruction, justified by the measured
//                            throughput, latency and, where the tables give
//                            it, code size (a sequence of n instructions
//                            fills the instruction cache at about 1440 / n
//                            repetitions: "optimal repetitions"); replace
//                            when a disassembly is known
#include <charconv>
#include <string>

#include "isa/catalogue.hpp"

namespace agx::isa {

namespace {

constexpr std::string_view kDoc =
    "metal-benchmarks (Philip Turner, https://github.com/philipturner/metal-benchmarks): "
    "Actual Instructions tables";
constexpr std::string_view kCsv = "csv: single instruction";

// A chain where every step consumes the previous step's result.
std::vector<ExpansionStep> chain(std::initializer_list<std::string_view> m) {
    std::vector<ExpansionStep> s;
    for (auto x : m) s.push_back({x, !s.empty()});
    return s;
}

// `n` repetitions of a chain (reductions: each round depends on the last).
std::vector<ExpansionStep> rounds(int n, std::initializer_list<std::string_view> m) {
    std::vector<ExpansionStep> s;
    for (int i = 0; i < n; ++i)
        for (auto x : m) s.push_back({x, !s.empty()});
    return s;
}

std::vector<Expansion> build_expansions() {
    std::vector<Expansion> x;
    auto one = [&](std::string_view metal, std::string_view mnemonic) {
        x.push_back({metal, chain({mnemonic}), kCsv});
    };
    auto seq = [&](std::string_view metal, std::vector<ExpansionStep> s, std::string_view src) {
        x.push_back({metal, std::move(s), src});
    };

    // --- float_instructions.csv -------------------------------------------
    one("FADD16", "fadd16");
    one("FMUL16", "fmul16");
    one("FFMA16", "fmadd16");
    one("FADD32", "fadd32");
    one("FMUL32", "fmul32");
    one("FFMA32", "fmadd32");
    seq("FFMA", chain({"fmadd32"}),
        "csv: ilp_occupancy.csv row; the 32-bit column (16-bit: fmadd16)");
    one("CONVERT(F->I32)", "convert");
    one("RINT32", "rint");
    one("TRUNC32", "trunc");
    one("FLOOR32", "floor");
    one("CEIL32", "ceil");
    one("RECIP16", "rcp16");
    one("RECIP32", "rcp32");
    one("RSQRT16", "rsqrt16");
    one("RSQRT32", "rsqrt32");
    seq("Precise RSQRT32", chain({"rsqrt32"}), "guess: measures exactly like RSQRT32");
    one("SIN_PT_1", "sin_pt_1");
    one("SIN_PT_2", "sin_pt_2");
    one("EXP2_16", "exp2_16");
    one("LOG2_16", "log2_16");
    one("EXP2_32", "exp2_32");
    one("LOG2_32", "log2_32");
    seq("Precise EXP2_32", chain({"exp2_32"}), "guess: measures exactly like EXP2_32");
    seq("Precise LOG2_32", chain({"log2_32"}), "guess: measures exactly like LOG2_32");
    one("FMAX32", "fmax32");
    one("FMIN32", "fmin32");
    one("FMAX16", "fmax16");
    one("FMIN16", "fmin16");
    one("FCMPSEL16", "fcmpsel16");
    one("FCMPSEL32", "fcmpsel32");

    // --- int_instructions.csv ---------------------------------------------
    one("IADD16", "iadd16");
    one("IMUL16", "imul16");
    one("IMAD16", "imadd16");
    one("IMUL(16x16=32)", "imul16x32");
    one("IMAD((16x16=32)+32)", "imadd16x32");
    one("IADD32", "iadd32");
    seq("ADD32", chain({"iadd32"}), "csv: int_sequences.csv spelling of IADD32");
    one("IMUL32", "imul32");
    one("IMAD32", "imadd32");
    one("IMULHI32", "imulhi32");
    one("IMUL(32x32=64)", "imul32x64");
    one("IADDSAT32", "iaddsat32");
    one("BITEXTRACT32", "bfeil");
    one("BITINSERT32", "bfi");
    one("BITWISE32", "bitop32");
    one("BITREV32", "bitrev");
    one("BITINTERLEAVE16", "intl");
    one("POPCOUNT32", "popcount");
    one("IMAX32", "imax32");
    one("IMIN32", "imin32");
    one("IMAX16", "imax16");
    one("IMIN16", "imin16");
    one("ICMPSEL16", "icmpsel16");
    one("ICMPSEL32", "icmpsel32");

    // --- simd_instructions.csv --------------------------------------------
    one("BALLOT", "simd_ballot");
    one("ICMP_BALLOT", "icmp_ballot");
    one("FCMP_BALLOT", "fcmp_ballot");
    one("BROADCAST32", "simd_broadcast");
    one("SHUFFLE_ROTATE32", "simd_shuffle_rotate");
    seq("SHUFFLE_NOROTATE32", chain({"simd_shuffle_down"}),
        "guess: a shift without wrap-around, i.e. simd_shuffle_down/up");
    seq("MATMUL<8x8xF16>", chain({"simd_matrix_fmadd16"}),
        "guess: one 8x8x8 multiply-accumulate instruction");
    seq("MATMUL<8x8xF32>", chain({"simd_matrix_fmadd32"}),
        "guess: one 8x8x8 multiply-accumulate instruction");
    // Scans and reductions are subgroup instructions. Asahi's Mesa compiler
    // (src/asahi/compiler/agx_opcodes.py, agx_nir_lower_subgroups.c) encodes
    // the reduction (simd_iadd) and the exclusive scan (simd_prefix_iadd) as
    // single instructions, keeps fadd, fmul, iadd and the bitwise ops for the
    // hardware, and builds the inclusive scan as the exclusive one combined
    // with the lane's own value. A 16-bit operation takes the same
    // instruction as the 32-bit one.
    constexpr std::string_view kScan =
        "Mesa's Asahi compiler (src/asahi/compiler/agx_nir_lower_subgroups.c): one exclusive-scan "
        "instruction; the inclusive scan adds the lane's own value";
    constexpr std::string_view kReduce =
        "Mesa's Asahi compiler (src/asahi/compiler/agx_opcodes.py): one reduction instruction "
        "(simd_iadd and its kin) at the operation's width";
    auto scan = [&](std::string_view prefix, std::string_view op, bool inclusive) {
        return inclusive ? chain({prefix, op}) : chain({prefix});
    };
    seq("SUM<F16>", chain({"simd_reduce_fadd16"}), kReduce);
    seq("SUM<F32>", chain({"simd_reduce_fadd32"}), kReduce);
    seq("SUM<I16>", chain({"simd_reduce_iadd16"}), kReduce);
    seq("SUM<I32>", chain({"simd_reduce_iadd32"}), kReduce);
    seq("PRODUCT<F16>", chain({"simd_reduce_fmul16"}), kReduce);
    seq("PRODUCT<F32>", chain({"simd_reduce_fmul32"}), kReduce);
    seq("BITWISE_REDUCE16", chain({"simd_reduce_ixor16"}), kReduce);
    seq("BITWISE_REDUCE32", chain({"simd_reduce_ixor32"}), kReduce);
    // No hardware scan or reduction for imul (Mesa's Asahi compiler lowers
    // it always): an xor butterfly of shuffles and multiplies, 5 rounds over
    // a simd, 2 over a quad.
    constexpr std::string_view kSoftReduce =
        "Mesa's Asahi compiler has no hardware imul scan or reduction and lowers it; the shape, "
        "an xor butterfly (a shuffle and a multiply per round), is a guess";
    seq("PRODUCT<I16>", rounds(5, {"simd_shuffle_xor", "imul16"}), kSoftReduce);
    seq("PRODUCT<I32>", rounds(5, {"simd_shuffle_xor", "imul32"}), kSoftReduce);
    seq("PREFIX_ESUM<F32>", scan("simd_prefix_fadd32", "fadd32", false), kScan);
    seq("PREFIX_ISUM<F32>", scan("simd_prefix_fadd32", "fadd32", true), kScan);
    seq("PREFIX_ESUM<I32>", scan("simd_prefix_iadd32", "iadd32", false), kScan);
    seq("PREFIX_ISUM<I32>", scan("simd_prefix_iadd32", "iadd32", true), kScan);
    seq("PREFIX_EPROD<F32>", scan("simd_prefix_fmul32", "fmul32", false), kScan);
    seq("PREFIX_IPROD<F32>", scan("simd_prefix_fmul32", "fmul32", true), kScan);

    // Quad-scoped forms (Metal's quad_* functions): the same operations over
    // the 4 lanes of a quad, with the quad forms of the instructions.
    constexpr std::string_view kQuad = "guess: the SIMD form's instruction in its quad form";
    // Metal's quad vote is a sequence (quad_sequences.csv): the ballot and one
    // FP32/integer-pipe instruction (throughput 3.02 = 2 + 1), taken here as
    // the mask of the quad's 4 bits.
    constexpr std::string_view kQuadVote =
        "quad_sequences.csv: throughput 3.01-3.02 = a ballot (2) + one FP32/integer issue (1); "
        "the second instruction taken as the 4-bit mask (bitop32)";
    seq("QUAD_BALLOT", chain({"quad_ballot", "bitop32"}), kQuadVote);
    seq("QUAD_ICMP_BALLOT", chain({"quad_ballot", "bitop32"}), kQuadVote);
    seq("QUAD_FCMP_BALLOT", chain({"quad_ballot", "bitop32"}), kQuadVote);
    one("QUAD_BROADCAST32", "quad_broadcast");
    seq("QUAD_SHUFFLE_ROTATE32", chain({"quad_shuffle"}), kQuad);
    seq("QUAD_SHUFFLE_NOROTATE32", chain({"quad_shuffle"}), kQuad);
    // quad_shuffle_up/down: the shuffle instruction with a lane offset.
    seq("QUAD_SHUFFLE_DOWNUP32", chain({"quad_shuffle"}), kQuad);
    // Any index within the quad is one pass (applegpu's shuffle reads the
    // quad's value by each lane's 2-bit index), so the random forms, which
    // take 14-16 passes over 32 lanes, are one instruction over a quad.
    seq("QUAD_SHUFFLE_RANDOM_SAME32", chain({"quad_shuffle"}), kQuad);
    seq("QUAD_SHUFFLE_RANDOM_DIFF32", chain({"quad_shuffle"}), kQuad);
    seq("QUAD_SUM<F16>", chain({"quad_reduce_fadd16"}), kReduce);
    seq("QUAD_SUM<F32>", chain({"quad_reduce_fadd32"}), kReduce);
    seq("QUAD_SUM<I16>", chain({"quad_reduce_iadd16"}), kReduce);
    seq("QUAD_SUM<I32>", chain({"quad_reduce_iadd32"}), kReduce);
    seq("QUAD_PRODUCT<F16>", chain({"quad_reduce_fmul16"}), kReduce);
    seq("QUAD_PRODUCT<F32>", chain({"quad_reduce_fmul32"}), kReduce);
    seq("QUAD_PRODUCT<I16>", rounds(2, {"quad_shuffle", "imul16"}), kSoftReduce);
    seq("QUAD_PRODUCT<I32>", rounds(2, {"quad_shuffle", "imul32"}), kSoftReduce);
    seq("QUAD_BITWISE_REDUCE16", chain({"quad_reduce_ixor16"}), kReduce);
    seq("QUAD_BITWISE_REDUCE32", chain({"quad_reduce_ixor32"}), kReduce);
    // Quad scans: one prefix instruction (exclusive: QUAD_PREFIX_ESUM's
    // throughput 2.03 is one shuffle-unit issue); the inclusive form adds the
    // lane's own value after it (ISUM 3.19 = 2.03 + one FP32 issue).
    constexpr std::string_view kQuadScan =
        "quad_instructions.csv: exclusive = one quad_prefix instruction (throughput 2.03, a "
        "shuffle's); inclusive = it and the own value's op (3.19)";
    seq("QUAD_PREFIX_ESUM<F32>", scan("quad_prefix_fadd32", "fadd32", false), kQuadScan);
    seq("QUAD_PREFIX_ISUM<F32>", scan("quad_prefix_fadd32", "fadd32", true), kQuadScan);
    seq("QUAD_PREFIX_ESUM<I32>", scan("quad_prefix_iadd32", "iadd32", false), kQuadScan);
    seq("QUAD_PREFIX_ISUM<I32>", scan("quad_prefix_iadd32", "iadd32", true), kQuadScan);
    seq("QUAD_PREFIX_EPROD<F32>", scan("quad_prefix_fmul32", "fmul32", false), kQuadScan);
    seq("QUAD_PREFIX_IPROD<F32>", scan("quad_prefix_fmul32", "fmul32", true), kQuadScan);

    // --- documented sequences (metal-benchmarks) ----------------------------
    seq("DIV32", chain({"rcp32", "fmul32"}), kDoc);
    seq("DIV_32", chain({"rcp32", "fmul32"}),
        "metal-benchmarks (Philip Turner, https://github.com/philipturner/metal-benchmarks): "
        "DIV32, as the README's mixed transcendental table spells it in one row (Fast DIV_32 + "
        "SIN32)");
    seq("FRACT32", chain({"trunc", "fadd32"}), kDoc);
    seq("TRIG_REDUCE", chain({"fmul32", "trunc", "fadd32", "fmadd32"}), kDoc);
    seq("SIN32", chain({"fmul32", "trunc", "fadd32", "fmadd32", "sin_pt_1", "sin_pt_2"}), kDoc);
    seq("COS32", chain({"fmul32", "trunc", "fadd32", "fmadd32", "sin_pt_1", "sin_pt_2"}), kDoc);
    seq("IMADHI16", chain({"imul32", "mov"}), kDoc);
    // The immediate move (the zero high word) does not depend on the add. The
    // documented add and carry select (2 + 5 on the chained path) come out ~1
    // cycle over the measured 7.86 - 1.70 = 6.2; the sequence is kept as
    // documented.
    seq("IADD(32+32=64)", {{"iadd32", false}, {"icmpsel32", true}, {"mov_imm", false}}, kDoc);
    seq("IADD(64+32=64)", chain({"iadd32", "icmpsel32", "iadd32"}), kDoc);
    seq("IADD64", chain({"iadd32", "icmpsel32", "iadd32", "iadd32"}), kDoc);
    seq("IADD(64+64=64)", chain({"iadd32", "icmpsel32", "iadd32", "iadd32"}), kDoc);
    seq("IMUL(64x64=64)", chain({"imul32x64", "imadd32", "imadd32"}), kDoc);

    // --- other float_sequences.csv rows -------------------------------------
    // Mesa's Asahi compiler lowers fdiv to a * rcp(b) (lower_fdiv) at either
    // width; the measured 9.36 is ~0.5 cycle over DIV32's 8.90, which this
    // shape does not reproduce (16-bit ops cost no more than 32-bit ones here).
    seq("DIV16", chain({"rcp16", "fmul16"}),
        "Mesa's Asahi compiler (lower_fdiv): a * rcp(b), DIV32's shape at 16 bits (6.01 cycles)");
    seq("SQRT16", chain({"rsqrt16", "fmul16"}), "guess: x * rsqrt(x) (8 cycles, like RSQRT)");
    seq("SQRT32", chain({"rsqrt32", "fmul32"}), "guess: x * rsqrt(x) (8 cycles, like RSQRT)");
    seq("EXPE_32", chain({"fmul32", "exp2_32"}), "guess: exp2(x * log2(e)) (4 cycles, like EXP2)");
    seq("EXP10_32", chain({"fmul32", "exp2_32"}),
        "guess: exp2(x * log2(10)) (4 cycles, like EXP2)");
    seq("LOGE_32", chain({"log2_32", "fmul32"}), "guess: log2(x) * ln(2) (4 cycles, like LOG2)");
    seq("LOG10_32", chain({"log2_32", "fmul32"}),
        "guess: log2(x) * log10(2) (4 cycles, like LOG2)");
    seq("SIN16", chain({"fmul32", "trunc", "fadd32", "fmadd32", "sin_pt_1", "sin_pt_2"}),
        "guess: SIN32's sequence (sin_pt is 32-bit only; 13.56 vs 14.28 cycles)");
    // max(min(a,b), min(max(a,b),c)): min(a,b) and max(a,b) do not depend on
    // c, so the value the latency benchmark chains (c) passes through the last
    // two compare-selects only: float_sequences.csv raw latency 10.86 - 1.70
    // kernel cost = 9.2 = two FCMPSEL32 latencies (4.74), not three.
    seq("FMEDIAN32", {{"fmin32", false}, {"fmax32", false}, {"fmin32", false}, {"fmax32", true}},
        "guess: max(min(a,b), min(max(a,b),c)): 4 compare-selects (3.65 cycles), two on the "
        "chained operand's path (latency 9.2 = 2 x 4.74)");
    // FMEDIAN16's code is 2-3 times FMEDIAN32's (optimal repetitions 120-240
    // against 360-480) and its adjusted latency, 16.41 - 1.17 = 15.2, is what
    // FMEDIAN32's two selects (2 x 5) cost plus a conversion into and out of
    // 32 bits (2 + 2): the median is taken at 32 bits.
    seq("FMEDIAN16",
        {{"mov", false},
         {"fmin32", false},
         {"fmax32", false},
         {"mov", false},
         {"fmin32", true},
         {"fmax32", true},
         {"mov", true}},
        "guess: FMEDIAN32 at 32 bits between conversions (7 simple ops; latency 2 + 5 + 5 + 2 = "
        "14 on the chained operand's path)");
    // 7.11 cycles is one integer/complex op's two issue cycles and five
    // FP32/integer ones (two conversions would take 8), and optimal
    // repetitions 240 say about 6 instructions: one conversion, the high word
    // as a compare-select on the converted value and a carry add on the
    // chained path (3 + 5 + 2), range and sign work beside it.
    seq("CONVERT(F->I64)",
        {{"fmul32", false},
         {"fcmpsel32", true},
         {"bitop32", true},
         {"convert", false},
         {"icmpsel32", true},
         {"iadd32", true}},
        "guess: one conversion, a compare-select and an add on the chain (latency 3 + 5 + 2), "
        "three simple ops beside it: 6 instructions (throughput 2 + 5 = 7, measured 7.11)");
    // Round half away from zero: the truncation, the fraction, a select of the
    // step (+-1 by the sign, 0 when the fraction is under a half: two
    // compare-selects), the sum and a final rounding (2 integer/complex ops,
    // 8.18 cycles; optimal repetitions 240, ~6 instructions). Its chain,
    // 3 + 2 + 5 + 5 + 2 + 3 = 20, is the measured 21.38 - 1.70.
    seq("ROUND_INF", chain({"trunc", "fadd32", "fcmpsel32", "fcmpsel32", "fadd32", "rint"}),
        "guess: trunc, fraction, two selects of the +-1/0 step, sum, rint: 6 instructions, two "
        "integer/complex (8.18 cycles)");

    // --- other int_sequences.csv rows ---------------------------------------
    seq("BITREV16", chain({"bitrev", "mov"}),
        "guess: 32-bit reverse, then take the high half (4 cycles)");
    // Mesa's Asahi compiler lowers a rotate (nir lower_rotate) to
    // (x << n) | (x >> -n) and then masks each dynamic shift amount, since the
    // hardware shifts read 7 bits of it (applegpu: shift_amount = b & 0x7F;
    // agx_nir_algebraic.py lower_sm5_shift): two shifts, two ands, a negate and
    // an or, 2 integer/complex ops (8.20 cycles). The latency benchmark chains
    // the amount, whose longest path is negate, and, shift right, or (2 + 2 + 5
    // + 2); the measured 22.70 - 1.70 = 21 is about 10 cycles more than that
    // path, and more than any sequence the code size (optimal repetitions
    // 720-1440) allows, so the difference stays unexplained.
    seq("BITROTATE32",
        {{"bitop32", false},
         {"shl", true},
         {"iadd32", false},
         {"bitop32", true},
         {"shr", true},
         {"bitop32", true}},
        "Mesa's Asahi compiler (nir lower_rotate, agx_nir_algebraic.py lower_sm5_shift): "
        "(x << (n & 31)) | (x >> (-n & 31)), the chained amount through negate, and, shift "
        "right, or");
    // Mesa's Asahi compiler lowers rounding halving adds (lower_hadd) to
    // (a | b) - ((a ^ b) >> 1): one shift and three simple ops, 2 + 5 + 2 on
    // the chained path, the latency of the widened form below. The measured
    // 16.42 - 1.70 = 14.7 cycles is ~5 more than either shape, or any other
    // that fits its code size (optimal repetitions 480, ~3 instructions) and
    // one integer/complex op (4.00 cycles): unexplained, the widened form kept.
    seq("RHADD16", chain({"iadd32", "iadd32", "shr"}),
        "guess: widened add, +1, shift right (4 cycles: one IntComplex op)");
    // No count-leading-zeros instruction: applegpu's ffs returns the index of
    // the highest set bit (-1 for 0), "clz(x) = 31 - fls(x)", which is also
    // right for 0 (32). One integer/complex op and a subtraction (4.05 cycles).
    seq("CLZ32", chain({"ffs", "iadd32"}),
        "applegpu (Dougall Johnson): ffs (find leading set bit), then clz = 31 - ffs");
    seq("LSHIFT32", chain({"shl"}), "csv: int_sequences.csv, measured with a dynamic shift amount");
    // Mesa's Asahi compiler masks a dynamic shift amount with an and
    // (agx_nir_algebraic.py lower_sm5_shift: the hardware reads 7 bits of it),
    // which would run at one shift's 4 cycles; Metal's code takes 7.89, two
    // integer/complex ops, so the mask is taken as a bit-field extract of the
    // amount's low 5 bits. The chain (4 + 5) stays ~1.5 cycles under the
    // measured 12.19 - 1.70.
    seq("RSHIFT32", chain({"bfeil", "shr"}),
        "guess: the amount's low 5 bits by a bit-field extract, then the shift: two "
        "integer/complex ops (7.89 cycles)");
    // The measured latency, 11.61, is IMULHI32's own (11.53): as if the add
    // were off the chained path, which mulhi(a, b) + c with the chained value
    // in a or b cannot be. Folding it into a wide multiply-add (the high word
    // of a * b + (c << 32)) is one instruction but one of IMAD((32x32=64)+64)'s
    // 18-cycle latency; the plain sequence, 2 cycles over, is kept.
    seq("IMADHI32", chain({"imulhi32", "iadd32"}),
        "guess: mulhi(a,b) + c (8.01 cycles, like IMULHI32)");
    // IADD(64+32=64) (documented) with its low add fused into the multiply:
    // IMAD32 costs what IMUL32 does (int_instructions.csv 4 / 4.02), so a
    // compiler folds x*y + lo(z) into one imadd32 and keeps the carry select
    // and the high add (latency 4 + 5 + 2, measured 12.26 - 1.70 = 10.6).
    seq("IMAD((32x32=32)+64)", chain({"imadd32", "icmpsel32", "iadd32"}),
        "guess: imadd32 for the low word, then IADD(64+32=64)'s carry select and high add");
    // metal-benchmarks README (64-bit integer math): "a 64-bit addition can
    // also be fused into this multiply, at no additional cost" (8.03 cycles,
    // IMUL(32x32=64) 8.01).
    seq("IMAD((32x32=64)+64)", chain({"imadd32x64"}),
        "metal-benchmarks README: the 64-bit add fuses into the 32x32=64 multiply (8.03 cycles)");
    seq("IMAD((64x64=64)+64)", chain({"imadd32x64", "imadd32", "imadd32"}),
        "guess: IMUL(64x64=64) with the add folded into the wide multiply-add (16.58 cycles)");

    // --- rows without a documented expansion ---------------------------------
    // Shaped by the measured throughput and latency under the pipeline model
    // (FP32/integer ops 1 cycle, integer/complex ops 4+); each is a guess to
    // be replaced when a disassembly is known.
    // x > y ? x - y : y - x, with y - x taken as the negation of x - y (the
    // same value mod 2^32, so a compiler computes the difference once): the
    // chained operand passes through the subtraction, the negation and the
    // compare-select (2 + 2 + 5 = 9; measured 9.97 - 1.70 = 8.3). Two
    // independent differences would be one add shorter (7), ~1.2 cycles under
    // the measured latency against ~0.7 over. The measured 4.03 cycles of
    // throughput leave room for a fourth simple op off that path.
    seq("ABSDIFF32", {{"mov", false}, {"iadd32", false}, {"iadd32", true}, {"icmpsel32", true}},
        "guess: the difference, its negation and a compare-select of the two (latency 2 + 2 + "
        "5), plus one simple op off the critical path: 4 simple ops (4.03 cycles)");
    // Not Mesa's lowering (above), which would run at one shift's 4 cycles
    // against the measured 6; the measured latency, 20.89 - 1.70 = 19.2, is
    // also ~4 cycles more than this guess's chain (15).
    seq("RHADD32", chain({"iadd32", "icmpsel32", "iadd32", "bitop32", "bitop32", "iadd32"}),
        "guess: (a>>1)+(b>>1)+((a|b)&1) without overflow: 6 simple ops (6 cycles)");
    seq("IMULHI64",
        chain({"imul32x64", "imul32x64", "imulhi32", "iadd32", "icmpsel32", "iadd32", "icmpsel32",
               "iadd32"}),
        "guess: metal-benchmarks says 12 or more instructions; three wide products and carries "
        "(22.22 cycles)");
    // sinpi(x) reduces x exactly and takes the sign from the parity of the
    // integer part, which needs that integer as an integer: a float-to-int
    // conversion (an integer/complex op) and bit operations beside the chain.
    // Code size bounds the guess: optimal repetitions 48-72 (20-30
    // instructions) for SINPI32, 120-240 (6-12) for SINPI16.
    seq("SINPI32", {{"fmul32", false}, {"trunc", true},    {"fadd32", true},   {"fcmpsel32", true},
                    {"fmadd32", true}, {"trunc", true},    {"fadd32", true},   {"fmadd32", true},
                    {"fmul32", true},  {"fmadd32", true},  {"sin_pt_1", true}, {"sin_pt_2", true},
                    {"fmul32", true},  {"fmadd32", true},  {"fmul32", true},   {"fadd32", true},
                    {"fmul32", true},  {"convert", false}, {"bitop32", true},  {"bitop32", true}},
        "guess: two exact rounding steps, sin_pt and a polynomial correction on the chain; the "
        "integer part's parity (convert, two bit operations) beside it: 20 instructions "
        "(throughput 5 complex x 2 issue cycles + 15 simple = 25, measured 25.03)");
    seq("SINPI16",
        {{"fmul32", false},
         {"trunc", true},
         {"fadd32", true},
         {"fcmpsel32", true},
         {"fmadd32", true},
         {"sin_pt_1", true},
         {"sin_pt_2", true},
         {"fcmpsel32", true},
         {"convert", false},
         {"bitop32", true}},
        "guess: SINPI32 with one rounding step and no correction, the parity beside the chain: "
        "10 instructions (SFU 4 + 4 + 10 = 18, measured 18.64)");
    // 10.46 cycles is rcp32's two issue cycles and eight FP32 ones; the
    // adjusted latency 28.48 - 1.70 = 26.8 is rcp (5), six FP32 steps (12) and
    // two compare-selects (10).
    seq("Precise RECIP32",
        chain({"rcp32", "fmadd32", "fmadd32", "fmadd32", "fmul32", "fcmpsel32", "fmadd32",
               "fcmpsel32", "fadd32"}),
        "guess: rcp32, Newton-Raphson refinement and two special-case selects: 9 instructions "
        "(2 + 8 issue cycles, measured 10.46)");
    seq("Precise DIV32",
        chain({"rcp32", "fmadd32", "fmadd32", "fmadd32", "fmul32", "fcmpsel32", "fmadd32",
               "fcmpsel32", "fadd32", "fcmpsel32", "fmul32", "fmadd32", "fmadd32"}),
        "guess: Precise RECIP32, then a product with a correction step");
    // Precise SQRT32: 12-20 instructions (optimal repetitions 72), 15.03
    // cycles (one rsqrt's two issue cycles + 13 simple ops) and an adjusted
    // latency of 37.12 - 1.70 = 35.4 (rsqrt 7 + nine FP32 steps + two selects).
    seq("Precise SQRT32",
        {{"fmul32", false},
         {"rsqrt32", true},
         {"fmul32", true},
         {"fmul32", true},
         {"fmadd32", true},
         {"fmadd32", true},
         {"fmadd32", true},
         {"fmadd32", true},
         {"fmul32", true},
         {"fmul32", true},
         {"fcmpsel32", true},
         {"fcmpsel32", true},
         {"fcmpsel32", false},
         {"fcmpsel32", true}},
        "guess: scale the input, rsqrt32, product and Newton-Raphson refinement, unscale, "
        "special-case selects, two of them off the chained path: 14 instructions (15.03 "
        "cycles)");
    // As for SINPI32, the quadrant of the Cody-Waite reduction is needed as an
    // integer: a conversion and bit operations beside the chain. The measured
    // latency, 225.66, is not an ALU chain's: at 24.39 cycles per operation of
    // throughput (about 19 instructions), a dependent chain of them cannot take
    // 224 cycles. Something outside the ALUs must sit on the chained path, most
    // likely a load of the 2/pi table a precise reduction of large arguments
    // (Payne-Hanek) reads, which the throughput run hides behind 88 simds.
    // ALU benchmarks here have no memory instructions, so the latency stays
    // that of the ALU work alone.
    seq("Precise SIN32",
        {{"fmul32", false},
         {"trunc", true},
         {"fadd32", true},
         {"fmadd32", true},
         {"fmadd32", true},
         {"fmadd32", true},
         {"fcmpsel32", true},
         {"sin_pt_1", true},
         {"sin_pt_2", true},
         {"fmul32", true},
         {"fmadd32", true},
         {"fcmpsel32", true},
         {"trunc", true},
         {"fadd32", true},
         {"convert", false},
         {"bitop32", true},
         {"bitop32", true},
         {"fcmpsel32", true},
         {"fmul32", true}},
        "guess: SIN32 with a three-part (Cody-Waite) range reduction and the quadrant as an "
        "integer beside the chain (throughput 5 complex x 2 + 14 simple = 24, measured 24.39)");
    seq("Precise SINPI32",
        {{"fmul32", false}, {"trunc", true},    {"fadd32", true},   {"fcmpsel32", true},
         {"fmadd32", true}, {"trunc", true},    {"fadd32", true},   {"fmadd32", true},
         {"fmul32", true},  {"fmadd32", true},  {"sin_pt_1", true}, {"sin_pt_2", true},
         {"fmul32", true},  {"fmadd32", true},  {"fmul32", true},   {"fadd32", true},
         {"fmul32", true},  {"fmadd32", true},  {"fmadd32", true},  {"fcmpsel32", true},
         {"fadd32", true},  {"convert", false}, {"bitop32", true},  {"bitop32", true}},
        "guess: SINPI32 with four more correction steps on the chain: 24 instructions (optimal "
        "repetitions 48; 5 complex x 2 + 19 simple = 29, measured 29.08)");
    // The hardware shuffle takes one source lane per quad (applegpu's
    // simd_shuffle), so an arbitrary index takes several shuffles: Mesa's
    // Asahi compiler (agx_nir_lower_subgroups.c) reads the data once per
    // candidate lane of the quad, each shuffle independent of the others, and
    // joins them with compare-selects. Metal's compiler issues more shuffles
    // (28.25 and 32.32 cycles: 14 and 16 at 2 cycles each), and its measured
    // latency, 3.4-3.5 cycles per shuffle after the kernel's 1.70 against a
    // lone shuffle's 3.73, says some of them run beside the chained path, as
    // independent candidate reads do. How many is not known: the chained path
    // here holds the shuffles the latency accounts for (12 x 4 and 13 x 4
    // cycles), the others stand beside it.
    auto shuffles = [](int on_path, int beside) {
        std::vector<ExpansionStep> s;
        for (int i = 0; i < beside; ++i) s.push_back({"simd_shuffle", false});
        for (int i = 0; i < on_path; ++i) s.push_back({"simd_shuffle", i > 0});
        return s;
    };
    seq("SHUFFLE_RANDOM_SAME32", shuffles(12, 2),
        "guess: 14 shuffles (28.25 cycles / 2), independent candidate reads as in Mesa's "
        "lowering, 12 of them on the chained path (measured latency)");
    seq("SHUFFLE_RANDOM_DIFF32", shuffles(13, 3),
        "guess: 16 shuffles (32.32 cycles / 2), independent candidate reads as in Mesa's "
        "lowering, 13 of them on the chained path (measured latency)");
    seq("FREXP", chain({"bfeil", "iadd32", "bfi"}),
        "guess: extract the exponent, unbias it, insert the new exponent (not measured)");
    return x;
}

// "3 IADD32" -> (3, "IADD32"); "IADD32" -> (1, "IADD32").
std::pair<int, std::string_view> split_count(std::string_view term) {
    int n = 0;
    auto [p, ec] = std::from_chars(term.data(), term.data() + term.size(), n);
    if (ec != std::errc() || p == term.data() || p == term.data() + term.size() || *p != ' ' ||
        n <= 0)
        return {1, term};
    return {n, term.substr(static_cast<std::size_t>(p - term.data()) + 1)};
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
    while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
    return s;
}

}  // namespace

std::string first_alternative(std::string_view term) {
    const auto slash = term.find('/');
    if (slash == std::string_view::npos) return "";
    std::string first(term.substr(0, slash));
    std::size_t digits = term.size();
    while (digits > 0 && term[digits - 1] >= '0' && term[digits - 1] <= '9') --digits;
    const bool first_has_width = !first.empty() && first.back() >= '0' && first.back() <= '9';
    if (!first_has_width && digits > term.rfind('/')) first += std::string(term.substr(digits));
    return first;
}

const std::vector<Expansion>& expansions() {
    static const std::vector<Expansion> x = build_expansions();
    return x;
}

const Expansion* find_expansion(std::string_view metal_name) {
    for (const auto& e : expansions())
        if (e.metal_name == metal_name) return &e;
    return nullptr;
}

std::string_view without_fast_math(std::string_view name) {
    name = trim(name);
    if (name.substr(0, 5) == "Fast ") name = trim(name.substr(5));
    return name;
}

std::optional<std::vector<ExpansionStep>> expand_metal(std::string_view name) {
    name = without_fast_math(name);
    if (const auto* e = find_expansion(name)) return e->steps;
    if (name.find(" + ") == std::string_view::npos)
        if (const auto* e = find_expansion(first_alternative(name))) return e->steps;
    std::vector<ExpansionStep> out;
    while (!name.empty()) {
        auto plus = name.find(" + ");
        auto term = trim(name.substr(0, plus));
        name = plus == std::string_view::npos ? std::string_view{} : name.substr(plus + 3);
        auto [count, metal] = split_count(term);
        const auto* e = find_expansion(metal);
        if (!e) e = find_expansion(first_alternative(metal));
        if (!e) return std::nullopt;
        for (int i = 0; i < count; ++i) {
            for (std::size_t k = 0; k < e->steps.size(); ++k) {
                auto step = e->steps[k];
                if (k == 0) step.depends_on_previous = !out.empty();  // one chain
                out.push_back(step);
            }
        }
    }
    if (out.empty()) return std::nullopt;
    return out;
}

}  // namespace agx::isa
