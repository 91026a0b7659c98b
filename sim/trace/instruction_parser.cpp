// One instruction line of the text trace: mnemonic, operands, attributes,
// checked against the catalogue's operand specs and the launch.
#include <algorithm>
#include <array>

#include "sim/common/edit_distance.hpp"
#include "sim/trace/trace_parse.hpp"

namespace agx::trace_detail {

namespace {

using isa::Catalogue;
using isa::InstructionInfo;
using isa::OperandRole;
using isa::OperandSpec;

constexpr unsigned kMaxOperands = 8;
constexpr unsigned kWaitSlots = 2;  // applegpu's docs: async instructions name one of 2 slots

struct Tokens {
    std::array<std::string_view, kMaxOperands> operands;
    unsigned num_operands = 0;
    std::array<Attribute, kMaxAttributes> attributes;
    unsigned num_attributes = 0;
};

bool is_blank(char c) {
    return c == ' ' || c == '\t';
}

// Splits "a, b, c key=v key=[x, y]" into operands and attributes.
Tokens tokenize(std::string_view rest, const LineContext& at) {
    Tokens t;
    bool want_operand = true;  // after a comma, or at the start
    bool after_comma = false;
    std::size_t i = 0;
    auto skip = [&] {
        while (i < rest.size() && is_blank(rest[i])) ++i;
    };
    for (skip(); i < rest.size(); skip()) {
        if (rest[i] == ',') {
            if (want_operand) fail(at, "expected an operand before ','");
            want_operand = after_comma = true;
            ++i;
            continue;
        }
        std::size_t start = i;
        while (i < rest.size() && !is_blank(rest[i]) && rest[i] != ',' && rest[i] != '=') ++i;
        if (i < rest.size() && rest[i] == '=') {  // key=value
            if (after_comma) fail(at, "expected an operand after ','");
            auto key = rest.substr(start, i - start);
            std::size_t vstart = ++i;
            if (i < rest.size() && rest[i] == '[') {
                auto close = rest.find(']', i);
                if (close == std::string_view::npos)
                    fail(at, "missing ']' in " + std::string(key) + "=");
                i = close + 1;
            } else {
                while (i < rest.size() && !is_blank(rest[i])) ++i;
            }
            if (t.num_attributes == t.attributes.size()) fail(at, "too many attributes");
            for (unsigned k = 0; k < t.num_attributes; ++k)
                if (t.attributes[k].key == key)
                    fail(at, "attribute '" + std::string(key) + "' given twice");
            t.attributes[t.num_attributes++] = {key, rest.substr(vstart, i - vstart)};
            continue;
        }
        auto word = rest.substr(start, i - start);
        if (t.num_attributes > 0) fail(at, "operand '" + std::string(word) + "' after attributes");
        if (!want_operand) fail(at, "missing ',' before operand '" + std::string(word) + "'");
        if (t.num_operands == kMaxOperands) fail(at, "too many operands");
        t.operands[t.num_operands++] = word;
        want_operand = after_comma = false;
    }
    if (after_comma) fail(at, "expected an operand after ','");
    return t;
}

const InstructionInfo& cat_info(const Instruction& in) {
    return Catalogue::instance().info(in.opcode);
}

[[noreturn]] void unknown_mnemonic(std::string_view m, const LineContext& at) {
    std::string_view best;
    std::size_t best_d = 3;  // suggest only close spellings
    for (const auto& e : Catalogue::instance().entries()) {
        auto d = edit_distance(m, e.mnemonic);
        if (d < best_d) best_d = d, best = e.mnemonic;
    }
    std::string msg = "unknown mnemonic '" + std::string(m) + "'";
    if (!best.empty()) msg += " (did you mean '" + std::string(best) + "'?)";
    fail(at, msg);
}

std::string width_name(unsigned halves) {
    switch (halves) {
        case 1:
            return "16-bit";
        case 2:
            return "32-bit";
        case 4:
            return "64-bit";
        default:
            return std::to_string(halves * 16) + "-bit";
    }
}

// Checks one operand against its spec and the launch.
void check_operand(const ParsedOperand& p, const OperandSpec& spec, unsigned position,
                   std::string_view text, const InstructionInfo& info,
                   std::uint32_t registers_halves, const LineContext& at) {
    // Built only on failure: this runs for every operand of every dynamic instruction.
    auto who = [&] {
        return std::string(info.mnemonic) + " operand " + std::to_string(position) + " '" +
               std::string(text) + "'";
    };
    const Operand& op = p.op;
    if (spec.role == OperandRole::Dst && op.kind != OperandKind::Reg)
        fail(at, who() + ": a destination must be a register");
    if (op.kind == OperandKind::Uniform && !spec.allow_uniform)
        fail(at, who() + ": a uniform is not allowed here");
    if (op.kind == OperandKind::Imm && !spec.allow_immediate)
        fail(at, who() + ": an immediate is not allowed here");
    if (op.kind == OperandKind::Reg && !spec.allow_register)
        fail(at, who() + ": expected an immediate");
    if (spec.role == OperandRole::Dst && op.hint == CacheHint::Discard)
        fail(at, who() + ": '.discard' only applies to sources");
    if (op.kind == OperandKind::Imm) return;

    if (spec.vector) {
        if (op.halves > 8) fail(at, who() + ": memory data is at most 4 32-bit registers");
    } else if (spec.width_halves != 0) {
        if (op.halves != spec.width_halves && !(spec.accepts_16 && op.halves == 1))
            fail(at, who() + ": expected a " + width_name(spec.width_halves) + " operand, got " +
                         width_name(op.halves));
        if (spec.width_halves == 4 && (op.first_half % 4) != 0)
            fail(at, who() + ": a 64-bit pair must start at an even register");
        // Only memory data may be a run of halves; a 32-bit value is one register.
        if (spec.width_halves == 2 && op.halves == 2 && (op.first_half % 2) != 0)
            fail(at, who() + ": a 32-bit operand is one register, not the halves of two");
    } else if (p.components > 1) {  // any width: one register or one 64-bit pair
        if (p.components != 2 || p.sixteen_bit)
            fail(at, who() + ": expected a 16-bit, 32-bit or 64-bit register");
        if (op.first_half % 4 != 0)
            fail(at, who() + ": a 64-bit pair must start at an even register");
    }
    if (op.kind == OperandKind::Reg && op.first_half + op.halves > registers_halves)
        fail(at, "register " + std::string(text.substr(0, text.find('.'))) +
                     " out of range: launch declares " + std::to_string(registers_halves) +
                     " half-registers");
}

}  // namespace

void parse_instruction(std::string_view text, const LineContext& at, std::uint32_t registers_halves,
                       Instruction& out) {
    std::array<Attribute, kMaxAttributes> attributes;
    const unsigned n = parse_instruction_operands(text, at, registers_halves, out, attributes);
    apply_attributes(attributes.data(), n, cat_info(out), at, out);
}

unsigned parse_instruction_operands(std::string_view text, const LineContext& at,
                                    std::uint32_t registers_halves, Instruction& out,
                                    std::array<Attribute, kMaxAttributes>& attributes) {
    std::string_view rest = text;
    auto mnemonic = next_word(rest);
    const auto& cat = Catalogue::instance();
    auto opcode = cat.find(mnemonic);
    if (!opcode) unknown_mnemonic(mnemonic, at);
    const InstructionInfo& info = cat.info(*opcode);

    out = Instruction{};
    out.opcode = *opcode;
    out.source_line = at.line;

    Tokens t = tokenize(rest, at);
    const auto& specs = info.operands;
    std::size_t required = 0;
    for (const auto& s : specs) required += s.optional ? 0 : 1;
    if (t.num_operands < required || t.num_operands > specs.size()) {
        std::string want = required == specs.size()
                               ? std::to_string(required)
                               : std::to_string(required) + " to " + std::to_string(specs.size());
        fail(at, std::string(info.mnemonic) + " expects " + want + " operand" +
                     (specs.size() == 1 ? "" : "s") + ", got " + std::to_string(t.num_operands));
    }
    for (unsigned k = 0; k < t.num_operands; ++k) {
        ParsedOperand p = parse_operand(t.operands[k], at);
        const OperandSpec& spec = specs[k];
        if (p.op.kind == OperandKind::Imm && spec.width_halves != 0)
            p.op.halves = spec.width_halves;
        if (p.op.kind == OperandKind::Imm && spec.width_halves == 0) p.op.halves = 2;
        if (p.op.mods && spec.role == OperandRole::Dst)
            fail(at, std::string(info.mnemonic) + " operand " + std::to_string(k + 1) + " '" +
                         std::string(t.operands[k]) +
                         "': '.abs' and '.neg' modify sources, not destinations");
        check_operand(p, spec, k + 1, t.operands[k], info, registers_halves, at);
        if (spec.role == OperandRole::Dst)
            out.dst[out.num_dst++] = p.op;
        else
            out.src[out.num_src++] = p.op;
    }

    if (info.is_wait) {
        if (out.src[0].imm >= kWaitSlots)
            fail(at, "wait slot " + std::to_string(out.src[0].imm) + " out of range (0 or 1)");
        out.wait_slot = static_cast<std::uint8_t>(out.src[0].imm);
    } else if (info.is_async) {
        out.wait_slot = 0;  // default slot; `slot=` overrides
    }
    std::copy(t.attributes.begin(), t.attributes.begin() + t.num_attributes, attributes.begin());
    return t.num_attributes;
}

}  // namespace agx::trace_detail
