// A decoder of AGX (Apple G13) machine code, spelled the way applegpu's
// disassembler prints it (dougallj/applegpu, disassemble.py), so that its
// output feeds the importer of applegpu listings (sim/kernel/applegpu_import).
//
// The encodings are data: a table of instruction forms (agx_encoding_table.cpp)
// read by one small interpreter (agx_decode.cpp). The facts in the table are
// applegpu's (its instruction descriptors in applegpu.py and its docs.html);
// the opcodes and lengths of the forms Mesa's Asahi compiler emits agree with
// its src/asahi/compiler/agx_opcodes.py, and every instruction of Mesa's 69
// compiled kernels (libagx_shaders.c) decodes to the text applegpu prints.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace agx::isa {

// One decoded instruction, spelled as applegpu's disassembler prints it.
struct DecodedInstruction {
    std::uint32_t offset = 0;           // byte offset of the instruction in the code given
    std::uint32_t length = 0;           // bytes (2..12)
    std::string mnemonic;               // applegpu's mnemonic, e.g. "fmadd32", "device_load"
    std::vector<std::string> operands;  // applegpu's operand text: "r3", "r2.discard", "u4", "xy"
    std::string bytes_hex;              // the instruction's bytes as lowercase hex
};

struct DecodeFailure {
    std::uint32_t offset;
    std::string bytes_hex;
    std::string reason;
};

// Decodes the instruction starting at code[offset]. Returns false and fills
// `failure` when no form matches (or the instruction would run past `size`).
bool decode_instruction(const std::uint8_t* code, std::size_t size, std::uint32_t offset,
                        DecodedInstruction& out, DecodeFailure& failure);

// Decodes [0, size) instruction after instruction, not stopping at `stop`.
// Like applegpu's disassemble.py, a run of zero halfwords that starts with a
// zero 32-bit word (Mesa's padding after the last instruction) is skipped.
// Throws agx::InputError (sim/common/errors.hpp) with "<where>: cannot decode
// the instruction at byte offset 0xOFF (bytes XXXX...): reason" on failure.
std::vector<DecodedInstruction> decode_code(const std::uint8_t* code, std::size_t size,
                                            const std::string& where);

