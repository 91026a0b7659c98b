// The interpreter of the table of instruction forms (agx_encoding_table.cpp):
// finds the first form whose constant bits match, reads its fields and spells
// each operand the way applegpu's disassembler does (dougallj/applegpu:
// applegpu.py's operand descriptors, disassemble.py's listing), so that the
// result is what `agxsim kernel import` reads from an applegpu listing.
#include "isa/agx_decode.hpp"

#include <algorithm>
#include <cstdio>
#include <string_view>

// The isa layer links no other; this header of the common layer has no code.
#include "sim/common/errors.hpp"

namespace agx::isa {

namespace {

// Named one by one: a using-directive here would reach, in a unity build,
// the files compiled after this one in the same namespace.
using encoding::Alias;
using encoding::BitRange;
using encoding::Constant;
using encoding::Field;
using encoding::instruction_forms;
using encoding::InstructionForm;
using encoding::kAllow64;
using encoding::kFloat;
using encoding::kOnly16;
using encoding::kOptional;
using encoding::kPaired;
using encoding::kSignExtend;
using encoding::kTriple;
using encoding::OperandKind;

constexpr std::size_t kMaxLength = 12;

// ---- bits ------------------------------------------------------------------------

// The instruction as a little-endian number of up to 96 bits.
struct Word {
    std::uint64_t lo = 0, hi = 0;

