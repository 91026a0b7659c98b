// The instruction table. Mnemonics follow applegpu (dougallj/applegpu); where
// applegpu uses one mnemonic for several widths the catalogue adds the width
// as a suffix ("fadd32", "rcp16", "exp2_32") because the widths are timed
// separately.
//
// Naming conventions:
//   <op>16 / <op>32    operand width of a width-suffixed operation
//   <op>16x32          16x16 -> 32-bit product (imul16x32, imadd16x32)
//   <op>32x64          32x32 -> 64-bit product (imul32x64, imadd32x64)
//   imulhi32           high 32 bits of a 32x32 product
//   bitop32            any 2-input bitwise truth table (BITWISE32)
//   bfeil / bfi / extr bit-field extract / insert / extract from a pair
//   shl / shr / asr    shifts (applegpu shlhi/shrhi/asrh are the 16-bit-high forms)
//   simd_shuffle_rotate  the rotate form (applegpu prints simd_shuffle_rotate_up)
//
// encoded_bytes is the typical length in applegpu's encodings, which are 2 to
// 12 bytes in steps of 2 (applegpu's docs, dougallj.github.io/applegpu): most
// ALU instructions have a short and a long form and the catalogue takes the
// form a compiler emits when registers above r31 or uniforms are used. The
// exact per-opcode figures are a reading of applegpu and are approximate; they
// only feed instruction-cache footprint.
#include <unordered_map>
#include <utility>

#include "isa/catalogue.hpp"

