// Text helpers and the operand syntax of the text trace (applegpu's
// disassembly syntax, as its disassembler prints it: dougallj/applegpu).
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "sim/common/errors.hpp"
#include "sim/trace/trace_parse.hpp"

namespace agx::trace_detail {

namespace {

bool is_blank_or_cr(char c) {
    return c == ' ' || c == '\t' || c == '\r';
}
bool is_digit(char c) {
    return c >= '0' && c <= '9';
}

bool ends_with(std::string_view s, std::string_view suffix) {
    return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// 32 general registers' worth of halves is r0..r127; 256 uniforms u0..u255.
constexpr unsigned kMaxRegister = 127;
constexpr unsigned kMaxUniform = 255;

struct Component {
    unsigned index = 0;  // register number
    bool half = false;   // 'l' or 'h' suffix
    bool high = false;   // 'h'
};

bool parse_component(std::string_view s, char prefix, Component& c) {
    if (s.size() < 2 || s[0] != prefix) return false;
    s.remove_prefix(1);
    if (s.back() == 'l' || s.back() == 'h') {
        c.half = true;
        c.high = s.back() == 'h';
        s.remove_suffix(1);
    }
    if (s.empty() || s.size() > 3) return false;
    for (char ch : s)
        if (!is_digit(ch)) return false;
    if (s.size() > 1 && s[0] == '0') return false;  // "r05" is a typo, not r5
    std::from_chars(s.data(), s.data() + s.size(), c.index);
    return true;
}

// A register or uniform, or a group of consecutive ones joined by '_'.
ParsedOperand parse_register_group(std::string_view text, std::string_view shown,
                                   const LineContext& at) {
    const char prefix = text[0];
    const bool uniform = prefix == 'u';
    const unsigned limit = uniform ? kMaxUniform : kMaxRegister;
    const std::string_view kind = uniform ? "uniform" : "register";

    Component comps[4];
    unsigned n = 0;
    std::string_view rest = text;
    while (true) {
        auto cut = rest.find('_');
        auto piece = rest.substr(0, cut);
        if (n == 4)
            fail(at, "bad " + std::string(kind) + " '" + std::string(shown) +
                         "': at most 4 in a group");
        if (!parse_component(piece, prefix, comps[n]))
            fail(at, "bad " + std::string(kind) + " '" + std::string(shown) + "'");
        if (comps[n].index > limit)
            fail(at, std::string(kind) + " " + std::string(piece) + " does not exist (" + prefix +
                         "0.." + prefix + std::to_string(limit) + ")");
        ++n;
        if (cut == std::string_view::npos) break;
        rest.remove_prefix(cut + 1);
    }

    auto half_index = [](const Component& c) { return c.index * 2 + (c.high ? 1u : 0u); };
    for (unsigned i = 1; i < n; ++i) {
        if (comps[i].half != comps[0].half)
            fail(at, "bad " + std::string(kind) + " '" + std::string(shown) +
                         "': mixes 16- and 32-bit registers");
        bool next = comps[0].half ? half_index(comps[i]) == half_index(comps[i - 1]) + 1
                                  : comps[i].index == comps[i - 1].index + 1;
        if (!next)
            fail(at, "bad " + std::string(kind) + " '" + std::string(shown) +
                         "': registers of a group must be consecutive");
    }

    ParsedOperand p;
    p.op.kind = uniform ? OperandKind::Uniform : OperandKind::Reg;
    p.components = static_cast<std::uint8_t>(n);
    p.sixteen_bit = comps[0].half;
    p.op.first_half =
        static_cast<std::uint16_t>(comps[0].half ? half_index(comps[0]) : comps[0].index * 2);
    p.op.halves = static_cast<std::uint8_t>(comps[0].half ? n : 2 * n);
    return p;
}

bool parse_signed(std::string_view s, std::uint32_t& bits) {
    bool neg = !s.empty() && s[0] == '-';
    if (neg) s.remove_prefix(1);
    std::uint64_t v = 0;
    if (!parse_uint(s, v, neg ? 0x80000000ull : 0xffffffffull)) return false;
    bits = static_cast<std::uint32_t>(neg ? (~v + 1) : v);
    return true;
}

// Float immediates are stored as IEEE-754 binary32 bits. A decimal literal
// only ([-]digits[.digits][e[+-]digits], or inf and nan): no sign '+', no
// blank, no hex float. strtof rather than std::from_chars, which Apple's
// C++ library (libc++) lacks for floating point: the probe builds this file
// with it. No code here sets a locale, so strtof reads '.' as the point.
bool parse_float(std::string_view s, std::uint32_t& bits) {
    if (s.empty() || s.size() > 64) return false;
    for (const char ch : s)
        if (!(is_digit(ch) || ch == '.' || ch == '-' || ch == '+' || ch == 'e' || ch == 'E' ||
              std::isalpha(static_cast<unsigned char>(ch))))
            return false;
    if (s[0] == '+' || s.find_first_of("xXpP") != std::string_view::npos) return false;
    const std::string text(s);
    char* end = nullptr;
    errno = 0;
    const float f = std::strtof(text.c_str(), &end);
    if (end != text.c_str() + text.size()) return false;
    // Beyond binary32: an overflow, or an underflow to zero (a subnormal is kept).
    if (errno == ERANGE && (std::isinf(f) || f == 0.0f)) return false;
    std::memcpy(&bits, &f, sizeof bits);
    return true;
}

}  // namespace

void fail(const LineContext& at, const std::string& reason) {
    throw InputError(at.where(), reason);
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && is_blank_or_cr(s.front())) s.remove_prefix(1);
    while (!s.empty() && is_blank_or_cr(s.back())) s.remove_suffix(1);
    return s;
}

std::string_view strip_comment(std::string_view s) {
    auto hash = s.find('#');
    if (hash != std::string_view::npos) s = s.substr(0, hash);
    return trim(s);
}

std::string_view next_word(std::string_view& rest) {
    rest = trim(rest);
    std::size_t i = 0;
    while (i < rest.size() && !is_blank_or_cr(rest[i])) ++i;
    auto word = rest.substr(0, i);
    rest = trim(rest.substr(i));
    return word;
}

bool parse_uint(std::string_view s, std::uint64_t& out, std::uint64_t max) {
    int base = 10;
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s.remove_prefix(2);
    }
    if (s.empty()) return false;
    std::uint64_t v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v, base);
    if (ec != std::errc() || p != s.data() + s.size() || v > max) return false;
    out = v;
    return true;
}