    std::uint64_t get(unsigned start, unsigned size) const {
        std::uint64_t v;
        if (start >= 64) {
            v = hi >> (start - 64);
        } else {
            v = lo >> start;
            if (start > 0 && start + size > 64) v |= hi << (64 - start);
        }
        return size >= 64 ? v : v & ((std::uint64_t{1} << size) - 1);
    }
    // Clears every bit from byte `length` on.
    void truncate(unsigned length) {
        if (length >= 12) return;
        if (length >= 8) {
            hi &= (std::uint64_t{1} << (8 * (length - 8))) - 1;
        } else {
            hi = 0;
            lo &= (std::uint64_t{1} << (8 * length)) - 1;
        }
    }
};

std::uint64_t read(const Word& w, const Field& f) {
    std::uint64_t v = 0;
    unsigned shift = 0;
    for (const BitRange& p : f.parts) {
        if (p.size == 0) break;
        v |= w.get(p.start, p.size) << shift;
        shift += p.size;
    }
    return v;
}

unsigned width(const Field& f) {
    unsigned n = 0;
    for (const BitRange& p : f.parts) n += p.size;
    return n;
}

std::int64_t sign_extend(std::uint64_t v, unsigned bits) {
    const std::uint64_t sign = std::uint64_t{1} << (bits - 1);
    v &= (sign << 1) - 1;
    return static_cast<std::int64_t>(v ^ sign) - static_cast<std::int64_t>(sign);
}

std::string hex_bytes(const std::uint8_t* p, std::size_t n) {
    static const char digits[] = "0123456789abcdef";
    std::string s;
    for (std::size_t i = 0; i < n; ++i) {
        s += digits[p[i] >> 4];
        s += digits[p[i] & 15];
    }
    return s;
}

// ---- spelling (applegpu's names) ------------------------------------------------------

std::string num(std::int64_t v) {
    return std::to_string(v);
}

// Registers: 16-bit halves rNl/rNh, 32-bit rN, 64-bit pairs rN_rN+1; uniforms uN likewise.
std::string half(char bank, std::uint64_t n) {
    return bank + std::to_string(n >> 1) + ((n & 1) ? "h" : "l");
}
std::string full(char bank, std::uint64_t n) {
    return bank + std::to_string(n);
}
std::string pair(char bank, std::uint64_t n) {
    return full(bank, n) + "_" + full(bank, n + 1);
}
// `count` consecutive registers from `first`, halves or full ones, joined with '_'.
std::string run(char bank, bool halves, std::uint64_t first, unsigned count) {
    std::string s;
    for (unsigned i = 0; i < count; ++i) {
        if (i) s += '_';
        s += halves ? half(bank, first + i) : full(bank, first + i);
    }
    return s;
}
unsigned popcount(std::uint64_t v) {
    unsigned n = 0;
    for (; v; v &= v - 1) ++n;
    return n;
}

// The 8-bit float immediates of float sources: sign, 3-bit exponent, 4-bit
// fraction (applegpu's decode_float_immediate), printed as Python prints a
// float: the shortest decimal, always with a fractional digit.
std::string float_immediate(std::uint64_t n) {
    const unsigned e = (n >> 4) & 7, f = n & 15;
    const double magnitude = e == 0 ? f / 64.0 : (16 + f) * (1.0 / (1u << (7 - e)));
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6f", magnitude);  // exact: at most 6 decimals
    std::string s = buf;
    while (s.back() == '0' && s[s.size() - 2] != '.') s.pop_back();
    return ((n & 0x80) ? "-" : "") + s;
}

// Conditions, indexed by the 3-bit condition plus 8 for the inverting bit.
const char* const kIConditions[16] = {"ueq",  "ult",   "ugt",  nullptr, "seq",  "slt",
                                      "sgt",  nullptr, "nueq", "ugte",  "ulte", nullptr,
                                      "nseq", "sgte",  "slte", nullptr};
const char* const kFConditions[16] = {"eq",  "lt",  "gt",  "ltn",  nullptr, "gte",  "lte",  "gtn",
                                      "neq", "nlt", "ngt", "nltn", nullptr, "ngte", "nlte", "ngtn"};

// Special registers with a known meaning (applegpu's SR_NAMES).
struct SpecialName {
    unsigned number;
    const char* name;
};
const SpecialName kSpecialRegisters[] = {
    {0, "threadgroup_position_in_grid.x"},
    {1, "threadgroup_position_in_grid.y"},
    {2, "threadgroup_position_in_grid.z"},
    {4, "threads_per_threadgroup.x"},
    {5, "threads_per_threadgroup.y"},
    {6, "threads_per_threadgroup.z"},
    {8, "dispatch_threads_per_threadgroup.x"},
    {9, "dispatch_threads_per_threadgroup.y"},
    {10, "dispatch_threads_per_threadgroup.z"},
    {20, "core_index"},
    {21, "vm_slot"},
    {48, "thread_position_in_threadgroup.x"},
    {49, "thread_position_in_threadgroup.y"},
    {50, "thread_position_in_threadgroup.z"},
    {51, "thread_index_in_threadgroup"},
    {52, "thread_index_in_simdgroup"},
    {53, "simdgroup_index_in_threadgroup"},
    {56, "active_thread_index_in_quadgroup"},
    {58, "active_thread_index_in_simdgroup"},
    {60, "internal_coverage_mask"},
    {62, "backfacing"},
    {63, "is_active_thread"},
    {80, "thread_position_in_grid.x"},
    {81, "thread_position_in_grid.y"},
    {82, "thread_position_in_grid.z"},
    {124, "input_sample_mask"},
    {144, "opfifo_cmd"},
    {146, "opfifo_data_l"},
    {147, "opfifo_data_h"},
};

// Texture types: (coordinates, extra components: array index, sample).
struct TexSize {
    unsigned count, extra;
};
const TexSize kTexSizes[9] = {{1, 0}, {1, 1}, {2, 0}, {2, 1}, {2, 1},
                              {3, 0}, {3, 0}, {3, 1}, {2, 2}};

// Register hints of sources: 0b10 cache, 0b11 discard (0b01: none).
std::string hint(std::uint64_t t) {
    return (t & 3) == 2 ? ".cache" : (t & 3) == 3 ? ".discard" : "";
}

std::string alu_dst(std::uint64_t v, std::uint64_t t, unsigned options) {
    std::string s;
    if ((t & 2) && !(options & kOnly16)) {
        if ((v & 1) && (options & kAllow64))
            s = pair('r', v >> 1);
        else
            s = (options & kPaired) ? run('r', false, v >> 1, 2) : full('r', v >> 1);
    } else {
        s = (options & kPaired) ? run('r', true, v, 2) : half('r', v);
    }
    return s + ((t & 1) ? ".cache" : "");
}

// An ALU source: type 0 an immediate; 0b01xx a uniform (bit 0 the ninth bit of
// its number, bit 1 32-bit); otherwise a register, bits 2-3 its size (00 16,
// 10 32, 11 64) and bits 0-1 its hint.
std::string alu_src(std::uint64_t v, std::uint64_t t, std::uint64_t modifier, unsigned options) {
    std::string s;
    bool is_register = false;
    if (t == 0) {
        s = (options & kFloat) ? float_immediate(v) : num(static_cast<std::int64_t>(v));
    } else if ((t & 0xc) == 0x4) {
        v |= (t & 1) << 8;
        s = (t & 2) ? full('u', v >> 1) : half('u', v);
        is_register = true;
    } else if (t & 3) {
        const std::uint64_t size = t & 0xc;
        const bool paired = options & kPaired;
        if ((options & kAllow64) && size == 0xc)
            s = pair('r', v >> 1);
        else if (!(options & kOnly16) && (size == 0x8 || size == 0xc))
            s = paired ? run('r', false, v >> 1, 2) : full('r', v >> 1);
        else
            s = paired ? run('r', true, v, 2) : half('r', v);
        s += hint(t);
        is_register = !paired;
    } else {
        return "None";  // a type applegpu does not know
    }
    if ((options & kSignExtend) && is_register && (modifier & 1)) s += ".sx";
    if (options & kFloat) {
        if (modifier & 1) s += ".abs";
        if (modifier & 2) s += ".neg";
    }
    return s;
}

// The text of one operand; empty when the disassembler prints nothing for it.
std::string operand_text(const encoding::OperandSpec& o, const Word& w, std::uint32_t pc) {
    const std::uint64_t v = read(w, o.value), t = read(w, o.type);
    const std::uint64_t m = read(w, o.modifier), dep = read(w, o.dep), dep2 = read(w, o.dep2);
    switch (o.kind) {
        case OperandKind::Dst:
            return alu_dst(v, t, o.options);
        case OperandKind::Src:
            return alu_src(v, t, m, o.options);
        case OperandKind::CmpselSrc: {
            const bool is32 = dep & 2;
            if (t == 4) return num(static_cast<std::int64_t>(v));
            if (t >= 1 && t <= 3) return (is32 ? full('r', v >> 1) : half('r', v)) + hint(t);
            if (t >= 6) return is32 ? full('u', v >> 1) : half('u', v);
            return "None";
        }
        case OperandKind::ImplicitR0l:
            return (t & 1) ? "r0l.cache" : "r0l";
        case OperandKind::Immediate:
            return num(static_cast<std::int64_t>(v));
        case OperandKind::Binary: {
            std::string s = "0b";
            for (unsigned i = width(o.value); i-- > 0;) s += ((v >> i) & 1) ? '1' : '0';
            return s;
        }
        case OperandKind::Names:
            if (v < o.name_count && o.names[v]) return o.names[v];
            return num(static_cast<std::int64_t>(v));
        case OperandKind::Components: {
            if (v == 0) return o.zero_text;
            std::string s;
            for (unsigned i = 0; i < 4; ++i)
                if (v & (1u << i)) s += "xyzw"[i];
            return s;
        }
        case OperandKind::ICondition:
        case OperandKind::FCondition: {
            const char* const* names =
                o.kind == OperandKind::ICondition ? kIConditions : kFConditions;
            return names[v] ? names[v] : num(static_cast<std::int64_t>(v));
        }
        case OperandKind::Shift:
            return v ? "lsl " + num(static_cast<std::int64_t>(v)) : "";
        case OperandKind::BitfieldMask: {
            if (!v) return "";
            char buf[32];
            std::snprintf(buf, sizeof buf, "mask 0x%llX",
                          static_cast<unsigned long long>((std::uint64_t{1} << v) - 1));
            return buf;
        }
        case OperandKind::BranchTarget: {
            // A target before the code's start prints as applegpu does: 0x-1A.
            const std::int64_t target = pc + sign_extend(v, width(o.value));
            char buf[32];
            std::snprintf(buf, sizeof buf, "0x%s%llX", target < 0 ? "-" : "",
                          static_cast<unsigned long long>(target < 0 ? -target : target));
            return buf;
        }
        case OperandKind::SignedImmediate:
            return num(sign_extend(v, 16));
        case OperandKind::Reg32Half:
            return full('r', v >> 1);
        case OperandKind::Reg32:
            return full('r', v);
        case OperandKind::UReg64:
            return pair('u', v);
        case OperandKind::MemoryIndex:
            return t ? num(sign_extend(v, 16)) : full('r', v >> 1);
        case OperandKind::MemoryBase:
        case OperandKind::AsyncData:
            return pair(t ? 'u' : 'r', v >> 1);
        case OperandKind::MemoryData:
            return t ? run('r', false, v >> 1, popcount(dep)) : run('r', true, v, popcount(dep));
        case OperandKind::ThreadgroupData: {
            const bool optional = o.options & kOptional;
            if (optional && !dep2) return "None";
            const unsigned count = optional ? 1 : popcount(dep);
            return t ? run('r', false, v >> 1, count) : run('r', true, v, count);
        }
        case OperandKind::ThreadgroupBase:
            if (t == 0) return half('r', v);
            if (t == 2) return "0";
            return half('u', v | ((t >> 1) << 8));
        case OperandKind::ThreadgroupIndex:
            return t ? num(sign_extend(v, 16)) : half('r', v & 0xff);
        case OperandKind::AsyncBase:
            return run(t ? 'u' : 'r', false, v, dep ? 5 : 3);
        case OperandKind::SpecialReg: {
            std::string s = "sr" + num(static_cast<std::int64_t>(v));
            for (const SpecialName& n : kSpecialRegisters)
                if (n.number == v) s += std::string(" (") + n.name + ")";
            return s;
        }
        case OperandKind::TextureState:
            return "ts" + num(static_cast<std::int64_t>(v));
        case OperandKind::SamplerState:
            return "ss" + num(static_cast<std::int64_t>(v));
        case OperandKind::TruthTable: {
            std::string s;
            for (unsigned i = 0; i < 4; ++i) s += ((v >> i) & 1) ? '1' : '0';
            return s;
        }
        case OperandKind::VaryingData: {
            const unsigned count =
                (m ? static_cast<unsigned>(m) : 4) * ((o.options & kTriple) ? 3 : 1);
            return t ? run('r', false, v >> 1, count) : run('r', true, v, count);
        }
        case OperandKind::CoefficientOrReg:
            return t ? half('r', v) : "cf" + num(static_cast<std::int64_t>(v));
        case OperandKind::Coefficient:
            return "cf" + num(static_cast<std::int64_t>(v));
        case OperandKind::SampleIndex:
            if (!(dep & 1)) return "";
            return (dep & 2) ? half('r', v) : num(static_cast<std::int64_t>(v));
        case OperandKind::Reg16OrImm:
            return t ? num(static_cast<std::int64_t>(v)) : half('r', v);
        case OperandKind::ImmOrReg16:
            return t ? half('r', v) : num(static_cast<std::int64_t>(v));
        case OperandKind::DepthStencil:
            return run('r', true, v, static_cast<unsigned>(m));
        case OperandKind::Reg16:
            return half('r', v);
        case OperandKind::Texture:
            if (t == 0) return "ts" + num(static_cast<std::int64_t>(v));
            if (t == 1 || (t == 2 && v != 0)) return half('r', v);
            return t == 2 ? "0" : full('r', v >> 1);
        case OperandKind::Sampler:
            return t ? half('r', v) : "ss" + num(static_cast<std::int64_t>(v));
        case OperandKind::TexCoords: {
            if (dep >= 9) return "";  // a texture type applegpu does not know
            const TexSize size = kTexSizes[dep];
            std::string s;
            if (m)
                s = run('r', true, v, size.count + size.extra);
            else if (size.extra)
                s = run('r', true, v, size.count * 2 + 1);
            else
                s = run('r', false, v >> 1, size.count);
            return t ? s + ".discard" : s;
        }
        case OperandKind::TexCompareOffset: {
            std::string s;
            std::uint64_t r = v;
            if (dep) {
                s = full('r', r >> 1);
                r += 2;
            }
            if (t) s += (s.empty() ? "" : "_") + half('r', r);
            return s;
        }
        case OperandKind::TexLod:
            if (dep == 0) return "0";
            if (dep == 4 || dep == 12) {
                const unsigned count = (dep2 < 9 ? kTexSizes[dep2].count : 0) * 2 + (dep == 12);
                return run('r', false, v >> 1, count);
            }
            return (dep == 1 || dep == 2) ? half('u', v) : half('r', v);
        case OperandKind::TexUniform:
            return (dep & 2) ? pair('u', v * 2) : "None";
        case OperandKind::AtomicSource:
            return dep == 3 ? pair('r', v >> 1) : full('r', v >> 1);
        case OperandKind::AtomicResult:
            return t ? full('r', v >> 1) : "None";
        case OperandKind::ImageSource:
            return t ? run('r', false, v >> 1, 4) : run('r', true, v, 4);
    }
    return "None";
}

// ---- aliases (applegpu's map_to_alias) --------------------------------------------------

struct AliasName {
    const char* truth_table;
    const char* mnemonic;
};
// bitop by truth table (bits ~a&~b, a&~b, ~a&b, a&b): binary aliases, and
// unary ones that apply when B is the immediate 0.
const AliasName kBitopBinary[] = {{"0001", "and"},  {"0111", "or"},  {"0110", "xor"},
                                  {"1110", "nand"}, {"1000", "nor"}, {"1001", "xnor"}};
const AliasName kBitopUnary[] = {{"1010", "not"}, {"0101", "mov"}};

void apply_alias(Alias alias, std::string& mnemonic, std::vector<std::string>& ops) {
    switch (alias) {
        case Alias::None:
            return;
        case Alias::Bitop: {  // tt, D, A, B
            for (const AliasName& a : kBitopBinary)
                if (ops[0] == a.truth_table) {
                    mnemonic = a.mnemonic;
                    ops.erase(ops.begin());
                    return;
                }
            if (ops[3] == "0")
                for (const AliasName& a : kBitopUnary)
                    if (ops[0] == a.truth_table) {
                        mnemonic = a.mnemonic;
                        ops = {ops[1], ops[2]};
                        return;
                    }
            if (ops[0] == "0011" || ops[0] == "1100") mnemonic = "bitop_mov_a";
            return;
        }
        case Alias::IfFcmp:  // D, cc, A, B, n: unconditional when 0.0 eq 0.0
            if (ops[1] == "eq" && ops[2] == "0.0" && ops[3] == "0.0") {
                if (ops[4] == "0") {
                    mnemonic = "update_exec";
                    ops = {ops[0]};
                } else {
                    mnemonic = "push_exec";
                    ops = {ops[0], ops[4]};
                }
            }
            return;
        case Alias::Tile:  // the direction first
            mnemonic = ops[0] != "0" ? "ld_tile" : "st_tile";
            ops.erase(ops.begin());
            return;
        case Alias::Map:  // the operation first
            if (ops[0] == "map" || ops[0] == "unmap") {
                mnemonic = ops[0];
                ops.erase(ops.begin());
            } else {
                mnemonic = "TODO.map";
            }
            return;
    }
}

// The first form matching the word read at `offset`, and its length.
const InstructionForm* match(const Word& raw, unsigned& length) {
    for (const InstructionForm& f : instruction_forms()) {
        length = raw.get(f.length_bit, 1) ? f.long_length : f.short_length;
        Word w = raw;
        w.truncate(length);
        bool ok = true;
        for (const Constant& c : f.constants)
            if (w.get(c.start, c.size) != c.value) {
                ok = false;
                break;
            }
        if (ok) return &f;
    }
    return nullptr;
}

}  // namespace

bool decode_instruction(const std::uint8_t* code, std::size_t size, std::uint32_t offset,
                        DecodedInstruction& out, DecodeFailure& failure) {
    const std::size_t available = offset < size ? std::min(size - offset, kMaxLength) : 0;
    Word raw;
    for (std::size_t i = 0; i < available; ++i)
        (i < 8 ? raw.lo : raw.hi) |= std::uint64_t{code[offset + i]} << (8 * (i % 8));
    failure = DecodeFailure{offset, available ? hex_bytes(code + offset, available) : "", ""};
    if (available == 0) {
        failure.reason = "no bytes left";
        return false;
    }
    unsigned length = 0;
    const InstructionForm* form = match(raw, length);
    if (!form) {
        failure.reason = "no instruction form matches";
        return false;
    }
    if (length > available) {
        failure.reason = std::string(form->mnemonic) + " is " + std::to_string(length) +
                         " bytes long, but only " + std::to_string(available) + " remain";
        return false;
    }
    Word w = raw;
    w.truncate(length);
    out = DecodedInstruction{};
    out.offset = offset;
    out.length = length;
    out.bytes_hex = hex_bytes(code + offset, length);
    const bool alternate = form->alternate_bit >= 0 && w.get(form->alternate_bit, 1);
    out.mnemonic = alternate ? form->alternate : form->mnemonic;
    if (form->saturate_bit >= 0 && w.get(form->saturate_bit, 1)) out.mnemonic += ".sat";
    std::vector<std::string> ops;
    for (const encoding::OperandSpec& o : form->operands) ops.push_back(operand_text(o, w, offset));
    apply_alias(form->alias, out.mnemonic, ops);
    for (std::string& s : ops)  // the disassembler leaves out empty operands
        if (!s.empty()) out.operands.push_back(std::move(s));
    return true;
}

std::vector<DecodedInstruction> decode_code(const std::uint8_t* code, std::size_t size,
                                            const std::string& where) {
    std::vector<DecodedInstruction> out;
    auto halfword = [&](std::size_t at) -> unsigned {
        unsigned v = 0;
        for (std::size_t i = 0; i < 2 && at + i < size; ++i) v |= unsigned{code[at + i]} << (8 * i);
        return v;
    };
    bool skipping = false;
    std::size_t p = 0;
    while (p < size) {
        // Padding: a zero 32-bit word starts a run of zero halfwords to skip.
        if (!skipping && halfword(p) == 0 && halfword(p + 2) == 0) skipping = true;
        if (skipping) {
            if (halfword(p) == 0) {
                p += 2;
                continue;
            }
            skipping = false;
        }
        DecodedInstruction ins;
        DecodeFailure failure;
        if (!decode_instruction(code, size, static_cast<std::uint32_t>(p), ins, failure)) {
            char at[32];
            std::snprintf(at, sizeof at, "0x%x", failure.offset);
            throw InputError(where, std::string("cannot decode the instruction at byte offset ") +
                                        at + " (bytes " + failure.bytes_hex +
                                        "): " + failure.reason);
        }
        p += ins.length;
        out.push_back(std::move(ins));
    }
    return out;
}

}  // namespace agx::isa