namespace agx::isa {

const char* unit_name(Unit u) {
    static constexpr const char* kNames[kUnitCount] = {
        "fp32_int", "int_complex", "shuffle", "load_store", "threadgroup", "control",
    };
    return kNames[unit_index(u)];
}

namespace {

OperandSpec dst(std::uint8_t w) {
    OperandSpec o;
    o.role = OperandRole::Dst;
    o.width_halves = w;
    o.allow_uniform = false;
    o.allow_immediate = false;
    return o;
}

// A source that takes a register, a uniform or an immediate.
OperandSpec src(std::uint8_t w) {
    OperandSpec o;
    o.width_halves = w;
    return o;
}

// A source that must be an immediate (wait slot, special-register number).
OperandSpec imm_only() {
    OperandSpec o;
    o.width_halves = 0;
    o.allow_uniform = false;
    o.allow_register = false;
    return o;
}

OperandSpec optional(OperandSpec o) {
    o.optional = true;
    return o;
}

// Memory data: 1-4 consecutive registers of any width.
OperandSpec data(OperandRole role) {
    OperandSpec o;
    o.role = role;
    o.width_halves = 0;
    o.vector = true;
    o.allow_uniform = false;
    o.allow_immediate = false;
    return o;
}

// Memory address operands are optional in traces: the addresses themselves
// come from the `addr=` attribute; writing the registers adds the register
// dependencies a real kernel has.
OperandSpec base64() {
    return optional(src(4));
}
// Threadgroup memory is addressed by a 32-bit byte base plus an index.
OperandSpec offset32() {
    return optional(src(2));
}
// Threadgroup addresses are 16 bits or 32 (Mesa's compiler keeps them in
// 16-bit registers, rNl): a base or offset of either width.
OperandSpec threadgroup_address() {
    OperandSpec o = optional(src(2));
    o.accepts_16 = true;
    return o;
}

InstructionInfo op(std::string_view m, Unit u, std::string_view tc, std::vector<OperandSpec> ops,
                   std::uint8_t bytes, std::string_view summary) {
    InstructionInfo i{};
    i.mnemonic = m;
    i.unit = u;
    i.timing_class = tc;
    i.operands = std::move(ops);
    i.encoded_bytes = bytes;
    i.summary = summary;
    return i;
}

InstructionInfo memory(InstructionInfo i, MemorySpace space, bool store, bool atomic) {
    i.memory = space;
    i.is_store = store;
    i.is_atomic = atomic;
    // Device accesses are asynchronous and name a wait slot; threadgroup
    // accesses complete in fixed time (applegpu's docs: no wait slot).
    i.is_async = space == MemorySpace::Device;
    return i;
}

// Two-source ALU shape: d = f(a, b).
std::vector<OperandSpec> bin(std::uint8_t d, std::uint8_t s) {
    return {dst(d), src(s), src(s)};
}
std::vector<OperandSpec> un(std::uint8_t d, std::uint8_t s) {
    return {dst(d), src(s)};
}
std::vector<OperandSpec> tri(std::uint8_t d, std::uint8_t a, std::uint8_t b, std::uint8_t c) {
    return {dst(d), src(a), src(b), src(c)};
}
// Compare-select: d = cmp(a, b) ? x : y. The 32-bit compare may select
// into a 16-bit destination (compilers write booleans so), so its
// destination and selected values take any width.
std::vector<OperandSpec> cmpsel(std::uint8_t w) {
    std::vector<OperandSpec> ops = {dst(w), src(w), src(w), src(w), src(w)};
    if (w == 2)
        for (std::size_t i : {0, 3, 4}) ops[i].accepts_16 = true;
    return ops;
}

constexpr auto F = Unit::Fp32Int;
constexpr auto X = Unit::IntComplex;
constexpr auto S = Unit::Shuffle;
constexpr auto L = Unit::LoadStore;
constexpr auto T = Unit::Threadgroup;
constexpr auto C = Unit::Control;

std::vector<InstructionInfo> build_catalogue() {
    std::vector<InstructionInfo> e;
    auto add = [&](InstructionInfo i) { e.push_back(std::move(i)); };

    // --- FP32/integer/conditional pipeline --------------------------------
    add(op("fadd16", F, "f16_arith", bin(1, 1), 4, "16-bit float add"));
    add(op("fmul16", F, "f16_arith", bin(1, 1), 4, "16-bit float multiply"));
    add(op("fmadd16", F, "f16_arith", tri(1, 1, 1, 1), 6, "16-bit float fused multiply-add"));
    add(op("fadd32", F, "f32_arith", bin(2, 2), 4, "32-bit float add"));
    add(op("fmul32", F, "f32_arith", bin(2, 2), 4, "32-bit float multiply"));
    add(op("fmadd32", F, "f32_arith", tri(2, 2, 2, 2), 6, "32-bit float fused multiply-add"));
    add(op("iadd16", F, "int_simple", bin(1, 1), 6,
           "16-bit integer add (optional shift left 1-4)"));
    add(op("iadd32", F, "int_simple", bin(2, 2), 6,
           "32-bit integer add (optional shift left 1-4)"));
    add(op("iaddsat32", F, "int_simple", bin(2, 2), 6, "32-bit saturating integer add"));
    add(op("bitop16", F, "int_simple", bin(1, 1), 6,
           "16-bit bitwise op (any 2-input truth table)"));
    add(op("bitop32", F, "int_simple", bin(2, 2), 6,
           "32-bit bitwise op (any 2-input truth table)"));
    add(op("fcmpsel16", F, "cmpsel16", cmpsel(1), 8, "16-bit float compare and select"));
    add(op("fcmpsel32", F, "cmpsel32", cmpsel(2), 8, "32-bit float compare and select"));
    add(op("icmpsel16", F, "cmpsel16", cmpsel(1), 8, "16-bit integer compare and select"));
    add(op("icmpsel32", F, "cmpsel32", cmpsel(2), 8, "32-bit integer compare and select"));
    // min/max are compare-selects in the ISA and measure like them.
    add(op("fmin16", F, "cmpsel16", bin(1, 1), 8, "16-bit float minimum (an fcmpsel16)"));
    add(op("fmax16", F, "cmpsel16", bin(1, 1), 8, "16-bit float maximum (an fcmpsel16)"));
    add(op("imin16", F, "cmpsel16", bin(1, 1), 8, "16-bit integer minimum (an icmpsel16)"));
    add(op("imax16", F, "cmpsel16", bin(1, 1), 8, "16-bit integer maximum (an icmpsel16)"));
    add(op("fmin32", F, "cmpsel32", bin(2, 2), 8, "32-bit float minimum (an fcmpsel32)"));
    add(op("fmax32", F, "cmpsel32", bin(2, 2), 8, "32-bit float maximum (an fcmpsel32)"));
    add(op("imin32", F, "cmpsel32", bin(2, 2), 8, "32-bit integer minimum (an icmpsel32)"));
    add(op("imax32", F, "cmpsel32", bin(2, 2), 8, "32-bit integer maximum (an icmpsel32)"));
    add(op("mov", F, "move", {dst(0), src(0)}, 4, "register move (any width)"));
    add(op("mov_imm", F, "move", {dst(0), imm_only()}, 6, "move a 16- or 32-bit immediate"));
    add(op("uniform_store", F, "move", {data(OperandRole::Src), imm_only()}, 8,
           "write a register to uniforms from half N (a compiled kernel's preamble)"));
    add(op("get_sr", F, "move", {dst(2), imm_only()}, 4,
           "read a special register (thread/simd/grid index), written srN"));

    // --- integer and complex-math pipeline (shared SFUs) ------------------
    add(op("imul16", X, "imul16", bin(1, 1), 8, "16-bit integer multiply"));
    add(op("imadd16", X, "imul16", tri(1, 1, 1, 1), 8, "16-bit integer multiply-add"));
    add(op("imul16x32", X, "imul16", bin(2, 1), 8, "16x16 -> 32-bit integer multiply"));
    add(op("imadd16x32", X, "imul16", tri(2, 1, 1, 2), 8, "16x16 + 32 -> 32-bit multiply-add"));
    add(op("imul32", X, "imad32", bin(2, 2), 8, "32-bit integer multiply (low half)"));
    add(op("imadd32", X, "imad32", tri(2, 2, 2, 2), 8, "32-bit integer multiply-add"));
    add(op("imul32x64", X, "imul_wide", bin(4, 2), 8, "32x32 -> 64-bit integer multiply"));
    // The fused 64-bit add costs no throughput but lengthens the latency
    // (int_sequences.csv IMAD((32x32=64)+64) vs IMUL(32x32=64)): a class of its own.
    add(op("imadd32x64", X, "imad_wide", tri(4, 2, 2, 4), 8, "32x32 + 64 -> 64-bit multiply-add"));
    add(op("imulhi32", X, "imul_wide", bin(2, 2), 8, "high 32 bits of a 32x32 multiply"));
    add(op("bfeil", X, "bitfield", tri(2, 2, 2, 2), 8, "bit-field extract (value, offset, count)"));
    add(op("bfi", X, "bitinsert", {dst(2), src(2), src(2), src(2), src(2)}, 8,
           "bit-field insert (base, insert, offset, count)"));
    add(op("extr", X, "bitfield", tri(2, 2, 2, 2), 8,
           "extract 32 bits from a register pair at a shift"));
    add(op("intl", X, "bitfield", bin(2, 1), 8, "interleave the bits of two 16-bit values"));
    add(op("bitrev", X, "bitcount", un(2, 2), 6, "reverse the 32 bits"));
    add(op("popcount", X, "bitcount", un(2, 2), 6, "count set bits"));
    add(op("ffs", X, "bitcount", un(2, 2), 6, "find first set bit"));
    add(op("clz", X, "bitcount", un(2, 2), 6,
           "count leading zeros (agxsim name; CLZ32 measures like popcount)"));
    add(op("shl", X, "shift", bin(2, 2), 8, "32-bit shift left"));
    add(op("shr", X, "shift", bin(2, 2), 8, "32-bit logical shift right"));
    add(op("asr", X, "shift", bin(2, 2), 8, "32-bit arithmetic shift right"));
    add(op("shlhi", X, "shift", bin(1, 1), 8, "shift left into the high 16 bits"));
    add(op("shrhi", X, "shift", bin(1, 1), 8, "shift right from the high 16 bits"));
    add(op("asrh", X, "shift", bin(1, 1), 8, "16-bit arithmetic shift right"));
    add(op("convert", X, "convert", un(2, 2), 6, "float <-> integer conversion"));
    add(op("rint", X, "convert", un(2, 2), 4, "round to nearest even (32-bit float)"));
    add(op("trunc", X, "convert", un(2, 2), 4, "round toward zero (32-bit float)"));
    add(op("floor", X, "convert", un(2, 2), 4, "round down (32-bit float)"));
    add(op("ceil", X, "convert", un(2, 2), 4, "round up (32-bit float)"));
    add(op("rcp16", X, "recip", un(1, 1), 4, "16-bit float reciprocal"));
    add(op("rcp32", X, "recip", un(2, 2), 4, "32-bit float reciprocal"));
    add(op("rsqrt16", X, "rsqrt", un(1, 1), 4, "16-bit float reciprocal square root"));
    add(op("rsqrt32", X, "rsqrt", un(2, 2), 4, "32-bit float reciprocal square root"));
    add(op("exp2_16", X, "exp_log16", un(1, 1), 4, "16-bit float base-2 exponential"));
    add(op("exp2_32", X, "exp_log", un(2, 2), 4, "32-bit float base-2 exponential"));
    add(op("log2_16", X, "exp_log16", un(1, 1), 4, "16-bit float base-2 logarithm"));
    add(op("log2_32", X, "exp_log", un(2, 2), 4, "32-bit float base-2 logarithm"));
    add(op("sin_pt_1", X, "sin_pt", un(2, 2), 4, "sine, first part (after range reduction)"));
    add(op("sin_pt_2", X, "sin_pt", un(2, 2), 4, "sine, second part"));

    // --- SIMD shuffle / ballot unit ---------------------------------------
    // Shuffles read a 32-bit value and a 16-bit lane index / delta.
    add(op("simd_shuffle", S, "simd_shuffle", bin(2, 2), 8, "read a value from a lane by index"));
    add(op("simd_shuffle_down", S, "simd_shuffle", bin(2, 2), 8, "read from lane + delta"));
    add(op("simd_shuffle_up", S, "simd_shuffle", bin(2, 2), 8, "read from lane - delta"));
    add(op("simd_shuffle_xor", S, "simd_shuffle", bin(2, 2), 8, "read from lane ^ mask"));
    add(op("simd_shuffle_rotate", S, "simd_shuffle", bin(2, 2), 8,
           "read from (lane + delta) mod 32 (applegpu's simd_shuffle_rotate_up by 32 - delta)"));
    add(op("simd_broadcast", S, "simd_shuffle", bin(2, 2), 8, "broadcast one lane's value"));
    // Quad forms move data only within 4 lanes: a timing class of their own
    // (quad_instructions.csv: a cycle less latency than the SIMD forms).
    add(op("quad_shuffle", S, "quad_shuffle", bin(2, 2), 8,
           "read a value from a lane of the quad"));
    add(op("quad_broadcast", S, "quad_shuffle", bin(2, 2), 8, "broadcast within each quad"));
    // Exclusive prefix within each quad, the operation done in the shuffle
    // unit: quad_instructions.csv measures QUAD_PREFIX_ESUM at one shuffle's
    // throughput (2.03), so it is one instruction; the Asahi compiler knows
    // the SIMD-wide form as one instruction too (simd_prefix_iadd).
    add(op("quad_prefix_fadd32", S, "quad_prefix", un(2, 2), 6,
           "exclusive prefix sum within each quad, 32-bit float (lowest active lane first)"));
    add(op("quad_prefix_fmul32", S, "quad_prefix", un(2, 2), 6,
           "exclusive prefix product within each quad, 32-bit float"));
    add(op("quad_prefix_iadd32", S, "quad_prefix_int", un(2, 2), 6,
           "exclusive prefix sum within each quad, 32-bit integer"));
    add(op("quad_prefix_ixor32", S, "quad_prefix_int", un(2, 2), 6,
           "exclusive prefix xor within each quad, 32 bits"));
    // The SIMD-wide exclusive scans are instructions too: the Asahi compiler
    // (Mesa src/asahi/compiler/agx_nir_lower_subgroups.c) keeps exclusive
    // scans of fadd, fmul, iadd and the bitwise ops for the hardware, builds
    // an inclusive scan as the exclusive one and the lane's own value, and
    // has no hardware scan for imul.
    add(op("simd_prefix_fadd32", S, "simd_prefix", un(2, 2), 6,
           "exclusive prefix sum across the simd, 32-bit float (lowest active lane first)"));
    add(op("simd_prefix_fmul32", S, "simd_prefix", un(2, 2), 6,
           "exclusive prefix product across the simd, 32-bit float"));
    add(op("simd_prefix_iadd32", S, "simd_prefix", un(2, 2), 6,
           "exclusive prefix sum across the simd, 32-bit integer"));
    add(op("simd_prefix_ixor32", S, "simd_prefix", un(2, 2), 6,
           "exclusive prefix xor across the simd, 32 bits"));
    // Reductions are single instructions as well (Mesa's
    // src/asahi/compiler/agx_opcodes.py encodes simd_iadd beside
    // simd_prefix_iadd, and agx_performance.c times it as one operation,
    // longer than the scan). Their cost depends on the operation: a class
    // per window and kind of operation (float, integer add, bitwise).
    add(op("quad_reduce_fadd32", S, "quad_reduce_float", un(2, 2), 6,
           "sum within each quad, 32-bit float, to every lane of the quad"));
    add(op("quad_reduce_fmul32", S, "quad_reduce_float", un(2, 2), 6,
           "product within each quad, 32-bit float"));
    add(op("quad_reduce_iadd32", S, "quad_reduce_iadd", un(2, 2), 6,
           "sum within each quad, 32-bit integer"));
    add(op("quad_reduce_ixor32", S, "quad_reduce_bitwise", un(2, 2), 6,
           "xor within each quad, 32 bits"));
    add(op("simd_reduce_fadd32", S, "simd_reduce_float", un(2, 2), 6,
           "sum across the simd, 32-bit float, to every lane"));
    add(op("simd_reduce_fmul32", S, "simd_reduce_float", un(2, 2), 6,
           "product across the simd, 32-bit float"));
    add(op("simd_reduce_iadd32", S, "simd_reduce_iadd", un(2, 2), 6,
           "sum across the simd, 32-bit integer"));
    add(op("simd_reduce_ixor32", S, "simd_reduce_bitwise", un(2, 2), 6,
           "xor across the simd, 32 bits"));
    // Min, max, and, or: Mesa's compiler emits them for subgroup reductions
    // (applegpu: simd_max.f, simd_min.u, simd_and, ...). metal-benchmarks
    // measures only the sum, product and xor forms, so each takes the class
    // of its kind: float (fadd's), integer (iadd's), bitwise (xor's).
    add(op("quad_reduce_fmax32", S, "quad_reduce_float", un(2, 2), 6,
           "maximum (IEEE maxNum), 32-bit float within each quad, to every lane of the quad"));
    add(op("simd_reduce_fmax32", S, "simd_reduce_float", un(2, 2), 6,
           "maximum (IEEE maxNum), 32-bit float across the simd, to every lane"));
    add(op("quad_reduce_fmin32", S, "quad_reduce_float", un(2, 2), 6,
           "minimum (IEEE minNum), 32-bit float within each quad, to every lane of the quad"));
    add(op("simd_reduce_fmin32", S, "simd_reduce_float", un(2, 2), 6,
           "minimum (IEEE minNum), 32-bit float across the simd, to every lane"));
    add(op("quad_reduce_smax32", S, "quad_reduce_iadd", un(2, 2), 6,
           "maximum, 32-bit signed integer within each quad, to every lane of the quad"));
    add(op("simd_reduce_smax32", S, "simd_reduce_iadd", un(2, 2), 6,
           "maximum, 32-bit signed integer across the simd, to every lane"));
    add(op("quad_reduce_smin32", S, "quad_reduce_iadd", un(2, 2), 6,
           "minimum, 32-bit signed integer within each quad, to every lane of the quad"));
    add(op("simd_reduce_smin32", S, "simd_reduce_iadd", un(2, 2), 6,
           "minimum, 32-bit signed integer across the simd, to every lane"));
    add(op("quad_reduce_umax32", S, "quad_reduce_iadd", un(2, 2), 6,
           "maximum, 32-bit unsigned integer within each quad, to every lane of the quad"));
    add(op("simd_reduce_umax32", S, "simd_reduce_iadd", un(2, 2), 6,
           "maximum, 32-bit unsigned integer across the simd, to every lane"));
    add(op("quad_reduce_umin32", S, "quad_reduce_iadd", un(2, 2), 6,
           "minimum, 32-bit unsigned integer within each quad, to every lane of the quad"));
    add(op("simd_reduce_umin32", S, "simd_reduce_iadd", un(2, 2), 6,
           "minimum, 32-bit unsigned integer across the simd, to every lane"));
    add(op("quad_reduce_iand32", S, "quad_reduce_bitwise", un(2, 2), 6,
           "and, 32 bits within each quad, to every lane of the quad"));
    add(op("simd_reduce_iand32", S, "simd_reduce_bitwise", un(2, 2), 6,
           "and, 32 bits across the simd, to every lane"));
    add(op("quad_reduce_ior32", S, "quad_reduce_bitwise", un(2, 2), 6,
           "or, 32 bits within each quad, to every lane of the quad"));
    add(op("simd_reduce_ior32", S, "simd_reduce_bitwise", un(2, 2), 6,
           "or, 32 bits across the simd, to every lane"));
    // The 16-bit forms are instructions of their own (AGX instructions take
    // 16-bit registers; Mesa's filter lowers only 64-bit subgroup operations).
    // Their issue cost is not the 32-bit form's (quad_instructions.csv: the
    // 16-bit float and integer-add quad reductions take 9 cycles against 6-7,
    // the bitwise one 6.25 against 6.78), so they have classes of their own.
    add(op("quad_reduce_fadd16", S, "quad_reduce_float16", un(1, 1), 6,
           "sum within each quad, 16-bit float, to every lane of the quad"));
    add(op("quad_reduce_fmul16", S, "quad_reduce_float16", un(1, 1), 6,
           "product within each quad, 16-bit float"));
    add(op("quad_reduce_iadd16", S, "quad_reduce_iadd16", un(1, 1), 6,
           "sum within each quad, 16-bit integer"));
    add(op("quad_reduce_ixor16", S, "quad_reduce_bitwise16", un(1, 1), 6,
           "xor within each quad, 16 bits"));
    add(op("simd_reduce_fadd16", S, "simd_reduce_float16", un(1, 1), 6,
           "sum across the simd, 16-bit float, to every lane"));
    add(op("simd_reduce_fmul16", S, "simd_reduce_float16", un(1, 1), 6,
           "product across the simd, 16-bit float"));
    add(op("simd_reduce_iadd16", S, "simd_reduce_iadd", un(1, 1), 6,
           "sum across the simd, 16-bit integer"));
    add(op("simd_reduce_ixor16", S, "simd_reduce_bitwise16", un(1, 1), 6,
           "xor across the simd, 16 bits"));
    add(op("simd_ballot", S, "simd_ballot", un(2, 2), 6, "mask of lanes whose value is non-zero"));
    add(op("icmp_ballot", S, "simd_cmp_ballot", bin(2, 2), 8,
           "mask of lanes where an integer compare holds"));
    add(op("fcmp_ballot", S, "simd_cmp_ballot", bin(2, 2), 8,
           "mask of lanes where a float compare holds"));
    add(op("quad_ballot", S, "simd_ballot", un(2, 2), 6, "ballot within each quad"));
    // An 8x8 matrix spreads over the 32 lanes as 2 elements per lane: a
    // 16-bit matrix is one 32-bit register, a 32-bit matrix a register pair.
    add(op("simd_matrix_fmadd16", S, "simd_matrix", tri(2, 2, 2, 2), 8,
           "8x8 16-bit matrix multiply-accumulate across the simd"));
    add(op("simd_matrix_fmadd32", S, "simd_matrix", tri(4, 4, 4, 4), 8,
           "8x8 32-bit matrix multiply-accumulate across the simd"));

    // --- device memory (asynchronous, wait slots) -------------------------
    add(memory(op("device_load", L, "device_load", {data(OperandRole::Dst), base64(), offset32()},
                  8, "load 1-4 registers per lane from device memory"),
               MemorySpace::Device, false, false));
    add(memory(op("device_store", L, "device_store", {data(OperandRole::Src), base64(), offset32()},
                  8, "store 1-4 registers per lane to device memory"),
               MemorySpace::Device, true, false));
    // The atomic's data is one 32-bit register, or a pair (compare, new) for
    // a compare-and-exchange.
    add(memory(op("atomic", L, "device_atomic", {dst(2), src(0), base64(), offset32()}, 8,
                  "32-bit atomic read-modify-write on device memory"),
               MemorySpace::Device, false, true));
    // Stack spills are device-memory accesses through the same path.
    add(memory(op("stack_load", L, "device_load", {data(OperandRole::Dst), offset32()}, 8,
                  "load from the thread's stack (spills)"),
               MemorySpace::Device, false, false));
    add(memory(op("stack_store", L, "device_store", {data(OperandRole::Src), offset32()}, 8,
                  "store to the thread's stack (spills)"),
               MemorySpace::Device, true, false));

    // --- threadgroup memory (fixed latency, no wait slot) ------------------
    add(memory(op("threadgroup_load", T, "threadgroup_load",
                  {data(OperandRole::Dst), threadgroup_address(), threadgroup_address()}, 8,
                  "load 1-4 registers per lane from threadgroup memory"),
               MemorySpace::Threadgroup, false, false));
    add(memory(op("threadgroup_store", T, "threadgroup_store",
                  {data(OperandRole::Src), threadgroup_address(), threadgroup_address()}, 8,
                  "store 1-4 registers per lane to threadgroup memory"),
               MemorySpace::Threadgroup, true, false));
    add(memory(op("threadgroup_atomic", T, "threadgroup_atomic",
                  {dst(2), src(0), threadgroup_address(), threadgroup_address()}, 8,
                  "32-bit atomic read-modify-write on threadgroup memory"),
               MemorySpace::Threadgroup, false, true));

    // --- control: handled by the scheduler --------------------------------
    {
        auto w =
            op("wait", C, "wait", {imm_only()}, 2, "block until a wait slot's requests complete");
        w.is_wait = true;
        add(w);
        auto b = op("threadgroup_barrier", C, "barrier", {}, 2,
                    "wait for every simd of the threadgroup");
        b.is_barrier = true;
        add(b);
    }
    add(op("memory_barrier", C, "barrier", {}, 2,
           "order memory accesses (no simd synchronisation)"));
    // A trace is the dynamic stream, so its branch targets are optional; a
    // kernel (traces/KERNEL.md) names a label, which becomes the target's pc.
    add(op("jmp_exec_any", C, "branch", {optional(imm_only())}, 6, "jump if any lane is active"));
    add(op("jmp_exec_none", C, "branch", {optional(imm_only())}, 6, "jump if no lane is active"));
    add(op("call", C, "branch", {optional(src(2))}, 6, "call a function"));
    add(op("ret", C, "branch", {optional(src(2))}, 2, "return from a function"));
    // The execution-mask stack ops are written in a simplified form: the
    // compare operands only. r0l, the stack counter, is implicit; a kernel
    // gives the condition and the level count as attributes (cc=, n=).
    add(op("if_icmp", C, "branch", {src(0), src(0)}, 6,
           "push the exec mask, keep lanes passing an integer compare"));
    add(op("if_fcmp", C, "branch", {src(0), src(0)}, 6,
           "push the exec mask, keep lanes passing a float compare"));
    add(op("else_icmp", C, "branch", {src(0), src(0)}, 6, "invert the innermost exec mask level"));
    add(op("else_fcmp", C, "branch", {src(0), src(0)}, 6, "invert the innermost exec mask level"));
    add(op("while_icmp", C, "branch", {src(0), src(0)}, 6,
           "loop exec-mask update (integer compare)"));
    add(op("while_fcmp", C, "branch", {src(0), src(0)}, 6,
           "loop exec-mask update (float compare)"));
    add(op("pop_exec", C, "branch", {optional(imm_only())}, 6, "pop exec-mask stack levels"));
    add(op("stop", C, "branch", {}, 2, "end of the program"));

    const std::pair<std::string_view, std::uint8_t> flops[] = {{"fadd16", 1},
                                                               {"fmul16", 1},
                                                               {"fmadd16", 2},
                                                               {"fadd32", 1},
                                                               {"fmul32", 1},
                                                               {"fmadd32", 2},
                                                               {"simd_matrix_fmadd16", 32},
                                                               {"simd_matrix_fmadd32", 32}};
    for (const auto& [mnemonic, n] : flops)
        for (InstructionInfo& i : e)
            if (i.mnemonic == mnemonic) {
                i.flops_per_lane = n;
                i.flops_fp16 = mnemonic.substr(mnemonic.size() - 2) == "16";
            }
    return e;
}

}  // namespace

Catalogue::Catalogue() : entries_(build_catalogue()) {}

const Catalogue& Catalogue::instance() {
    static const Catalogue c;
    return c;
}

std::optional<Opcode> Catalogue::find(std::string_view mnemonic) const {
    // Built once, on first use; the table is immutable afterwards.
    static const std::unordered_map<std::string_view, Opcode> index = [this] {
        std::unordered_map<std::string_view, Opcode> m;
        for (std::size_t i = 0; i < entries_.size(); ++i)
            m.emplace(entries_[i].mnemonic, static_cast<Opcode>(i));
        return m;
    }();
    auto it = index.find(mnemonic);
    if (it == index.end()) return std::nullopt;
    return it->second;
}

std::vector<std::string_view> Catalogue::timing_classes() const {
    std::vector<std::string_view> out;
    for (const auto& e : entries_) {
        bool seen = false;
        for (auto c : out) seen = seen || c == e.timing_class;
        if (!seen) out.push_back(e.timing_class);
    }
    return out;
}

}  // namespace agx::isa
