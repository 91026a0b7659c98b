// The table of AGX (G13) instruction forms read by agx_decode.cpp.
//
// Every encoding fact here is applegpu's (dougallj/applegpu: the instruction
// descriptors of applegpu.py, documented in its docs.html): the opcode bits,
// the short/long lengths, where each operand's fields lie and how the
// disassembler spells them. The forms are listed in applegpu's order, which
// is the order its disassembler tries them: where two forms overlap (a
// specific one and a generic `...op`/`.TODO` fallback) the first wins.
// Mesa's Asahi compiler gives the same opcode bits and lengths for the forms
// it emits (src/asahi/compiler/agx_opcodes.py: fadd 0x2a 4/6 bytes, ffma 0x3a
// 6/8, icmpsel 0x12 8/10, device_load 0x05 6/8, wait 0x38, stop 0x88, ...).
#include <cstddef>

#include "isa/agx_decode.hpp"

namespace agx::isa::encoding {

namespace {

using K = OperandKind;

// ---- fields --------------------------------------------------------------------

Field bits(std::uint8_t s, std::uint8_t n) {
    Field f;
    f.parts[0] = {s, n};
    return f;
}
Field bits(std::uint8_t s0, std::uint8_t n0, std::uint8_t s1, std::uint8_t n1) {
    Field f = bits(s0, n0);
    f.parts[1] = {s1, n1};
    return f;
}
Field bits(std::uint8_t s0, std::uint8_t n0, std::uint8_t s1, std::uint8_t n1, std::uint8_t s2,
           std::uint8_t n2) {
    Field f = bits(s0, n0, s1, n1);
    f.parts[2] = {s2, n2};
    return f;
}
// A register number: six bits, and two more elsewhere (the "x" extension).
Field reg(std::uint8_t at, std::uint8_t ext) {
    return bits(at, 6, ext, 2);
}

OperandSpec op(K kind, Field value, Field type = {}, Field modifier = {}, Field dep = {},
               Field dep2 = {}, std::uint8_t options = 0) {
    OperandSpec o{kind, value, type, modifier, dep, dep2};
    o.options = options;
    return o;
}

// ---- name tables (applegpu's spellings) --------------------------------------------

// Memory formats of loads and stores (docs.html, "device_load").
const char* const kFormats[] = {
    "i8",      "i16",   "i32",    "f16",   "u8norm",   "s8norm", "u16norm",      "s16norm",
    "rgb10a2", nullptr, "srgba8", nullptr, "rg11b10f", "rgb9e5", "rg11b10f.rtz", "rgb9e5.rtz"};
const char* const kConvertModes[] = {"u8_to_f",  "s8_to_f",  nullptr,    nullptr,
                                     "f_to_u16", "f_to_s16", "u16_to_f", "s16_to_f",
                                     "f_to_u32", "f_to_s32", "u32_to_f", "s32_to_f"};
const char* const kRoundZeroFirst[] = {"rtz", "rte"};  // convert
const char* const kRoundEvenFirst[] = {"rte", "rtz"};  // image writes
const char* const kSignedness[] = {"signed", "unsigned"};
const char* const kAsyncCopies[] = {"copy_1d", "copy_2d"};
const char* const kAtomicOps[] = {"add",  "sub",  "xchg", "cmpxchg", "umin", "imin",
                                  "umax", "imax", "and",  "or",      "xor"};
const char* const kTextureTypes[] = {"tex_1d",       "tex_1d_array",   "tex_2d",
                                     "tex_2d_array", "tex_2d_ms",      "tex_3d",
                                     "tex_cube",     "tex_cube_array", "tex_2d_ms_array"};
const char* const kSampleModes[] = {"", nullptr, "query_lod"};
const char* const kGathers[] = {"none",     "compare",  "gather_r", "gather_depth", nullptr,
                                nullptr,    "gather_g", nullptr,    nullptr,        nullptr,
                                "gather_b", nullptr,    nullptr,    nullptr,        "gather_a"};
const char* const kLodModes[] = {
    "auto_lod", "auto_lod_bias", "lod_min", nullptr, "lod_grad", "auto_lod_bias", "lod_min",
    nullptr,    nullptr,         nullptr,   nullptr, nullptr,    "lod_grad_min"};
const char* const kInterpolations[] = {"center", "sample", "centroid", "sample"};
const char* const kForwarding[] = {"", "forward"};
const char* const kElide[] = {"", "elide"};
const char* const kMapOps[] = {"unmap", "map"};
const char* const kMapTargets[] = {"target0", "target1"};

template <std::size_t N>
OperandSpec named(Field value, const char* const (&names)[N]) {
    OperandSpec o = op(K::Names, value);
    o.names = names;
    o.name_count = static_cast<std::uint8_t>(N);
    return o;
}

// ---- operands ------------------------------------------------------------------

// ALU destination: number at 9 (+2 bits at `ext`), type at 7 (bit 0 cache, bit 1 32-bit).
OperandSpec dst(std::uint8_t ext, std::uint8_t options = 0) {
    return op(K::Dst, reg(9, ext), bits(7, 2), {}, {}, {}, options);
}
// ALU source at `at` (+2 bits at `ext`): a type of `type_bits` after the number;
// .sx after that; .abs/.neg (float sources) after the type unless placed elsewhere.
OperandSpec src(std::uint8_t at, std::uint8_t ext, std::uint8_t options = 0,
                std::uint8_t type_bits = 4, int modifier_at = -1) {
    const auto type_at = static_cast<std::uint8_t>(at + 6);
    Field modifier;
    if (options & kSignExtend) modifier = bits(static_cast<std::uint8_t>(at + 10), 1);
    if (options & kFloat)
        modifier = bits(
            static_cast<std::uint8_t>(modifier_at >= 0 ? modifier_at : type_at + type_bits), 2);
    return op(K::Src, reg(at, ext), bits(type_at, type_bits), modifier, {}, {}, options);
}
OperandSpec fsrc(std::uint8_t at, std::uint8_t ext) {
    return src(at, ext, kFloat);
}
OperandSpec fsrc16(std::uint8_t at, std::uint8_t ext) {
    return src(at, ext, kFloat, 3);
}
OperandSpec mul_src(std::uint8_t at, std::uint8_t ext) {
    return src(at, ext, kSignExtend);
}
OperandSpec add_src(std::uint8_t at, std::uint8_t ext) {
    return src(at, ext, kSignExtend | kAllow64);
}
// Select source: a 3-bit type, sized by the destination's type (bits 7-8).
OperandSpec cmpsel(std::uint8_t at, std::uint8_t ext) {
    return op(K::CmpselSrc, reg(at, ext), bits(static_cast<std::uint8_t>(at + 6), 3), {},
              bits(7, 2));
}
OperandSpec r0l() {
    return op(K::ImplicitR0l, {}, bits(7, 1));
}
OperandSpec imm(std::uint8_t s, std::uint8_t n) {
    return op(K::Immediate, bits(s, n));
}
OperandSpec binary(std::uint8_t s, std::uint8_t n) {
    return op(K::Binary, bits(s, n));
}
OperandSpec components(std::uint8_t s, const char* zero_text = "") {
    OperandSpec o = op(K::Components, bits(s, 4));
    o.zero_text = zero_text;
    return o;
}
// Comparison: 3 bits, and an inverting bit unless `negate_at` < 0.
OperandSpec condition(K kind, std::uint8_t at, int negate_at) {
    return op(kind,
              negate_at < 0 ? bits(at, 3) : bits(at, 3, static_cast<std::uint8_t>(negate_at), 1));
}
OperandSpec branch(std::uint8_t s, std::uint8_t n) {
    return op(K::BranchTarget, bits(s, n));
}
// The 16-bit number split over bits 20, 32 and 56 (memory indices, stack adjustments).
Field split16() {
    return bits(20, 4, 32, 4, 56, 8);
}
OperandSpec memory_index() {
    return op(K::MemoryIndex, split16(), bits(24, 1));
}
OperandSpec memory_base() {
    return op(K::MemoryBase, bits(16, 4, 36, 4), bits(27, 1));
}
// Device/stack data registers, one per set bit of the mask at 52.
OperandSpec memory_data() {
    return op(K::MemoryData, reg(10, 40), bits(49, 1), {}, bits(52, 4));
}
// Threadgroup data registers, one per set bit of the mask at 36.
OperandSpec threadgroup_data() {
    return op(K::ThreadgroupData, reg(9, 60), bits(8, 1), {}, bits(36, 4));
}
OperandSpec threadgroup_base() {
    return op(K::ThreadgroupBase, reg(16, 58), bits(22, 2));
}
OperandSpec threadgroup_index() {
    return op(K::ThreadgroupIndex, bits(28, 6, 48, 10), bits(34, 1));
}
OperandSpec special_reg() {
    return op(K::SpecialReg, reg(16, 26));
}
OperandSpec var_data(std::uint8_t options) {
    return op(K::VaryingData, reg(9, 56), bits(8, 1), bits(30, 2), {}, {}, options);
}
OperandSpec coefficient_or_reg() {
    return op(K::CoefficientOrReg, reg(16, 58), bits(23, 1));
}
// Texture operations: the texture type is at 40 (+1 bit at `type_ext`).
Field texture_type(std::uint8_t type_ext) {
    return bits(40, 3, type_ext, 1);
}
OperandSpec coords(std::uint8_t ext, std::uint8_t type_ext) {
    return op(K::TexCoords, reg(16, ext), bits(22, 1), bits(47, 1), texture_type(type_ext));
}
OperandSpec texture(std::uint8_t ext) {
    return op(K::Texture, reg(32, ext), bits(38, 2));
}
OperandSpec pbe_lod() {
    return op(K::Reg16OrImm, reg(24, 60), bits(31, 1));
}
OperandSpec atomic_source(std::uint8_t at, std::uint8_t op_at) {
    return op(K::AtomicSource, bits(at, 8), {}, {}, bits(op_at, 4));
}

// ---- forms ---------------------------------------------------------------------

struct Naming {
    std::int8_t saturate_bit = -1;
    std::int8_t alternate_bit = -1;
    const char* alternate = nullptr;
    Alias alias = Alias::None;
};
const Naming kSat{6};

InstructionForm form(const char* name, std::uint8_t short_length, std::uint8_t long_length,
                     std::vector<Constant> constants, std::vector<OperandSpec> operands,
                     Naming naming = {}, std::uint8_t length_bit = 15) {
    InstructionForm f{name,       short_length,         long_length,
                      length_bit, std::move(constants), std::move(operands)};
    f.saturate_bit = naming.saturate_bit;
    f.alternate_bit = naming.alternate_bit;
    f.alternate = naming.alternate;
    f.alias = naming.alias;
    return f;
}
InstructionForm form(const char* name, std::uint8_t length, std::vector<Constant> constants,
                     std::vector<OperandSpec> operands, Naming naming = {}) {
    return form(name, length, length, std::move(constants), std::move(operands), naming);
}

// Bitfield and shift operations (opcode 0x2e), told apart by bits 15 and 26-27.
InstructionForm bitfield(const char* name, std::uint64_t b15, std::uint64_t b26, bool three) {
    std::vector<OperandSpec> ops{dst(60), src(16, 58), src(28, 56)};
    if (three) {
        ops.push_back(src(40, 54));
        ops.push_back(op(K::BitfieldMask, bits(38, 2, 50, 2, 63, 1)));
    }
    return form(name, 8, {{0, 7, 0x2e}, {15, 1, b15}, {26, 2, b26}}, ops);
}
// Integer unary/binary operations (opcode 0x3e), told apart by bits 26-27 and 38-39.
InstructionForm int_unary(const char* name, std::uint64_t b26) {
    return form(name, 6, {{0, 7, 0x3e}, {15, 1, 0}, {28, 10, 0}, {38, 2, 0}, {26, 2, b26}},
                {dst(44), src(16, 42)});
}
// Float unary operations (opcode 0x0a), told apart by bits 28-33.
InstructionForm float_unary(const char* name, std::uint64_t op28) {
    return form(name, 4, 6, {{0, 6, 0x0a}, {34, 8, 0}, {28, 6, op28}}, {dst(44), fsrc(16, 42)},
                kSat);
}
// Execution-mask compares (opcode 0x52 integer, 0x42 float), the operation at bits 9-10.
InstructionForm icmp_mask(const char* name, std::uint64_t op9) {
    return form(name, 6, {{0, 7, 0x52}, {9, 2, op9}, {26, 2, 0}, {38, 2, 0}, {44, 2, 0}},
                {r0l(), condition(K::ICondition, 13, 8), src(16, 42), src(28, 40), imm(11, 2)});
}
InstructionForm fcmp_mask(const char* name, std::uint64_t op9, Naming naming = {}) {
    return form(name, 6, {{0, 7, 0x42}, {9, 2, op9}, {44, 2, 0}},
                {r0l(), condition(K::FCondition, 13, 8), fsrc(16, 42), fsrc(28, 40), imm(11, 2)},
                naming);
}
// Ballots: 0x32 integer, 0x22 float; bits 48-60 are 1 for the SIMD-group, 0 for the quad.
InstructionForm ballot(const char* name, bool is_float, std::uint64_t whole_simd) {
    if (is_float)
        return form(name, 8, {{0, 7, 0x22}, {48, 13, whole_simd}},
                    {dst(44), condition(K::FCondition, 61, 47), fsrc(16, 42), fsrc(28, 40)});
    return form(name, 8, {{0, 7, 0x32}, {26, 2, 0}, {38, 2, 0}, {48, 13, whole_simd}},
                {dst(44), condition(K::ICondition, 61, 47), src(16, 42), src(28, 40)});
}
// SIMD-group shuffles (opcode 0x6f, bit 15 clear): bit 47, bits 38-39, bits 26-27.
InstructionForm shuffle(const char* name, std::uint64_t b47, std::uint64_t b38, std::uint64_t b26) {
    const bool quad = b26 == 0;  // the quad shuffles take 64-bit sources
    return form(name, 6, {{0, 7, 0x6f}, {15, 1, 0}, {47, 1, b47}, {38, 2, b38}, {26, 2, b26}},
                {dst(44), quad ? src(16, 42, kAllow64) : src(16, 42),
                 quad ? src(28, 40, kAllow64) : src(28, 40, kOnly16)});
}
InstructionForm matrix(const char* name, std::uint64_t is32) {
    return form(name, 8, {{0, 7, 0x6f}, {15, 1, 0}, {27, 1, 1}, {26, 1, is32}, {63, 1, 1}},
                {dst(60, kPaired), src(16, 58, kFloat | kPaired, 4, 52),
                 src(28, 56, kFloat | kPaired), src(40, 54, kFloat | kPaired)});
}
// SIMD-group and quad reductions and scans (opcode 0x6f, bit 15 set): bit 47, bits 26-41.
InstructionForm reduction(const char* name, std::uint64_t b47, std::uint64_t op26) {
    return form(name, 6, {{0, 7, 0x6f}, {15, 1, 1}, {47, 1, b47}, {26, 16, op26}},
                {dst(44), src(16, 42, kAllow64)});
}
// Device loads and stores (opcode 0x05 / 0x45; the length bit is 47).
std::vector<OperandSpec> device_operands() {
    return {imm(30, 1),
            named(bits(7, 3, 48, 1), kFormats),
            components(52),
            memory_data(),
            memory_base(),
            memory_index(),
            named(bits(25, 1), kSignedness),
            op(K::Shift, bits(42, 2))};
}
InstructionForm device(const char* name, std::vector<Constant> constants,
                       std::vector<OperandSpec> extra) {
    std::vector<OperandSpec> ops = device_operands();
    ops.insert(ops.end(), extra.begin(), extra.end());
    return form(name, 6, 8, std::move(constants), std::move(ops), {}, 47);
}
// Stack loads and stores (0x35 / 0xb5; the length bit is 47).
InstructionForm stack(const char* name, bool store) {
    std::vector<OperandSpec> ops{named(bits(8, 2, 50, 2), kFormats), imm(26, 1), imm(36, 3),
                                 components(52), imm(44, 3)};
    ops.insert(store ? ops.end() : ops.begin(), memory_data());
    ops.push_back(memory_index());
    ops.push_back(imm(30, 1));
    return form(name, 6, 8, {{0, 8, store ? 0xb5u : 0x35u}}, ops, {}, 47);
}
// Stack-pointer forms (0x35 / 0xb5 with bits 16-19 = 1), after the loads and
// stores, which match first (applegpu lists them in this order).
std::vector<OperandSpec> stack_unknowns(bool i4_first) {
    if (i4_first) return {imm(8, 2), imm(26, 1), imm(36, 3), imm(50, 6), imm(44, 3)};
    return {imm(8, 2), imm(26, 1), imm(36, 3), imm(44, 3), imm(50, 6)};
}
InstructionForm with(InstructionForm f, OperandSpec last) {
    f.operands.push_back(last);
    return f;
}
InstructionForm texture_op(const char* name, std::uint64_t opcode) {
    return form(name, 8, 12, {{0, 8, opcode}},
                {imm(23, 1), named(bits(30, 2), kSampleModes), binary(43, 4), binary(63, 1),
                 named(bits(86, 5), kGathers), components(48, "0"), binary(69, 2),
                 op(K::MemoryData, reg(9, 72), bits(8, 1), {}, bits(48, 4)),
                 op(K::TexUniform, bits(64, 5), {}, {}, bits(38, 2)), texture(78),
                 op(K::Sampler, reg(56, 92), bits(62, 1)), named(texture_type(71), kTextureTypes),
                 coords(74, 71), named(bits(52, 4), kLodModes),
                 op(K::TexLod, reg(24, 76), {}, {}, bits(52, 4), texture_type(71)),
                 op(K::TexCompareOffset, reg(80, 94), bits(91, 1), {}, bits(23, 1))});
}
InstructionForm varying(const char* name, bool projected) {
    std::vector<OperandSpec> ops{var_data(0), coefficient_or_reg()};
    if (projected) ops.push_back(op(K::Coefficient, reg(24, 60)));
    std::vector<OperandSpec> rest{op(K::SampleIndex, bits(32, 8), {}, {}, bits(48, 2)),
                                  named(bits(22, 1), kForwarding),
                                  named(bits(46, 1), kElide),
                                  named(bits(48, 2), kInterpolations),
                                  binary(52, 1),
                                  imm(40, 6),
                                  imm(47, 1),
                                  imm(50, 2),
                                  imm(53, 3),
                                  imm(62, 2)};
    ops.insert(ops.end(), rest.begin(), rest.end());
    return form(name, 4, 8, {{0, 6, 0x21}, {6, 1, projected ? 1u : 0u}, {7, 1, 0}}, ops);
}
InstructionForm varying_store(const char* name, std::uint64_t opcode) {
    return form(name, 4, {{0, 10, opcode}, {22, 1, 0}},
                {imm(31, 1), op(K::Reg32, bits(10, 5, 24, 2)),
                 op(K::Reg16OrImm, reg(16, 26), bits(23, 1))});
}

std::vector<InstructionForm> build_forms() {
    const OperandSpec split_signed = op(K::SignedImmediate, split16());
    const OperandSpec image_type = named(texture_type(55), kTextureTypes);
    return {
        // Moves (docs.html "Move Instructions"). Bit 8, inside the destination's
        // type, tells the 16-bit immediate from the 32-bit one.
        form("mov_imm", 4, 6, {{0, 7, 0x62}, {8, 1, 0}}, {dst(44), imm(16, 16)}),
        form("mov_imm", 6, 8, {{0, 7, 0x62}, {8, 1, 1}}, {dst(60), imm(16, 32), binary(62, 1)}),
        form("get_sr", 4, {{0, 7, 0x72}, {15, 1, 0}}, {dst(28), special_reg()}),

        // Integer arithmetic: bit 27 negates the addend, bit 6 saturates.
        form(
            "iadd", 8, {{0, 6, 0x0e}, {15, 1, 0}},
            {dst(44, kAllow64), add_src(16, 42), add_src(28, 40), op(K::Shift, bits(39, 1, 52, 2))},
            {6, 27, "isub"}),
        form("imadd", 8, {{0, 6, 0x1e}, {15, 1, 0}},
             {dst(60, kAllow64), mul_src(16, 58), mul_src(28, 56), add_src(40, 54),
              op(K::Shift, bits(39, 1, 52, 2))},
             {6, 27, "imsub"}),
        form("convert", 6, {{0, 7, 0x3e}, {15, 1, 1}, {38, 2, 0}, {42, 2, 0}, {22, 4, 0}},
             {named(bits(16, 6), kConvertModes), dst(44), src(28, 40),
              named(bits(26, 2), kRoundZeroFirst)}),

        // Shifts and bitfields.
        bitfield("bfi", 0, 0, true),
        bitfield("bfeil", 1, 0, true),
        bitfield("extr", 0, 1, true),
        bitfield("shlhi", 0, 2, true),
        bitfield("shrhi", 1, 2, true),
        bitfield("asr", 1, 1, false),
        bitfield("asrh", 1, 3, false),

        // Bit manipulation: bitop's truth table is bits 26, 27, 38, 39.
        form("bitop", 6, {{0, 7, 0x7e}, {15, 1, 0}},
             {op(K::TruthTable, bits(26, 2, 38, 2)), dst(44), src(16, 42), src(28, 40)},
             {-1, -1, nullptr, Alias::Bitop}),
        int_unary("bitrev", 1),
        int_unary("popcount", 2),
        form("intl", 6, {{0, 7, 0x3e}, {15, 1, 0}, {38, 2, 0}, {26, 2, 0}},
             {dst(44), src(16, 42), src(28, 40)}),
        int_unary("ffs", 3),
        form("iunop", 6, {{0, 7, 0x3e}, {15, 1, 0}, {28, 10, 0}},
             {dst(44), src(16, 42), binary(38, 2), binary(26, 2)}),

        // Floating point: short forms without the register extensions.
        form("fmadd32", 6, 8, {{0, 6, 0x3a}}, {dst(60), fsrc(16, 58), fsrc(28, 56), fsrc(40, 54)},
             kSat),
        form("fmadd16", 6, 8, {{0, 6, 0x36}},
             {dst(60, kOnly16), fsrc16(16, 58), fsrc16(28, 56), fsrc16(40, 54)}, kSat),
        form("fadd32", 4, 6, {{0, 6, 0x2a}}, {dst(44), fsrc(16, 42), fsrc(28, 40)}, kSat),
        form("fadd16", 4, 6, {{0, 6, 0x26}}, {dst(44, kOnly16), fsrc16(16, 42), fsrc16(28, 40)},
             kSat),
        form("fmul32", 4, 6, {{0, 6, 0x1a}}, {dst(44), fsrc(16, 42), fsrc(28, 40)}, kSat),
        form("fmul16", 4, 6, {{0, 6, 0x16}}, {dst(44, kOnly16), fsrc16(16, 42), fsrc16(28, 40)},
             kSat),
        float_unary("floor", 0x00),
        float_unary("ceil", 0x10),
        float_unary("trunc", 0x20),
        float_unary("rint", 0x30),
        float_unary("rcp", 0x08),
        float_unary("rsqrt", 0x09),
        float_unary("rsqrt_special", 0x01),
        float_unary("sin_pt_1", 0x0a),
        float_unary("sin_pt_2", 0x0e),
        float_unary("log2", 0x0c),
        float_unary("exp2", 0x0d),
        float_unary("dfdx", 0x04),
        float_unary("dfdy", 0x06),
        form("funop", 4, 6, {{0, 6, 0x0a}, {34, 8, 0}}, {dst(44), fsrc(16, 42), binary(28, 6)},
             kSat),

        // Flow control. Branch offsets are signed bytes from the instruction.
        form("ret", 2, {{0, 7, 0x14}}, {op(K::Reg32, bits(9, 7))}),
        form("stop", 2, {{0, 16, 0x88}}, {}),
        form("trap", 2, {{0, 16, 0x08}}, {}),
        form("call", 2, {{0, 7, 0x04}}, {op(K::Reg32, bits(9, 7))}),
        form("jmp_incomplete", 4, {{0, 16, 0}, {24, 8, 0}}, {branch(16, 8)}),
        form("jmp_exec_any", 6, {{0, 16, 0xc000}}, {branch(16, 32)}),
        form("jmp_exec_none", 6, {{0, 16, 0xc020}}, {branch(16, 32)}),
        form("call", 6, {{0, 16, 0xc010}}, {branch(16, 32)}),

        // Execution-mask stack (docs.html "Conditional Execution").
        form("pop_exec", 6, {{0, 7, 0x52}, {9, 2, 3}, {13, 35, 0}}, {r0l(), imm(11, 2)}),
        icmp_mask("if_icmp", 0),
        fcmp_mask("if_fcmp", 0, {-1, -1, nullptr, Alias::IfFcmp}),
        icmp_mask("while_icmp", 2),
        fcmp_mask("while_fcmp", 2),
        icmp_mask("else_icmp", 1),
        fcmp_mask("else_fcmp", 1),

        // Compare and select: the condition has no inverting bit here.
        form("icmpsel", 8, 10, {{0, 7, 0x12}},
             {condition(K::ICondition, 61, -1), dst(76), src(16, 74), src(28, 72), cmpsel(40, 70),
              cmpsel(52, 68)}),
        form("fcmpsel", 8, 10, {{0, 7, 0x02}},
             {condition(K::FCondition, 61, -1), dst(76), fsrc(16, 74), fsrc(28, 72), cmpsel(40, 70),
              cmpsel(52, 68)}),

        // SIMD-group and quad-group operations.
        ballot("icmp_ballot", false, 1),
        ballot("icmp_quad_ballot", false, 0),
        ballot("fcmp_ballot", true, 1),
        ballot("fcmp_quad_ballot", true, 0),
        shuffle("simd_shuffle", 0, 0, 1),
        shuffle("simd_shuffle_down", 0, 3, 1),
        shuffle("simd_shuffle_up", 0, 2, 1),
        shuffle("simd_shuffle_rotate_up", 1, 2, 1),
        shuffle("simd_shuffle_xor", 0, 1, 1),
        matrix("simd_matrix_fmadd32", 1),
        matrix("simd_matrix_fmadd16", 0),
        shuffle("quad_shuffle", 0, 0, 0),
        shuffle("quad_shuffle_down", 0, 3, 0),
        shuffle("quad_shuffle_up", 0, 2, 0),
        shuffle("quad_shuffle_rotate_up", 1, 2, 0),
        shuffle("quad_shuffle_xor", 0, 1, 0),
        form("simd_shuf_op", 6, {{0, 7, 0x6f}, {15, 1, 0}},
             {binary(47, 1), binary(38, 2), binary(26, 2), dst(44), src(16, 42, kAllow64),
              src(28, 40, kAllow64)}),
        reduction("quad_and", 0, 0x0000),
        reduction("quad_or", 0, 0x1000),
        reduction("quad_xor", 0, 0x2000),
        reduction("quad_iadd", 1, 0x0000),
        reduction("quad_fadd", 0, 0x0004),
        reduction("quad_fmul", 0, 0x1004),
        reduction("quad_prefix_iadd", 1, 0x0010),
        reduction("quad_prefix_fadd", 0, 0x0014),
        reduction("quad_prefix_fmul", 0, 0x1014),
        reduction("quad_min.u", 1, 0x6000),
        reduction("quad_max.u", 1, 0x7000),
        reduction("quad_min.s", 1, 0x2000),
        reduction("quad_max.s", 1, 0x3000),
        reduction("quad_min.f", 0, 0x2004),
        reduction("quad_max.f", 0, 0x3004),
        reduction("simd_and", 0, 0x0008),
        reduction("simd_or", 0, 0x1008),
        reduction("simd_xor", 0, 0x2008),
        reduction("simd_iadd", 1, 0x0008),
        reduction("simd_fadd", 0, 0x000c),
        reduction("simd_fmul", 0, 0x100c),
        reduction("simd_prefix_iadd", 1, 0x0018),
        reduction("simd_prefix_fadd", 0, 0x001c),
        reduction("simd_prefix_fmul", 0, 0x101c),
        reduction("simd_prefix_and", 0, 0x0018),
        reduction("simd_prefix_or", 0, 0x1018),
        reduction("simd_prefix_xor", 0, 0x2018),
        reduction("simd_prefix_min.s", 1, 0x2018),
        reduction("simd_prefix_min.u", 1, 0x6018),
        reduction("simd_prefix_max.s", 1, 0x3018),
        reduction("simd_prefix_max.u", 1, 0x7018),
        reduction("simd_min.u", 1, 0x6008),
        reduction("simd_max.u", 1, 0x7008),
        reduction("simd_min.s", 1, 0x2008),
        reduction("simd_max.s", 1, 0x3008),
        reduction("simd_min.f", 0, 0x200c),
        reduction("simd_max.f", 0, 0x300c),
        form("simd_op", 6, {{0, 7, 0x6f}, {15, 1, 1}},
             {binary(47, 1), binary(26, 16), dst(44), src(16, 42, kAllow64)}),

        // Pixel ordering and waits.
        form("wait_pix", 4, {{0, 8, 0x48}}, {imm(8, 10), imm(22, 2)}),
        form("signal_pix", 4, {{0, 8, 0x58}}, {imm(8, 10), imm(22, 2)}),
        form("wait", 2, {{0, 8, 0x38}}, {imm(8, 1)}),

        // Tilebuffer access: bit 6 is the direction (set: load).
        form("TODO.ld/st_tile", 8, 10, {{0, 6, 0x09}},
             {imm(6, 1), threadgroup_data(), named(bits(24, 4), kFormats), imm(35, 1),
              components(36), op(K::Immediate, bits(28, 7, 40, 2)),
              op(K::ImmOrReg16, reg(42, 56), bits(22, 2)), op(K::Immediate, reg(16, 58))},
             {-1, -1, nullptr, Alias::Tile}),

        // Varyings and coefficients.
        varying("iter", false),
        varying("iterproj", true),
        form("TODO.ldcf", 4, 8, {{0, 6, 0x21}, {6, 2, 2}},
             {var_data(kTriple), coefficient_or_reg()}),

        // Uniform, texture-state and sampler-state stores.
        form("uniform_store", 6, 8,
             {{0, 7, 0x45}, {9, 1, 0}, {28, 2, 3}, {50, 2, 0}, {16, 4, 0}, {36, 4, 0}, {27, 1, 1}},
             {imm(25, 2), named(bits(7, 2), kFormats), components(52), imm(44, 3), memory_data(),
              memory_index(), op(K::Shift, bits(42, 2))},
             {}, 47),
        form("tex_state_store", 8, {{0, 8, 0xed}, {20, 1, 1}},
             {op(K::TextureState, bits(8, 7)), op(K::UReg64, bits(58, 6)),
              op(K::Reg32, bits(27, 7))}),
        form("sampler_state_store", 8, {{0, 8, 0xad}, {20, 1, 1}},
             {op(K::SamplerState, bits(8, 5)), op(K::UReg64, bits(58, 6)),
              op(K::Reg32, bits(27, 7))}),
        varying_store("no_var", 0x51),
        varying_store("st_var", 0x11),
        varying_store("st_var_final", 0x91),

        // Asynchronous copies.
        form("async_store", 8, {{0, 7, 0x65}},
             {named(bits(47, 1), kAsyncCopies), op(K::AsyncData, bits(9, 6), bits(8, 1)),
              op(K::AsyncBase, bits(16, 4, 36, 4), bits(25, 1), {}, bits(47, 1))}),
        form("async_load", 8, {{0, 7, 0x25}},
             {named(bits(47, 1), kAsyncCopies), op(K::AsyncData, bits(9, 6), bits(8, 1)),
              op(K::AsyncBase, bits(16, 4, 36, 4), bits(25, 1), {}, bits(47, 1))}),

        // Device memory (docs.html "device_load"), then the forms whose
        // unknown bits differ from what compilers emit.
        device("device_load", {{0, 7, 0x05}, {26, 1, 1}, {28, 2, 0}, {44, 3, 4}, {50, 2, 0}}, {}),
        device("device_store", {{0, 7, 0x45}, {26, 1, 1}, {28, 2, 0}, {45, 2, 2}, {50, 2, 0}},
               {imm(44, 1)}),
        device("device_load.TODO", {{0, 7, 0x05}},
               {imm(26, 1), imm(28, 2), imm(44, 3), imm(50, 2)}),
        device("device_store.TODO", {{0, 7, 0x45}},
               {imm(44, 1), imm(26, 1), imm(28, 2), imm(45, 2), imm(50, 2)}),

        // Stack.
        stack("stack_store", true),
        stack("stack_load", false),
        with(form("stack_get_ptr", 6, 8, {{0, 8, 0x35}, {16, 4, 1}, {48, 2, 2}},
                  stack_unknowns(true), {}, 47),
             op(K::Reg32Half, reg(10, 40))),
        with(form("TODO.stack_adjust", 6, 8, {{0, 8, 0xb5}, {16, 4, 1}, {24, 2, 1}},
                  stack_unknowns(false), {}, 47),
             split_signed),

        // Threadgroup memory: bits 5-6 are 0b11 for loads, 0b01 for stores.
        form("threadgroup_load", 6, 8, {{0, 4, 0x9}, {5, 2, 3}},
             {named(bits(24, 4), kFormats), components(36), threadgroup_data(), threadgroup_base(),
              threadgroup_index()}),
        form("threadgroup_store", 6, 8, {{0, 4, 0x9}, {5, 2, 1}},
             {named(bits(24, 4), kFormats), components(36), threadgroup_data(), threadgroup_base(),
              threadgroup_index()}),

        // Textures.
        texture_op("texture_sample", 0x31),
        texture_op("texture_load", 0x71),
        form("threadgroup_barrier", 2, {{0, 8, 0x68}}, {}),

        // Atomics: cmpxchg (op 3) takes a register pair.
        form("atomic", 8, {{0, 6, 0x15}},
             {named(bits(6, 4), kAtomicOps), imm(30, 1),
              op(K::AtomicResult, reg(10, 40), bits(47, 1)), memory_base(), memory_index(),
              named(bits(25, 1), kSignedness), atomic_source(48, 6), imm(26, 1), imm(28, 2),
              imm(31, 1), imm(42, 3), imm(45, 2)}),
        form("threadgroup_atomic", 6, 10, {{0, 6, 0x19}},
             {named(bits(24, 4), kAtomicOps),
              op(K::ThreadgroupData, reg(9, 60), bits(8, 1), {}, {}, bits(38, 1), kOptional),
              threadgroup_base(), threadgroup_index(), atomic_source(64, 24), imm(6, 2), imm(35, 3),
              imm(40, 8), imm(72, 8)}),

        // Encodings seen but not understood (applegpu's TODO.* names).
        form("TODO.after_sampling1", 2, {{0, 16, 0x101c}}, {}),
        form("TODO.after_sampling2", 2, {{0, 16, 0x62cc}}, {}),
        form("TODO.unk30C0", 6, {{0, 16, 0xc030}}, {imm(16, 32)}),
        form("TODO.unk40C0", 6, {{0, 48, 0xc040}}, {}),
        form("TODO.unkC0000000", 4, {{0, 32, 0xc0}}, {}),
        form("TODO.unk51", 4, {{0, 31, 0x51}}, {}),
        form("TODO.unkE800", 2, {{0, 16, 0xe8}}, {}),
        form("TODO.unk0C00", 2, {{0, 16, 0x0c}}, {}),
        form("doorbell", 2, {{0, 8, 0x28}}, {imm(8, 8)}),
        form("jmp_if_skipping_doorbell", 4, {{0, 16, 0x20}, {24, 8, 0}}, {branch(16, 8)}),

        // Image writes (the end-of-tile and image-store paths).
        form("image_write_block", 6, 10, {{0, 8, 0xb1}, {48, 5, 0}, {68, 10, 0}},
             {op(K::Reg16, reg(9, 56)), coords(58, 55), pbe_lod(), texture(62), image_type,
              named(bits(53, 1), kRoundEvenFirst), named(bits(8, 1, 64, 3), kFormats), imm(23, 1),
              imm(43, 4), imm(67, 1)}),
        with(form("TODO.stack_adjust2", 6, 8, {{0, 8, 0xb5}, {16, 4, 1}, {24, 2, 0}},
                  stack_unknowns(false), {}, 47),
             op(K::Reg32Half, bits(20, 4, 32, 4))),
        form("image_write", 6, 8, {{0, 8, 0xf1}},
             {op(K::ImageSource, reg(9, 56), bits(8, 1)), coords(58, 55), pbe_lod(),
              op(K::TexUniform, bits(48, 5), {}, {}, bits(38, 2)), texture(62), image_type,
              named(bits(53, 1), kRoundEvenFirst), imm(23, 1), imm(30, 1), imm(43, 4), imm(54, 1)}),

        form("TODO.sr_thing", 4, {{0, 7, 0x72}, {15, 1, 1}}, {dst(28), special_reg()}),
        form("TODO.pop_exec2", 6, {{0, 7, 0x52}, {9, 2, 3}, {13, 10, 0}, {23, 1, 1}},
             {r0l(), imm(11, 2)}),
        form("map", 8, {{0, 8, 0x75}, {10, 1, 0}, {47, 1, 1}, {24, 2, 1}, {27, 3, 0}, {31, 1, 0}},
             {named(bits(16, 4), kMapOps), named(bits(36, 1), kMapTargets),
              op(K::Reg32, bits(11, 5, 40, 2)), split_signed, binary(8, 2), binary(30, 1),
              binary(37, 3), binary(42, 5), binary(48, 8)},
             {-1, -1, nullptr, Alias::Map}),
        form("TODO.unk75_alt", 8, {{0, 8, 0x75}, {10, 1, 0}, {47, 1, 1}},
             {imm(16, 4), imm(24, 2), imm(27, 3), imm(31, 1), op(K::Reg32, bits(11, 5, 40, 2)),
              split_signed, binary(8, 2)}),

        // Fragment outputs: sample masks and depth/stencil (type bit 8: set for an immediate).
        form("sample_mask", 4, {{0, 8, 0xc1}, {15, 1, 0}},
             {op(K::Reg16OrImm, reg(9, 24), bits(8, 1)),
              op(K::Reg16OrImm, reg(16, 26), bits(23, 1))}),
        form("zs_emit", 4, {{0, 8, 0x41}, {15, 1, 0}},
             {op(K::Reg16OrImm, reg(9, 24), bits(8, 1)),
              op(K::DepthStencil, reg(16, 26), {}, bits(30, 1, 29, 1)), imm(22, 2)}),
        form("memory_barrier", 2, {{0, 8, 0xf5}}, {imm(10, 2), imm(8, 2), imm(12, 4)}),
    };
}

}  // namespace

const std::vector<InstructionForm>& instruction_forms() {
    static const std::vector<InstructionForm> forms = build_forms();
    return forms;
}

}  // namespace agx::isa::encoding