// ---- the table of instruction forms ------------------------------------------
//
// Bits are numbered from bit 0 of the instruction's first byte (the
// instruction read as a little-endian number of up to 96 bits).
namespace encoding {

// A run of `size` bits starting at bit `start`.
struct BitRange {
    std::uint8_t start = 0, size = 0;
};

// A field: up to three runs, concatenated with the first as the lowest bits.
struct Field {
    BitRange parts[3] = {};
    bool present() const { return parts[0].size != 0; }
};

// How an operand's text is made from its fields. Each kind is one of
// applegpu's operand descriptors; agx_decode.cpp says how each prints.
enum class OperandKind : std::uint8_t {
    Dst,               // ALU destination: r3l/r3/r2_r3, .cache
    Src,               // ALU source: register, uniform or 8-bit immediate, hints, .sx, .abs/.neg
    CmpselSrc,         // select source, sized by the destination
    ImplicitR0l,       // r0l, the execution-mask counter
    Immediate,         // a number, printed in decimal
    Binary,            // a number, printed as 0b... with the field's width
    Names,             // a number, printed by name (numbers without a name print in decimal)
    Components,        // a component mask: x, y, z, w (0 prints as `zero_text`)
    ICondition,        // integer comparison: ueq, slt, nseq, ...
    FCondition,        // float comparison: eq, lt, gtn, ngte, ...
    Shift,             // `lsl N`, nothing when 0
    BitfieldMask,      // `mask 0xFF`, nothing when 0
    BranchTarget,      // signed byte offset, printed as the absolute target 0x1A
    SignedImmediate,   // a 16-bit signed number
    Reg32Half,         // r(N/2): a 32-bit register numbered in halves
    Reg32,             // rN
    UReg64,            // uN_uN+1
    MemoryIndex,       // signed 16-bit immediate, or a 32-bit register
    MemoryBase,        // 64-bit base address: r4_r5 or u0_u1
    MemoryData,        // device/stack data: consecutive registers, one per set mask bit
    ThreadgroupData,   // threadgroup data: as MemoryData, or one optional register
    ThreadgroupBase,   // threadgroup base: r2l, u4l or 0
    ThreadgroupIndex,  // signed 16-bit immediate, or a 16-bit register
    AsyncData,         // r4_r5 or u4_u5
    AsyncBase,         // 3 or 5 consecutive 32-bit registers or uniforms
    SpecialReg,        // sr80 (thread_position_in_grid.x)
    TextureState,      // tsN
    SamplerState,      // ssN
    TruthTable,        // bitop's four truth-table bits, as "0110"
    VaryingData,       // iter's destination: 1-4 (or 3-12) consecutive registers
    CoefficientOrReg,  // cfN or a 16-bit register
    Coefficient,       // cfN
    SampleIndex,       // iter's sample: nothing, an immediate or a 16-bit register
    Reg16OrImm,        // a 16-bit register when the type bit is clear, else an immediate
    ImmOrReg16,        // an immediate when the type is 0, else a 16-bit register
    DepthStencil,      // zs_emit's 1-3 consecutive 16-bit registers
    Reg16,             // rNl / rNh
    Texture,           // tsN, a 16-bit register, 0, or a 32-bit register
    Sampler,           // ssN or a 16-bit register
    TexCoords,         // coordinates, sized by the texture type
    TexCompareOffset,  // compare value and packed offsets
    TexLod,            // lod argument: 0, gradients, a uniform or a register
    TexUniform,        // bindless base uN_uN+1, or None
    AtomicSource,      // the operand of a device/threadgroup atomic: r or r_r pair (cmpxchg)
    AtomicResult,      // the old value of a device atomic, or None
    ImageSource,       // image_write's four registers
};

// Variants of a register operand (OperandSpec::options).
enum : std::uint8_t {
    kAllow64 = 1,     // may name a 64-bit pair
    kOnly16 = 2,      // never a 32-bit register
    kPaired = 4,      // names two consecutive registers (simd_matrix)
    kSignExtend = 8,  // `modifier` is a sign-extension bit (.sx)
    kFloat = 16,      // immediates are 8-bit floats; `modifier` holds .abs/.neg
    kOptional = 32,   // ThreadgroupData: present only when `dep2` is set
    kTriple = 64,     // VaryingData: three registers per counted element
};

// One operand of a form: its kind and the fields it reads.
struct OperandSpec {
    OperandKind kind;
    Field value;     // the register number or the number itself
    Field type;      // its type bits ("t": register size, uniform, immediate, hint)
    Field modifier;  // .sx bit, .abs/.neg bits, a register count
    Field dep;       // another field it depends on (a mask, a texture type, ...)
    Field dep2;      // a second one
    std::uint8_t options = 0;
    const char* const* names = nullptr;  // Names: indexed by value; null entries print the number
    std::uint8_t name_count = 0;
    const char* zero_text = "";  // Components: the text of an empty mask
};

// A run of bits that must hold `value` for the form to match.
struct Constant {
    std::uint8_t start, size;
    std::uint64_t value;
};

// Rewrites of applegpu's disassembler after the operands are decoded.
enum class Alias : std::uint8_t {
    None,
    Bitop,   // bitop: and/or/xor/nand/nor/xnor by truth table, not/mov when B is 0
    IfFcmp,  // if_fcmp on 0.0 eq 0.0: update_exec / push_exec
    Tile,    // ld_tile / st_tile by the direction bit, which is dropped
    Map,     // map / unmap by the operation, which is dropped
};

struct InstructionForm {
    const char* mnemonic;
    // Length in bytes: short_length when the length bit is clear, long_length when set.
    std::uint8_t short_length, long_length, length_bit;
    std::vector<Constant> constants;
    std::vector<OperandSpec> operands;
    // The mnemonic is `alternate` when this bit is set (iadd/isub, imadd/imsub).
    std::int8_t alternate_bit = -1;
    const char* alternate = nullptr;
    // ".sat" is appended when this bit is set.
    std::int8_t saturate_bit = -1;
    Alias alias = Alias::None;
};

// Every form, in the order they are tried: the first that matches wins, so
// specific forms come before the generic ones they overlap (applegpu's order).
const std::vector<InstructionForm>& instruction_forms();

}  // namespace encoding
}  // namespace agx::isa