ParsedOperand parse_operand_body(std::string_view text, std::string_view shown,
                                 const LineContext& at);

ParsedOperand parse_operand(std::string_view text, const LineContext& at) {
    const std::string_view shown = text;
    std::uint8_t mods = 0;
    while (true) {
        if (ends_with(text, ".neg") && !(mods & kModNeg) && !(mods & kModAbs)) {
            mods |= kModNeg;
            text.remove_suffix(4);
        } else if (ends_with(text, ".abs") && !(mods & kModAbs)) {
            mods |= kModAbs;
            text.remove_suffix(4);
        } else {
            break;
        }
    }
    ParsedOperand parsed = parse_operand_body(text, shown, at);
    parsed.op.mods = mods;
    return parsed;
}

ParsedOperand parse_operand_body(std::string_view text, std::string_view shown,
                                 const LineContext& at) {
    CacheHint hint = CacheHint::None;
    if (ends_with(text, ".cache")) {
        hint = CacheHint::Cache;
        text.remove_suffix(6);
    } else if (ends_with(text, ".discard")) {
        hint = CacheHint::Discard;
        text.remove_suffix(8);
    }
    if (text.empty()) fail(at, "missing operand");

    const char c = text[0];
    if ((c == 'r' || c == 'u') && (text.size() == 1 || is_digit(text[1]))) {
        auto p = parse_register_group(text, shown, at);
        if (hint != CacheHint::None && p.op.kind != OperandKind::Reg)
            fail(at, "'" + std::string(shown) + "': cache hints only apply to registers");
        p.op.hint = hint;
        return p;
    }
    if (hint != CacheHint::None)
        fail(at, "'" + std::string(shown) + "': cache hints only apply to registers");

    ParsedOperand p;
    p.op.kind = OperandKind::Imm;
    std::uint64_t sr = 0;
    if (text.size() > 2 && text.substr(0, 2) == "sr") {  // special register number, for get_sr
        if (!parse_uint(text.substr(2), sr, 255))
            fail(at, "bad special register '" + std::string(shown) + "'");
        p.op.imm = static_cast<std::uint32_t>(sr);
        return p;
    }
    if (parse_signed(text, p.op.imm)) return p;
    bool looks_float =
        text.find_first_of(".eE") != std::string_view::npos && text.substr(0, 2) != "0x";
    if (looks_float && parse_float(text, p.op.imm)) return p;
    if (is_digit(c) || c == '-')
        fail(at, "bad immediate '" + std::string(shown) + "' (must fit in 32 bits)");
    fail(at, "bad operand '" + std::string(shown) + "'");
}

}  // namespace agx::trace_detail
