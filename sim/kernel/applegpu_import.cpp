// applegpu disassembly -> agxsim kernel (traces/KERNEL.md, "Importing a
// kernel compiled on a Mac"). The operand orders and meanings below are
// applegpu's (dougallj/applegpu, applegpu.py's instruction descriptors and
// their emulation); what agxsim computes is isa/semantics.hpp. An
// instruction is mapped only where the two agree, otherwise refused with the
// reason.
//
// Listing syntax accepted: the current disassembler's (`fmul32`, `r2.cache`,
// `mov_imm`, `convert ..., rte`, `device_load 0, i32, xy, ...`) and the
// older forms its README and earlier versions print (`fmul`, `$r2`, `mov`
// for immediates, `bitop_mov`, `funop`, rounding `1`/`0`, device_load with
// its leading unknown fields and `single/pair/triple/quad` masks).
#include "sim/kernel/applegpu_import.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <unordered_map>
#include <vector>

#include "sim/common/errors.hpp"
#include "sim/common/format.hpp"
#include "sim/kernel/kernel_program.hpp"
#include "sim/trace/trace_parse.hpp"

namespace agx::kernel {

namespace {

// ---- the listing ------------------------------------------------------------

using ListingLine = ListingInstruction;

std::string trim(const std::string& s) {
    const auto a = s.find_first_not_of(" \t\r");
    if (a == std::string::npos) return {};
    const auto b = s.find_last_not_of(" \t\r");
    return s.substr(a, b - a + 1);
}

bool is_hex(const std::string& s) {
    if (s.empty()) return false;
    for (char c : s)
        if (!std::isxdigit(static_cast<unsigned char>(c))) return false;
    return true;
}

// Whether a line parse_line refused was meant as an instruction: its first
// word ends in ':' and more follows, or its second word is instruction bytes
// (an even number of hex digits). Dropping such a line would change what
// the kernel computes.
bool looks_like_instruction(const std::string& line) {
    std::istringstream in(line);
    std::string first, second;
    if (!(in >> first >> second) || first[0] == '#') return false;
    return first.back() == ':' || (is_hex(second) && second.size() >= 4 && second.size() % 2 == 0);
}

// `   1c: 0a05c282             rcp              r1, r1.discard`. False for a
// line that is not an instruction (blank, a section's name).
bool parse_line(const std::string& raw, unsigned number, ListingLine& out) {
    const std::string s = trim(raw);
    const auto colon = s.find(':');
    if (colon == std::string::npos || !is_hex(s.substr(0, colon))) return false;
    std::istringstream in(s.substr(colon + 1));
    std::string bytes, mnemonic;
    if (!(in >> bytes) || !is_hex(bytes) || bytes.size() % 2 != 0) return false;
    out = ListingLine{};
    out.line = number;
    out.offset = std::strtoull(s.substr(0, colon).c_str(), nullptr, 16);
    std::string rest;
    std::getline(in, rest);
    rest = trim(rest);
    if (rest.rfind("<disassembly failed>", 0) == 0) {
        out.undecoded = true;
        out.mnemonic = "<disassembly failed>";
        return true;
    }
    std::istringstream words(rest);
    if (!(words >> mnemonic)) return false;
    out.mnemonic = mnemonic;
    rest.clear();
    std::getline(words, rest);
    // get_sr prints the special register's meaning in parentheses.
    for (auto open = rest.find('('); open != std::string::npos; open = rest.find('(')) {
        const auto close = rest.find(')', open);
        out.note = rest.substr(open + 1,
                               close == std::string::npos ? std::string::npos : close - open - 1);
        rest.erase(open, close == std::string::npos ? std::string::npos : close - open + 1);
    }
    std::istringstream ops(rest);
    for (std::string item; std::getline(ops, item, ',');) {
        item = trim(item);
        if (!item.empty()) out.operands.push_back(item);
    }
    return true;
}

// ---- operands -----------------------------------------------------------------

// One operand in applegpu's syntax: a register or uniform (or a group of
// them), an immediate, or a word (a condition, a format, `None`, ...), with
// its hints and modifiers.
struct Op {
    enum class Kind { Reg, Uniform, Imm, Word } kind = Kind::Word;
    std::string text;  // as printed
    std::string base;  // without hints and modifiers
    unsigned components = 0;
    bool half = false;   // made of 16-bit halves
    bool high = false;   // a single 16-bit half: the high one
    unsigned first = 0;  // register number of the first component
    bool cache = false, discard = false, abs = false, neg = false, sx = false;

    bool is_register_like() const { return kind == Kind::Reg || kind == Kind::Uniform; }
    // Width in bits of a register or uniform operand.
    unsigned bits() const { return components * (half ? 16u : 32u); }
    bool is_zero() const { return kind == Kind::Imm && (base == "0" || base == "0.0"); }
    bool is_integer() const {
        if (kind != Kind::Imm) return false;
        char* end = nullptr;
        std::strtoll(base.c_str(), &end, 0);
        return *end == '\0';
    }
    long long integer() const { return std::strtoll(base.c_str(), nullptr, 0); }
};

bool parse_component(const std::string& s, char prefix, unsigned& n, bool& half, bool& high) {
    if (s.size() < 2 || s[0] != prefix) return false;
    std::string digits = s.substr(1);
    half = high = false;
    if (digits.back() == 'l' || digits.back() == 'h') {
        half = true;
        high = digits.back() == 'h';
        digits.pop_back();
    }
    if (digits.empty() || digits.size() > 3) return false;
    for (char c : digits)
        if (!std::isdigit(static_cast<unsigned char>(c))) return false;
    n = static_cast<unsigned>(std::stoul(digits));
    return true;
}

Op parse_op(const std::string& text) {
    Op o;
    o.text = text;
    std::string s = text;
    if (!s.empty() && s[0] == '$') {  // older listings' cache hint
        o.cache = true;
        s = s.substr(1);
    }
    // Trailing modifiers: ".cache", ".discard", ".abs", ".neg", ".sx".
    while (true) {
        const auto dot = s.rfind('.');
        if (dot == std::string::npos) break;
        const std::string m = s.substr(dot + 1);
        if (m == "cache")
            o.cache = true;
        else if (m == "discard")
            o.discard = true;
        else if (m == "abs")
            o.abs = true;
        else if (m == "neg")
            o.neg = true;
        else if (m == "sx")
            o.sx = true;
        else
            break;
        s = s.substr(0, dot);
    }
    o.base = s;
    if (s.empty()) return o;
    if ((s[0] == 'r' || s[0] == 'u') && s.size() >= 2 &&
        std::isdigit(static_cast<unsigned char>(s[1]))) {
        std::istringstream parts(s);
        bool ok = true;
        unsigned count = 0;
        for (std::string piece; std::getline(parts, piece, '_');) {
            unsigned n = 0;
            bool half = false, high = false;
            if (!parse_component(piece, s[0], n, half, high)) {
                ok = false;
                break;
            }
            if (count == 0) {
                o.first = n;
                o.half = half;
                o.high = high;
            } else if (half != o.half) {
                ok = false;
                break;
            }
            ++count;
        }
        if (ok) {
            o.kind = s[0] == 'r' ? Op::Kind::Reg : Op::Kind::Uniform;
            o.components = count;
            return o;
        }
    }
    // A number: decimal or hex integers, decimal floats (float immediates).
    const char c = s[0];
    if (std::isdigit(static_cast<unsigned char>(c)) || ((c == '-' || c == '+') && s.size() > 1)) {
        char* end = nullptr;
        std::strtod(s.c_str(), &end);
        char* iend = nullptr;
        std::strtoll(s.c_str(), &iend, 0);
        if (*end == '\0' || *iend == '\0') o.kind = Op::Kind::Imm;
    }
    return o;
}

// Emitting an operand in agxsim's spelling: one hint at most.
std::string spelled(const Op& o, const std::string& base) {
    if (o.kind != Op::Kind::Reg) return base;
    if (o.discard) return base + ".discard";
    if (o.cache) return base + ".cache";
    return base;
}

// ---- condition names ---------------------------------------------------------

// Older listings print the encodings applegpu had not named yet as numbers
// (cc | inverted << 3): they are looked up as the names it gives them now.
std::string int_condition(const std::string& c) {
    static const std::map<std::string, std::string> m = {
        {"ueq", "eq"},   {"seq", "eq"},   {"nueq", "ne"}, {"nseq", "ne"},  {"ult", "ult"},
        {"ugt", "ugt"},  {"slt", "slt"},  {"sgt", "sgt"}, {"ugte", "uge"}, {"ulte", "ule"},
        {"sgte", "sge"}, {"slte", "sle"}, {"0", "eq"},    {"1", "ult"},    {"2", "ugt"},
        {"4", "eq"},     {"5", "slt"},    {"6", "sgt"},   {"8", "ne"},     {"9", "uge"},
        {"10", "ule"},   {"12", "ne"},    {"13", "sge"},  {"14", "sle"}};
    auto it = m.find(c);
    return it == m.end() ? "" : it->second;
}
std::string float_condition(const std::string& c) {
    static const std::map<std::string, std::string> m = {
        {"eq", "eq"},  {"lt", "lt"},  {"gt", "gt"}, {"ltn", "ltn"}, {"gtn", "gtn"}, {"gte", "ge"},
        {"lte", "le"}, {"neq", "ne"}, {"0", "eq"},  {"1", "lt"},    {"2", "gt"},    {"3", "ltn"},
        {"5", "ge"},   {"6", "le"},   {"7", "gtn"}, {"8", "ne"}};
    auto it = m.find(c);
    return it == m.end() ? "" : it->second;
}

// ---- one instruction -------------------------------------------------------------

constexpr const char* kScratch = "\x01scratch\x01";  // replaced once every register is known

struct Usage {
    unsigned halves = 0;  // registers used: r0l .. this many halves
    std::vector<std::string> uniforms;
    std::set<std::string> memory_bases;
    bool scratch = false;
};

class Ctx {
  public:
    Ctx(const std::string& path, const ListingLine& l, Usage& usage,
        const std::function<std::string(const Ctx&, const std::string&)>& target)
        : path_(path), l_(l), usage_(usage), target_(target) {
        for (const auto& t : l.operands) ops_.push_back(parse_op(t));
    }

    const ListingLine& line() const { return l_; }
    std::string where() const { return path_ + ":" + std::to_string(l_.line); }
    [[noreturn]] void fail(const std::string& why) const { throw InputError(where(), why); }

    std::size_t count() const { return ops_.size(); }
    void need(std::size_t lo, std::size_t hi) const {
        if (ops_.size() < lo || ops_.size() > hi)
            fail(
                "'" + l_.mnemonic + "' with " + std::to_string(ops_.size()) +
                " operands (applegpu prints " +
                (lo == hi ? std::to_string(lo) : std::to_string(lo) + " to " + std::to_string(hi)) +
                ")");
    }
    void need(std::size_t n) const { need(n, n); }
    const Op& op(std::size_t i) const {
        if (i >= ops_.size())
            fail("'" + l_.mnemonic + "' needs at least " + std::to_string(i + 1) + " operands");
        return ops_[i];
    }
    const std::string& word(std::size_t i) const { return op(i).text; }

    // A destination register (hints kept: agxsim takes `.cache` on one).
    std::string dst(std::size_t i) {
        const Op& o = op(i);
        if (o.kind != Op::Kind::Reg)
            fail("destination '" + o.text + "' of '" + l_.mnemonic + "' is not a register");
        no_modifiers(o, false);
        return reg(o);
    }
    // A source of an integer or bitwise operation of `width` bits: `.sx`
    // (sign extension) is dropped when it changes nothing (the operand is as
    // wide as the operation); float modifiers are refused.
    std::string isrc(std::size_t i, unsigned width) {
        const Op& o = op(i);
        if (o.sx && o.is_register_like() && o.bits() < width)
            fail("'" + o.text + "': sign-extending a " + std::to_string(o.bits()) +
                 "-bit source into a " + std::to_string(width) +
                 "-bit operation has no agxsim form");
        no_modifiers(o, true);
        return any(o);
    }
    // A source of a float operation: `.abs` and `.neg` are kept (agxsim
    // applies them to the value read, absolute value first).
    std::string fsrc(std::size_t i) {
        const Op& o = op(i);
        if (o.sx) fail("'" + o.text + "': sign extension ('.sx') of a float source");
        return any(o) + (o.abs ? ".abs" : "") + (o.neg ? ".neg" : "");
    }
    // Any register, uniform or immediate, as written (hints kept).
    std::string any(const Op& o) {
        if (o.kind == Op::Kind::Word)
            fail("operand '" + o.text + "' of '" + l_.mnemonic + "' has no agxsim equivalent");
        if (o.kind == Op::Kind::Reg) return reg(o);
        if (o.kind == Op::Kind::Uniform) note_uniform(o.base);
        return o.base;
    }
    std::string reg(const Op& o) { return reg(o, o.base); }
    // `base` spelled with o's hint, counted among the registers used.
    std::string reg(const Op& o, const std::string& base) {
        const Op b = parse_op(base);
        const unsigned first_half = b.half ? b.first * 2 + (b.high ? 1 : 0) : b.first * 2;
        const unsigned halves = b.half ? b.components : 2 * b.components;
        usage_.halves = std::max(usage_.halves, first_half + halves);
        return spelled(o, base);
    }
    void note_uniform(const std::string& u) {
        if (std::find(usage_.uniforms.begin(), usage_.uniforms.end(), u) == usage_.uniforms.end())
            usage_.uniforms.push_back(u);
    }
    void memory_base(const std::string& u) { usage_.memory_bases.insert(u); }
    void use_halves(unsigned n) { usage_.halves = std::max(usage_.halves, n); }
    std::string scratch() {
        usage_.scratch = true;
        return kScratch;
    }

    void no_modifiers(const Op& o, bool sx_allowed) const {
        if (o.abs || o.neg)
            fail("'" + o.text + "': the float source modifier '." + (o.abs ? "abs" : "neg") +
                 "' has no agxsim equivalent");
        if (o.sx && !sx_allowed)
            fail("'" + o.text + "': sign extension ('.sx') has no agxsim form here");
    }

    std::string target(const std::string& t) const { return target_(*this, t); }

    bool is_branch = false;  // the line names a label (not checked against the catalogue)

  private:
    const std::string& path_;
    const ListingLine& l_;
    Usage& usage_;
    const std::function<std::string(const Ctx&, const std::string&)>& target_;
    std::vector<Op> ops_;
};

using Handler = std::function<std::string(Ctx&)>;

// `lsl N` as a trailing operand (iadd, imadd, memory): N, or 0 if absent.
unsigned lsl_of(const Ctx& c, std::size_t i) {
    if (i >= c.count()) return 0;
    const std::string& t = c.word(i);
    if (t.rfind("lsl", 0) != 0) c.fail("expected 'lsl N', got '" + t + "'");
    return static_cast<unsigned>(std::strtoul(t.c_str() + 3, nullptr, 0));
}

// `mask 0xFF` (bit-field instructions): the field's bit count, 0 (all 32)
// when absent.
unsigned field_bits(const Ctx& c, std::size_t i) {
    if (i >= c.count()) return 0;
    const std::string& t = c.word(i);
    if (t.rfind("mask", 0) != 0) c.fail("expected 'mask 0x...', got '" + t + "'");
    const unsigned long long m = std::strtoull(t.c_str() + 4, nullptr, 0);
    unsigned bits = 0;
    while (bits < 64 && ((m >> bits) & 1u)) ++bits;
    if (bits == 0 || bits > 32 || (bits < 64 && (m >> bits) != 0))
        c.fail("'" + t + "' is not a low-bits mask");
    return bits == 32 ? 0 : bits;
}

std::string width_suffix(const Ctx& c, const Op& d, const std::string& what) {
    if (d.kind != Op::Kind::Reg)
        c.fail("destination '" + d.text + "' of '" + c.line().mnemonic + "' is not a register");
    if (d.bits() == 16) return "16";
    if (d.bits() == 32) return "32";
    c.fail("a " + std::to_string(d.bits()) + "-bit " + what + " has no agxsim equivalent");
}

// The signedness of a multiply's (or saturating add's) sources: `.sx` on every register source,
// or on none (immediates are zero-extended 8-bit values either way).
bool multiply_signed(const Ctx& c, std::initializer_list<std::size_t> sources) {
    int with = 0, without = 0;
    for (std::size_t i : sources) {
        const Op& o = c.op(i);
        if (!o.is_register_like()) continue;
        (o.sx ? with : without)++;
    }
    if (with && without)
        c.fail(
            "one source sign-extended ('.sx') and one not: agxsim takes both sources signed "
            "or both unsigned");
    return with > 0;
}

// ---- memory ------------------------------------------------------------------------

// A device or threadgroup access, from any of applegpu's printed forms:
//   now:   G, FMT, MASK, R, A, O, signed|unsigned[, lsl S][, U]
//   2022:  G, FMT, single|pair|triple|quad, R, A, O, signed|unsigned[, lsl S]
//   2021:  U, G, U, U, U, FMT, MASK, R, A, O, signed|unsigned[, lsl S]
//   README: U, G, FMT, MASK, U, R, A, O[, lsl S]   (the first U's bit 0: unsigned)
//   threadgroup: FMT, MASK, R, A, O
struct Access {
    std::string format;  // i8 i16 i32
    std::size_t data = 0, base = 0, offset = 0;
    int wait_group = -1;
    bool unsigned_offset = false;
    unsigned shift = 0;
};

Access access(const Ctx& c) {
    static const std::set<std::string> kFormats = {
        "i8",      "i16",     "i32",    "f16",      "u8norm", "s8norm",       "u16norm",
        "s16norm", "rgb10a2", "srgba8", "rg11b10f", "rgb9e5", "rg11b10f.rtz", "rgb9e5.rtz"};
    Access a;
    std::size_t f = 0;
    while (f < c.count() && !kFormats.count(c.word(f))) {
        if (!c.op(f).is_integer())
            c.fail("memory format '" + c.word(f) + "' has no agxsim equivalent (i8, i16, i32)");
        ++f;
    }
    if (f == c.count()) c.fail("no memory format (i8, i16, i32) among the operands");
    std::vector<long long> leading;
    for (std::size_t i = 0; i < f; ++i) leading.push_back(c.op(i).integer());
    if (leading.size() == 1) a.wait_group = static_cast<int>(leading[0]);
    if (leading.size() >= 2) a.wait_group = static_cast<int>(leading[1]);
    if (leading.size() == 2) a.unsigned_offset = (leading[0] & 1) != 0;

    // Between the format and the data registers: the mask (and in the
    // README's form an unknown field).
    std::size_t d = f + 1;
    std::vector<std::string> between;
    while (d < c.count() && c.op(d).kind != Op::Kind::Reg) between.push_back(c.word(d++));
    if (d == c.count()) c.fail("no data registers (the mask selects none)");
    a.data = d;
    static const std::map<std::string, unsigned> kContiguous = {
        {"x", 1},      {"xy", 2},   {"xyz", 3}, {"xyzw", 4}, {"single", 1}, {"pair", 2},
        {"triple", 3}, {"quad", 4}, {"1", 1},   {"3", 2},    {"7", 3},      {"15", 4}};
    if (!between.empty()) {
        auto it = kContiguous.find(between[0]);
        if (it == kContiguous.end())
            c.fail("mask '" + between[0] +
                   "' skips elements in memory: agxsim moves consecutive elements");
        if (it->second != c.op(d).components)
            c.fail("mask '" + between[0] + "' and '" + c.word(d) + "' differ in their count");
    }
    if (d + 2 >= c.count()) c.fail("cannot find the base and offset operands");
    a.base = d + 1;
    a.offset = d + 2;
    for (std::size_t i = d + 3; i < c.count(); ++i) {
        const std::string& t = c.word(i);
        if (t == "signed" || t == "unsigned") {
            a.unsigned_offset = t == "unsigned";
        } else if (t.rfind("lsl", 0) == 0) {
            a.shift = lsl_of(c, i);
        } else if (!c.op(i).is_integer()) {
            c.fail("operand '" + t + "' of '" + c.line().mnemonic + "' has no agxsim equivalent");
        }
    }
    a.format = c.word(f);
    const Op& data = c.op(d);
    if (a.format == "f16") {
        // Raw 16-bit values into 16-bit registers (applegpu: not converted).
        if (!data.half)
            c.fail("format 'f16' into 32-bit registers has no agxsim equivalent (i8, i16, i32)");
        a.format = "i16";
    }
    if (a.format != "i8" && a.format != "i16" && a.format != "i32")
        c.fail("memory format '" + a.format + "' has no agxsim equivalent (i8, i16, i32)");
    if (a.format == "i32" && data.half) c.fail("format 'i32' into 16-bit registers");
    return a;
}

// `format=` when the format is not the data registers' own width.
std::string format_attr(const Access& a, const Op& data) {
    const std::string natural = data.half ? "i16" : "i32";
    return a.format == natural ? "" : " format=" + a.format;
}

// A threadgroup base or offset: 32-bit registers or immediates in agxsim;
// applegpu's are 16-bit registers, uniforms or immediates.
std::string threadgroup_address(Ctx& c, std::size_t i, const char* what) {
    const Op& o = c.op(i);
    if (o.is_register_like() && o.bits() != 32 && o.bits() != 16)
        c.fail("threadgroup " + std::string(what) + " '" + o.text + "' is a " +
               std::to_string(o.bits()) +
               "-bit register: agxsim's threadgroup addresses are 16 or 32 bits (or an immediate)");
    return c.isrc(i, o.is_register_like() ? o.bits() : 32);
}

// ---- the mnemonic table ---------------------------------------------------------

const std::unordered_map<std::string, Handler>& handlers() {
    static const std::unordered_map<std::string, Handler> table = [] {
        std::unordered_map<std::string, Handler> h;

        // Float arithmetic: same operands; agxsim's width rules decide the rest.
        auto float_op = [](std::string agx, std::size_t sources) {
            return [agx, sources](Ctx& c) {
                c.need(1 + sources);
                std::string s = agx + " " + c.dst(0);
                for (std::size_t i = 1; i <= sources; ++i) s += ", " + c.fsrc(i);
                return s;
            };
        };
        for (const char* m : {"fadd32", "fmul32", "fadd16", "fmul16"}) h[m] = float_op(m, 2);
        for (const char* m : {"fmadd32", "fmadd16"}) h[m] = float_op(m, 3);
        // Older listings: fadd/fmul/fmadd are the 32-bit operations.
        h["fadd"] = float_op("fadd32", 2);
        h["fmul"] = float_op("fmul32", 2);
        h["fmadd"] = float_op("fmadd32", 3);
        for (const char* m : {"floor", "ceil", "trunc", "rint", "sin_pt_1", "sin_pt_2"})
            h[m] = float_op(m, 1);
        // The special functions print no width: the destination's.
        for (const char* m : {"rcp", "rsqrt", "exp2", "log2"}) {
            const std::string stem = m;
            h[m] = [stem](Ctx& c) {
                c.need(2);
                const std::string w = width_suffix(c, c.op(0), stem);
                const std::string agx =
                    stem == "exp2" || stem == "log2" ? stem + "_" + w : stem + w;
                return agx + " " + c.dst(0) + ", " + c.fsrc(1);
            };
        }
        // The earliest listings print sin_pt_1/2 as funop with their opcode.
        h["funop"] = [](Ctx& c) {
            c.need(3);
            const std::string& code = c.word(2);
            std::string agx;
            if (code == "0b001010") agx = "sin_pt_1";
            if (code == "0b001110") agx = "sin_pt_2";
            if (agx.empty()) c.fail("funop " + code + " has no agxsim equivalent");
            return agx + " " + c.dst(0) + ", " + c.fsrc(1);
        };

        // Integer add/subtract: D, A, B[, lsl S]; B shifted, negated for isub.
        auto iadd = [](bool sub) {
            return [sub](Ctx& c) {
                c.need(3, 4);
                const unsigned shift = lsl_of(c, 3);
                const std::string w = width_suffix(c, c.op(0), "integer add");
                const unsigned bits = w == "16" ? 16 : 32;
                if (shift > 4)
                    c.fail("'lsl " + std::to_string(shift) +
                           "': applegpu's shift of 5 or more drops the second source; agxsim "
                           "shifts by 0 to 4");
                const bool saturate = c.line().mnemonic.find(".sat") != std::string::npos;
                std::string s;
                if (saturate && shift == 0) {  // applegpu saturates only without a shift
                    if (sub) c.fail("a saturating subtract has no agxsim equivalent");
                    if (bits != 32) c.fail("a 16-bit saturating add has no agxsim equivalent");
                    const bool sgn = multiply_signed(c, {1, 2});
                    s = "iaddsat32 " + c.dst(0) + ", " + c.isrc(1, 32) + ", " + c.isrc(2, 32);
                    if (sgn) s += " signed=1";
                    return s;
                }
                s = "iadd" + w + " " + c.dst(0) + ", " + c.isrc(1, bits) + ", " + c.isrc(2, bits);
                if (sub) s += " neg=1";
                if (shift) s += " shift=" + std::to_string(shift);
                return s;
            };
        };
        h["iadd"] = h["iadd.sat"] = iadd(false);
        h["isub"] = h["isub.sat"] = iadd(true);

        // Integer multiply-add: D, A, B, C[, lsl S]; D = A * B + (C << S).
        auto imadd = [](bool sub) {
            return [sub](Ctx& c) {
                c.need(4, 5);
                if (c.line().mnemonic.find(".sat") != std::string::npos)
                    c.fail("a saturating multiply-add has no agxsim equivalent");
                const unsigned shift = lsl_of(c, 4);
                if (shift > 4)
                    c.fail("'lsl " + std::to_string(shift) + "': agxsim shifts by 0 to 4");
                const Op& d = c.op(0);
                if (d.kind != Op::Kind::Reg)
                    c.fail("destination '" + d.text + "' is not a register");
                const bool narrow_sources = (c.op(1).is_register_like() && c.op(1).bits() == 16) ||
                                            (c.op(2).is_register_like() && c.op(2).bits() == 16);
                std::string s;
                if (d.bits() == 64 || (d.bits() == 32 && narrow_sources)) {
                    // 32x32 + 64 -> 64, or 16x16 + 32 -> 32: agxsim's wide forms.
                    const bool wide = d.bits() == 64;
                    if (sub || shift)
                        c.fail(std::string(wide ? "a 64-bit" : "a 16x16+32-bit") +
                               " multiply-add with " + (sub ? "imsub" : "a shift") +
                               " has no agxsim equivalent");
                    const bool sgn = multiply_signed(c, {1, 2});
                    const unsigned in = wide ? 32 : 16;
                    s = std::string(wide ? "imadd32x64 " : "imadd16x32 ") + c.dst(0) + ", " +
                        c.isrc(1, in) + ", " + c.isrc(2, in) + ", " + c.isrc(3, d.bits());
                    if (sgn) s += " signed=1";
                    return s;
                }
                const std::string w = width_suffix(c, d, "integer multiply-add");
                const unsigned bits = w == "16" ? 16 : 32;
                // The low half of a product does not depend on sign extension.
                s = "imadd" + w + " " + c.dst(0) + ", " + c.isrc(1, bits) + ", " + c.isrc(2, bits) +
                    ", " + c.isrc(3, bits);
                if (sub) s += " neg=1";
                if (shift) s += " shift=" + std::to_string(shift);
                return s;
            };
        };
        h["imadd"] = h["imadd.sat"] = imadd(false);
        h["imsub"] = h["imsub.sat"] = imadd(true);

        // Bitwise: the aliases applegpu prints for a truth table, and the table.
        auto bitop = [](std::string name) {
            return [name](Ctx& c) {
                c.need(3);
                const std::string w = width_suffix(c, c.op(0), "bitwise operation");
                const unsigned bits = w == "16" ? 16 : 32;
                return "bitop" + w + " " + c.dst(0) + ", " + c.isrc(1, bits) + ", " +
                       c.isrc(2, bits) + " op=" + name;
            };
        };
        for (const char* m : {"and", "or", "xor", "nand", "nor", "xnor"}) h[m] = bitop(m);
        h["not"] = [](Ctx& c) {
            c.need(2);
            const std::string w = width_suffix(c, c.op(0), "bitwise operation");
            return "bitop" + w + " " + c.dst(0) + ", " + c.isrc(1, w == "16" ? 16 : 32) +
                   ", 0 op=not_a";
        };
        // mov: the bitop alias (now), or the immediate move (older listings):
        // both write the source's value, zero-extended.
        auto mov = [](Ctx& c, std::size_t d, std::size_t a) {
            return "mov " + c.dst(d) + ", " + c.isrc(a, 64);
        };
        h["mov"] = [mov](Ctx& c) {
            c.need(2);
            return mov(c, 0, 1);
        };
        h["bitop_mov"] = h["mov"];
        // Tables 0011 and 1100: applegpu's emulation (tested on hardware)
        // writes A.
        h["bitop_mov_a"] = [mov](Ctx& c) {
            c.need(4);
            return mov(c, 1, 2);
        };
        h["bitop"] = [mov](Ctx& c) {
            c.need(4);
            const std::string& tt = c.word(0);
            if (tt.size() != 4 || tt.find_first_not_of("01") != std::string::npos)
                c.fail("truth table '" + tt + "' (4 binary digits expected)");
            unsigned table = 0;
            for (unsigned i = 0; i < 4; ++i) table |= static_cast<unsigned>(tt[i] - '0') << i;
            if (table == 3 || table == 12) return mov(c, 1, 2);
            static const std::map<unsigned, std::string> names = {
                {0, "zero"}, {1, "nor"},  {2, "andn"}, {5, "not_a"}, {6, "xor"}, {7, "nand"},
                {8, "and"},  {9, "xnor"}, {10, "a"},   {11, "orn"},  {14, "or"}, {15, "ones"}};
            const std::string w = width_suffix(c, c.op(1), "bitwise operation");
            const unsigned bits = w == "16" ? 16 : 32;
            const std::string d = c.dst(1), a = c.isrc(2, bits), b = c.isrc(3, bits);
            // ~a & b and ~a | b are andn and orn with the sources swapped.
            if (table == 4) return "bitop" + w + " " + d + ", " + b + ", " + a + " op=andn";
            if (table == 13) return "bitop" + w + " " + d + ", " + b + ", " + a + " op=orn";
            return "bitop" + w + " " + d + ", " + a + ", " + b + " op=" + names.at(table);
        };

        // Shifts and bit fields: D, A, B, C[, mask M] (applegpu's operands).
        h["bfi"] = [](Ctx& c) {  // (A & ~(M << C)) | ((B & M) << C)
            c.need(4, 5);
            const unsigned bits = field_bits(c, 4);
            if (c.op(1).is_zero() && bits == 0)
                return "shl " + c.dst(0) + ", " + c.isrc(2, 32) + ", " + c.isrc(3, 32);
            return "bfi " + c.dst(0) + ", " + c.isrc(1, 32) + ", " + c.isrc(2, 32) + ", " +
                   c.isrc(3, 32) + ", " + std::to_string(bits);
        };
        h["bfeil"] = [](Ctx& c) {  // (A & ~M) | ((B >> C) & M)
            c.need(4, 5);
            const unsigned bits = field_bits(c, 4);
            if (bits == 0)  // every bit from B: A does not matter
                return "shr " + c.dst(0) + ", " + c.isrc(2, 32) + ", " + c.isrc(3, 32);
            if (!c.op(1).is_zero())
                c.fail("bfeil inserting into '" + c.word(1) +
                       "' (not 0) has no agxsim equivalent: agxsim's bfeil only extracts");
            return "bfeil " + c.dst(0) + ", " + c.isrc(2, 32) + ", " + c.isrc(3, 32) + ", " +
                   std::to_string(bits);
        };
        h["extr"] = [](Ctx& c) {  // ((B:A) >> C) & M
            c.need(4, 5);
            if (field_bits(c, 4) != 0) c.fail("extr with a mask has no agxsim equivalent");
            return "extr " + c.dst(0) + ", " + c.isrc(1, 32) + ", " + c.isrc(2, 32) + ", " +
                   c.isrc(3, 32);
        };
        h["asr"] = [](Ctx& c) {
            c.need(3);
            return "asr " + c.dst(0) + ", " + c.isrc(1, 32) + ", " + c.isrc(2, 32);
        };
        for (const char* m : {"shlhi", "shrhi", "asrh"}) {
            const std::string mm = m;
            h[m] = [mm](Ctx& c) -> std::string {
                c.fail("applegpu's '" + mm +
                       "' (a shift of the high half with insert) is not agxsim's '" + mm +
                       "' (a 16-bit shift): no agxsim equivalent");
            };
        }
        for (const char* m : {"popcount", "bitrev", "ffs"}) {
            const std::string mm = m;
            h[m] = [mm](Ctx& c) {
                c.need(2);
                return mm + " " + c.dst(0) + ", " + c.isrc(1, 32);
            };
        }
        h["intl"] = [](Ctx& c) {
            c.need(3);
            return "intl " + c.dst(0) + ", " + c.isrc(1, 16) + ", " + c.isrc(2, 16);
        };

        h["convert"] = [](Ctx& c) {
            c.need(4);
            const std::string& mode = c.word(0);
            const bool to_float = mode == "u32_to_f" || mode == "s32_to_f";
            if (!to_float && mode != "f_to_u32" && mode != "f_to_s32")
                c.fail("convert mode '" + mode +
                       "' has no agxsim equivalent (u32_to_f s32_to_f f_to_u32 f_to_s32)");
            // agxsim rounds int -> float to nearest even and float -> int
            // toward zero; older listings print rte as 1 and rtz as 0.
            std::string round = c.word(3);
            if (round == "1") round = "rte";
            if (round == "0") round = "rtz";
            if (round != (to_float ? "rte" : "rtz"))
                c.fail("convert " + mode + " rounding '" + c.word(3) + "': agxsim models " +
                       (to_float ? "rte" : "rtz") + " only");
            return "convert " + c.dst(1) + ", " + c.isrc(2, 32) + " mode=" + mode;
        };

        // Compare and select: CC, D, A, B, X, Y.
        h["icmpsel"] = [](Ctx& c) {
            c.need(6);
            const std::string cc = int_condition(c.word(0));
            if (cc.empty())
                c.fail("integer condition '" + c.word(0) + "' has no agxsim equivalent");
            std::string w = width_suffix(c, c.op(1), "compare-select");
            // A 32-bit compare selecting into a 16-bit register (a boolean).
            if (c.op(2).bits() == 32 || c.op(3).bits() == 32) w = "32";
            const unsigned bits = w == "16" ? 16 : 32;
            return "icmpsel" + w + " " + c.dst(1) + ", " + c.isrc(2, bits) + ", " +
                   c.isrc(3, bits) + ", " + c.isrc(4, bits) + ", " + c.isrc(5, bits) + " cc=" + cc;
        };
        h["fcmpsel"] = [](Ctx& c) {
            c.need(6);
            const std::string cc = float_condition(c.word(0));
            if (cc.empty()) c.fail("float condition '" + c.word(0) + "' has no agxsim equivalent");
            std::string w = width_suffix(c, c.op(1), "compare-select");
            if (c.op(2).bits() == 32 || c.op(3).bits() == 32) w = "32";
            std::string s = "fcmpsel" + w + " " + c.dst(1) + ", " + c.fsrc(2) + ", " + c.fsrc(3);
            // X and Y are copied as bits: an immediate is a raw 8-bit value.
            // agxsim reads 16-bit float operations' immediates as binary32
            // and rounds them to binary16, so write the half whose bits it is.
            for (std::size_t i = 4; i < 6; ++i) {
                const Op& o = c.op(i);
                if (w == "16" && o.is_integer() && o.integer() != 0) {
                    char buf[64];
                    std::snprintf(buf, sizeof buf, "%.17g",
                                  static_cast<double>(o.integer()) / 16777216.0);
                    s += std::string(", ") + buf;
                } else {
                    s += ", " + c.isrc(i, w == "16" ? 16 : 32);
                }
            }
            return s + " cc=" + cc;
        };

        // Execution-mask stack: r0l, CC, A, B, N.
        auto stack_op = [](std::string m) {
            return [m](Ctx& c) {
                c.need(5);
                const Op& d = c.op(0);
                if (d.base != "r0l")
                    c.fail("'" + m + "' on '" + d.text +
                           "': agxsim keeps the exec-mask stack in r0l");
                const bool is_float = m.find("fcmp") != std::string::npos;
                const std::string cc =
                    is_float ? float_condition(c.word(1)) : int_condition(c.word(1));
                if (cc.empty())
                    c.fail(std::string(is_float ? "float" : "integer") + " condition '" +
                           c.word(1) + "' has no agxsim equivalent");
                // 16-bit operands compare at 16 bits (agxsim's rule: a 16-bit
                // register or uniform makes the compare 16-bit), so a 16-bit
                // operand beside a 32-bit one has no agxsim form.
                bool has16 = false, has32 = false;
                for (std::size_t i = 2; i < 4; ++i)
                    if (c.op(i).is_register_like()) {
                        has16 = has16 || c.op(i).bits() == 16;
                        has32 = has32 || c.op(i).bits() != 16;
                    }
                if (has16 && has32)
                    c.fail("'" + c.word(2) + "', '" + c.word(3) + "': agxsim's " + m +
                           " compares two 16-bit or two 32-bit values, not one of each");
                c.use_halves(1);
                const unsigned width = has16 ? 16 : 32;
                const std::string a = is_float ? c.fsrc(2) : c.isrc(2, width);
                const std::string b = is_float ? c.fsrc(3) : c.isrc(3, width);
                return m + " " + a + ", " + b + " cc=" + cc + " n=" + c.word(4);
            };
        };
        for (const char* m :
             {"if_icmp", "if_fcmp", "else_icmp", "else_fcmp", "while_icmp", "while_fcmp"})
            h[m] = stack_op(m);
        auto exec_r0l = [](const Ctx& c) {
            if (c.op(0).base != "r0l")
                c.fail("'" + c.line().mnemonic + "' on '" + c.word(0) +
                       "': agxsim keeps the exec-mask stack in r0l");
        };
        // applegpu's aliases of if_fcmp r0l, eq, 0.0, 0.0, n (a compare that holds).
        h["push_exec"] = [exec_r0l](Ctx& c) {
            c.need(2);
            exec_r0l(c);
            c.use_halves(1);
            return "if_fcmp 0.0, 0.0 cc=eq n=" + c.word(1);
        };
        h["update_exec"] = [exec_r0l](Ctx& c) {
            c.need(1);
            exec_r0l(c);
            c.use_halves(1);
            return std::string("if_fcmp 0.0, 0.0 cc=eq n=0");
        };
        h["else_exec"] = [exec_r0l](Ctx& c) {
            c.need(2);
            exec_r0l(c);
            c.use_halves(1);
            return "else_icmp 0, 0 cc=eq n=" + c.word(1);
        };
        h["pop_exec"] = [exec_r0l](Ctx& c) {
            c.need(2);
            exec_r0l(c);
            c.use_halves(1);
            return "pop_exec " + c.word(1);
        };

        // Branches: absolute offsets, as the disassembler prints them.
        for (const char* m : {"jmp_exec_any", "jmp_exec_none"}) {
            const std::string mm = m;
            h[m] = [mm](Ctx& c) {
                c.need(1);
                c.is_branch = true;
                return mm + " " + c.target(c.word(0));
            };
        }
        h["call"] = [](Ctx& c) {
            c.need(1);
            c.use_halves(4);  // the link register r1
            if (c.op(0).kind == Op::Kind::Reg) return "call " + c.reg(c.op(0));
            c.is_branch = true;
            return "call " + c.target(c.word(0));
        };
        h["ret"] = [](Ctx& c) {
            c.need(1);
            return "ret " + c.reg(c.op(0));
        };
        h["stop"] = [](Ctx& c) {
            c.need(0);
            return std::string("stop");
        };
        h["wait"] = [](Ctx& c) {
            c.need(1);
            return "wait " + c.word(0);
        };
        h["threadgroup_barrier"] = [](Ctx& c) {
            c.need(0);
            return std::string("threadgroup_barrier");
        };
        // Its operands name the memory kinds and scope; agxsim's barrier has
        // no effect of its own (ordering comes from issue order).
        h["memory_barrier"] = [](Ctx&) { return std::string("memory_barrier"); };

        h["get_sr"] = [](Ctx& c) {
            c.need(2);
            const std::string& sr = c.word(1);
            if (sr.rfind("sr", 0) != 0) c.fail("'" + sr + "' is not a special register");
            const unsigned n = static_cast<unsigned>(std::strtoul(sr.c_str() + 2, nullptr, 10));
            if (!is_special_register(n))
                c.fail("special register " + sr +
                       (c.line().note.empty() ? "" : " (" + c.line().note + ")") +
                       " is not one agxsim models (traces/KERNEL.md, \"Special registers\")");
            return "get_sr " + c.dst(0) + ", " + sr;
        };
        h["mov_imm"] = [](Ctx& c) {
            c.need(2, 3);
            if (c.count() == 3 && c.word(2) != "0b0" && c.word(2) != "0")
                c.fail(
                    "mov_imm's kill-helper-invocations flag (a fragment-shader feature) has "
                    "no agxsim equivalent");
            if (!c.op(1).is_integer()) c.fail("mov_imm of '" + c.word(1) + "'");
            return "mov_imm " + c.dst(0) + ", " + c.word(1);
        };

        // SIMD shuffles: D, A, B (B a 16-bit lane, delta or mask).
        // agxsim's simd_shuffle and _xor read only B's low 5 bits
        // (quad_shuffle its low 2), so B's low half rNl reads as rN.
        auto low_bits_index = [](Ctx& c, std::size_t i) -> std::string {
            const Op& o = c.op(i);
            if (o.is_register_like() && o.half && o.components == 1) {
                if (o.high)
                    c.fail("lane operand '" + o.text +
                           "' (a high half) has no agxsim form: agxsim's shuffles take a 32-bit "
                           "lane operand");
                const std::string whole = std::string(1, o.base[0]) + std::to_string(o.first);
                if (o.kind == Op::Kind::Uniform) {
                    c.note_uniform(whole);
                    return whole;
                }
                return c.reg(o, whole);
            }
            return c.isrc(i, 32);
        };
        for (const char* m : {"simd_shuffle", "simd_shuffle_xor", "quad_shuffle"}) {
            const std::string mm = m;
            h[m] = [mm, low_bits_index](Ctx& c) {
                c.need(3);
                return mm + " " + c.dst(0) + ", " + c.isrc(1, 32) + ", " + low_bits_index(c, 2);
            };
        }
        for (const char* m : {"simd_shuffle_up", "simd_shuffle_down"}) {
            const std::string mm = m;
            h[m] = [mm](Ctx& c) {
                c.need(3);
                if (c.op(2).is_register_like())
                    c.fail("delta '" + c.word(2) + "' in a register: agxsim's " + mm +
                           " takes a 32-bit delta and applegpu's is 16-bit (an immediate maps)");
                return mm + " " + c.dst(0) + ", " + c.isrc(1, 32) + ", " + c.isrc(2, 32);
            };
        }
        // applegpu's rotate_up reads lane - delta; agxsim's simd_shuffle_rotate
        // reads lane + delta (mod 32): an immediate delta maps as 32 - delta.
        h["simd_shuffle_rotate_up"] = [](Ctx& c) {
            c.need(3);
            if (!c.op(2).is_integer())
                c.fail("delta '" + c.word(2) +
                       "' in a register: applegpu's rotate_up reads lane - delta and agxsim's "
                       "simd_shuffle_rotate lane + delta, so only an immediate delta maps");
            const long long delta = (32 - (c.op(2).integer() & 31)) & 31;
            return "simd_shuffle_rotate " + c.dst(0) + ", " + c.isrc(1, 32) + ", " +
                   std::to_string(delta);
        };
        h["simd_matrix_fmadd32"] = [](Ctx& c) {
            c.need(4);
            for (std::size_t i = 1; i < 4; ++i) c.no_modifiers(c.op(i), false);
            return "simd_matrix_fmadd32 " + c.dst(0) + ", " + c.fsrc(1) + ", " + c.fsrc(2) + ", " +
                   c.fsrc(3);
        };
        // Two halves rNl_rNh: agxsim's 32-bit register rN.
        h["simd_matrix_fmadd16"] = [](Ctx& c) {
            c.need(4);
            std::string s = "simd_matrix_fmadd16 ";
            for (std::size_t i = 0; i < 4; ++i) {
                const Op& o = c.op(i);
                std::string t;
                if (o.is_register_like() && o.half && o.components == 2) {
                    c.no_modifiers(o, false);
                    if (o.high)
                        c.fail("'" + o.text +
                               "' straddles two registers: agxsim's simd_matrix_fmadd16 takes a "
                               "32-bit register");
                    const std::string whole = std::string(1, o.base[0]) + std::to_string(o.first);
                    if (o.kind == Op::Kind::Reg) {
                        t = c.reg(o, whole);
                    } else {
                        c.note_uniform(whole);
                        t = whole;
                    }
                } else {
                    if (i > 0) c.no_modifiers(o, false);
                    t = i == 0 ? c.dst(0) : c.fsrc(i);
                }
                s += (i ? ", " : "") + t;
            }
            return s;
        };
        // Subgroup reductions and scans (applegpu's simd_OP, quad_OP,
        // simd_prefix_OP): agxsim's simd_reduce_OP / simd_prefix_OP.
        {
            struct Reduction {
                const char* applegpu;
                const char* agx;
                bool is_float, has16;
            };
            static const Reduction kReductions[] = {
                {"iadd", "iadd", false, true},   {"fadd", "fadd", true, true},
                {"fmul", "fmul", true, true},    {"xor", "ixor", false, true},
                {"and", "iand", false, false},   {"or", "ior", false, false},
                {"max.f", "fmax", true, false},  {"min.f", "fmin", true, false},
                {"max.s", "smax", false, false}, {"min.s", "smin", false, false},
                {"max.u", "umax", false, false}, {"min.u", "umin", false, false},
            };
            for (const auto& r : kReductions)
                for (const char* window : {"simd", "quad"})
                    for (bool scan : {false, true}) {
                        const bool has_scan =
                            std::string(r.agx) == "iadd" || std::string(r.agx) == "fadd" ||
                            std::string(r.agx) == "fmul" || std::string(r.agx) == "ixor";
                        if (scan && !has_scan) continue;
                        const std::string m =
                            std::string(window) + (scan ? "_prefix_" : "_") + r.applegpu;
                        const std::string agx =
                            std::string(window) + (scan ? "_prefix_" : "_reduce_") + r.agx;
                        h[m] = [m, agx, r, scan](Ctx& c) {
                            c.need(2);
                            const std::string w = width_suffix(c, c.op(0), "reduction");
                            if (w == "16" && (scan || !r.has16))
                                c.fail("'" + m + "' on 16 bits has no agxsim form");
                            return agx + w + " " + c.dst(0) + ", " +
                                   (r.is_float ? c.fsrc(1) : c.isrc(1, w == "16" ? 16 : 32));
                        };
                    }
        }
        // uniform_store UNK, FMT, MASK, B, R, O[, lsl S]: a preamble writes
        // the registers R to the uniforms from 16-bit half O.
        h["uniform_store"] = [](Ctx& c) {
            c.need(6, 7);
            const Op& data = c.op(4);
            if (data.kind != Op::Kind::Reg)
                c.fail("uniform_store of '" + data.text + "': agxsim stores registers");
            const Op& at = c.op(5);
            if (!at.is_integer())
                c.fail("uniform_store to '" + at.text +
                       "': agxsim takes an immediate uniform half");
            if (c.count() == 7 && c.word(6) != "0" && !c.word(6).empty())
                c.fail("uniform_store with a shift has no agxsim form");
            return "uniform_store " + c.reg(data) + ", " + std::to_string(at.integer());
        };
        for (const char* m : {"icmp_ballot", "fcmp_ballot"}) {
            const std::string mm = m;
            h[m] = [mm](Ctx& c) {
                c.need(4);
                const bool is_float = mm[0] == 'f';
                const std::string cc =
                    is_float ? float_condition(c.word(1)) : int_condition(c.word(1));
                if (cc.empty())
                    c.fail(std::string(is_float ? "float" : "integer") + " condition '" +
                           c.word(1) + "' has no agxsim equivalent");
                const std::string a = is_float ? c.fsrc(2) : c.isrc(2, 32);
                const std::string b = is_float ? c.fsrc(3) : c.isrc(3, 32);
                return mm + " " + c.dst(0) + ", " + a + ", " + b + " cc=" + cc;
            };
        }

        // Device memory.
        for (const char* m : {"device_load", "device_store"}) {
            const std::string mm = m;
            h[m] = [mm](Ctx& c) {
                const Access a = access(c);
                const Op& data = c.op(a.data);
                const Op& base = c.op(a.base);
                if (base.kind == Op::Kind::Uniform) c.memory_base(base.base);
                std::string s = mm + " " + c.reg(data) + ", " + c.isrc(a.base, 64) + ", " +
                                c.isrc(a.offset, 32);
                if (a.wait_group >= 0) s += " slot=" + std::to_string(a.wait_group);
                s += format_attr(a, data);
                if (a.unsigned_offset) s += " offset=unsigned";
                // applegpu's emulation takes a shift field of 3 as 2.
                if (a.shift) s += " shift=" + std::to_string(std::min(a.shift, 2u));
                return s;
            };
        }
        for (const char* m : {"threadgroup_load", "threadgroup_store"}) {
            const std::string mm = m;
            h[m] = [mm](Ctx& c) {
                const Access a = access(c);
                const Op& data = c.op(a.data);
                return mm + " " + c.reg(data) + ", " + threadgroup_address(c, a.base, "base") +
                       ", " + threadgroup_address(c, a.offset, "offset") + format_attr(a, data);
            };
        }
        auto atomic_op = [](const Ctx& c, const std::string& op) {
            static const std::map<std::string, std::string> m = {
                {"add", "add"},   {"sub", "sub"},   {"xchg", "xchg"}, {"cmpxchg", "cmpxchg"},
                {"umin", "umin"}, {"imin", "smin"}, {"umax", "umax"}, {"imax", "smax"},
                {"and", "and"},   {"or", "or"},     {"xor", "xor"}};
            auto it = m.find(op);
            if (it == m.end()) c.fail("atomic operation '" + op + "' has no agxsim equivalent");
            return it->second;
        };
        // The old value, or a scratch register when the listing keeps none.
        auto atomic_result = [](Ctx& c, std::size_t i) {
            if (c.word(i) == "None") return c.scratch();
            return c.dst(i);
        };
        // atomic OP, G, R, A, O, signed|unsigned, S, u1, u2, u3, u4, u5
        h["atomic"] = [atomic_op, atomic_result](Ctx& c) {
            c.need(7, 12);
            const std::string op = atomic_op(c, c.word(0));
            // u5 with cmpxchg's opcode: 1 and 3 are 64-bit min/max.
            if (op == "cmpxchg" && c.count() >= 12 && c.word(11) != "2")
                c.fail("atomic cmpxchg with field u5=" + c.word(11) +
                       " (applegpu: a 64-bit min/max) has no agxsim equivalent");
            const Op& base = c.op(3);
            if (base.kind == Op::Kind::Uniform) c.memory_base(base.base);
            std::string s = "atomic " + atomic_result(c, 2) + ", " + c.isrc(6, 64) + ", " +
                            c.isrc(3, 64) + ", " + c.isrc(4, 32) + " op=" + op +
                            " slot=" + c.word(1);
            if (c.word(5) == "unsigned") s += " offset=unsigned";
            return s;
        };
        // threadgroup_atomic OP, R, A, O, S, u1, u3, u4, u5
        h["threadgroup_atomic"] = [atomic_op, atomic_result](Ctx& c) {
            c.need(5, 9);
            const std::string op = atomic_op(c, c.word(0));
            return "threadgroup_atomic " + atomic_result(c, 1) + ", " + c.isrc(4, 64) + ", " +
                   threadgroup_address(c, 2, "base") + ", " + threadgroup_address(c, 3, "offset") +
                   " op=" + op;
        };
        return h;
    }();
    return table;
}

// Why an instruction applegpu knows has no agxsim equivalent, for the ones
// a compute kernel's listing is likely to hold.
std::string why_not(const std::string& m) {
    if (m == "<disassembly failed>")
        return "applegpu could not decode this instruction, so it cannot be imported";
    if (m.rfind("TODO", 0) == 0 || m.find(".TODO") != std::string::npos)
        return "applegpu does not know what '" + m + "' does: no agxsim equivalent";
    if (m.find(".sat") != std::string::npos)
        return "'" + m + "': saturation ('.sat') has no agxsim equivalent";
    std::string why = "no agxsim equivalent for '" + m + "'";
    if (m.rfind("texture_", 0) == 0 || m.rfind("image_", 0) == 0 || m == "sampler_state_store" ||
        m == "tex_state_store")
        return why + " (agxsim models no textures or images)";
    if (m.rfind("stack_", 0) == 0)
        return why + " (applegpu's stack access fields are not decoded well enough to map)";
    if (m.rfind("simd_", 0) == 0 || m.rfind("quad_", 0) == 0 ||
        m.find("quad_ballot") != std::string::npos)
        return why + " (agxsim's catalogue has no such simd/quad instruction)";
    return why + " (agxsim isa list shows what it models)";
}

// The kernel name as one word.
std::string sanitized(const std::string& name) {
    std::string s;
    for (char c : name)
        s += (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.')
                 ? c
                 : '_';
    return s.empty() ? "imported" : s;
}

}  // namespace

ImportedCode import_listing_instructions(const std::vector<ListingInstruction>& lines,
                                         const std::string& path, bool preamble, bool keep_pcs) {
    if (lines.empty())
        throw InputError(path, "no instruction lines ('OFFSET: BYTES mnemonic operands')");
    std::map<std::uint64_t, unsigned> offsets;  // offset -> listing line
    for (const auto& l : lines) {
        auto [it, fresh] = offsets.emplace(l.offset, l.line);
        if (!fresh)
            throw InputError(path + ":" + std::to_string(l.line),
                             "a second instruction at offset " + hex(l.offset) + " (line " +
                                 std::to_string(it->second) +
                                 "): sections of the listing overlap (print them with offsets)");
    }
    std::set<std::uint64_t> targets;
    auto label = [](std::uint64_t offset) { return "at_" + hex(offset); };
    const std::function<std::string(const Ctx&, const std::string&)> target =
        [&](const Ctx& c, const std::string& t) {
            std::uint64_t v = 0;
            char* end = nullptr;
            bool ok = false;
            if (t.rfind("0x", 0) == 0 || t.rfind("0X", 0) == 0) {
                v = std::strtoull(t.c_str() + 2, &end, 16);
                ok = t.size() > 2 && *end == '\0' && t[2] != '-';
            } else if (t.rfind("pc+", 0) == 0 || t.rfind("pc-", 0) == 0) {
                const long long d = std::strtoll(t.c_str() + 3, &end, 10);
                const long long at =
                    static_cast<long long>(c.line().offset) + (t[2] == '+' ? d : -d);
                ok = t.size() > 3 && *end == '\0' && at >= 0;
                v = static_cast<std::uint64_t>(at);
            }
            if (!ok) c.fail("branch target '" + t + "' is not an offset in the listing");
            if (!offsets.count(v))
                c.fail("branch to " + hex(v) + ", where no instruction of the listing starts");
            targets.insert(v);
            return label(v);
        };

    Usage usage;
    std::vector<std::pair<const ListingLine*, std::string>> out;
    for (const ListingLine& l : lines) {
        Ctx c(path, l, usage, target);
        const auto& table = handlers();
        auto h = table.find(l.mnemonic);
        if (l.undecoded || h == table.end()) c.fail(why_not(l.mnemonic));
        if (l.mnemonic == "uniform_store" && !preamble)
            c.fail(
                "no agxsim equivalent for 'uniform_store' outside a compiled kernel's preamble "
                "(it writes uniforms for later shaders; give the uniforms with `uniform` "
                "launch directives)");
        std::string text = h->second(c);
        // What imports must also load: check the line as a kernel's line,
        // operands and attributes (a scratch register stands in for r0).
        if (!c.is_branch) {
            std::string probe = text;
            for (auto p = probe.find(kScratch); p != std::string::npos; p = probe.find(kScratch))
                probe.replace(p, std::string(kScratch).size(), "r0");
            try {
                check_instruction_line(probe, "", l.line, 256);
            } catch (const InputError& e) {
                std::string why = e.what();
                const auto colon = why.find(": ");
                if (colon != std::string::npos) why = why.substr(colon + 2);
                c.fail("maps to '" + probe + "', which agxsim's catalogue refuses: " + why);
            }
        }
        out.emplace_back(&l, text);
    }

    // A scratch register for atomics whose old value the listing drops: the
    // first 32-bit register above every register the code uses.
    std::string scratch;
    if (usage.scratch) {
        const unsigned reg = (usage.halves + 1) / 2;
        if (reg > 127) throw InputError(path, "no register left for an atomic's unused old value");
        scratch = "r" + std::to_string(reg);
        usage.halves = 2 * reg + 2;
        for (auto& [l, text] : out)
            for (auto p = text.find(kScratch); p != std::string::npos; p = text.find(kScratch))
                text.replace(p, std::string(kScratch).size(), scratch);
    }

    ImportedCode code;
    for (const auto& [l, text] : out) {
        if (targets.count(l->offset)) code.lines.push_back(label(l->offset) + ":");
        std::string line = "    " + text + (keep_pcs ? " pc=" + hex(l->offset) : "");
        if (line.size() < 56) line.append(56 - line.size(), ' ');
        std::string original = l->mnemonic;
        for (std::size_t i = 0; i < l->operands.size(); ++i)
            original += (i ? ", " : " ") + l->operands[i];
        code.lines.push_back(line + " # " + hex(l->offset) + ": " + original);
    }
    code.instructions = static_cast<unsigned>(out.size());
    code.registers_halves = usage.halves;
    code.uniforms = usage.uniforms;
    code.memory_bases = usage.memory_bases;
    code.scratch = scratch;
    return code;
}

ImportedKernel import_applegpu_listing(const std::string& listing, const std::string& path,
                                       const std::string& name, const std::string& launch) {
    // Read the instruction lines. compiler_explorer.py prints sections
    // ("compute shader prolog:", "compute shader:", functions); the prolog
    // (the constant program, which computes uniforms once per launch) is
    // skipped: its results are the launch's uniforms.
    std::vector<ListingLine> lines;
    std::vector<std::string> skipped_sections;
    {
        std::istringstream in(listing);
        std::string raw;
        unsigned number = 0;
        bool skipping = false;
        while (std::getline(in, raw)) {
            ++number;
            ListingLine l;
            if (parse_line(raw, number, l)) {
                if (!skipping) lines.push_back(std::move(l));
                continue;
            }
            const std::string t = trim(raw);
            if (looks_like_instruction(t))
                throw InputError(path + ":" + std::to_string(number),
                                 "an instruction line that does not read as 'OFFSET: BYTES "
                                 "mnemonic operands' (OFFSET and BYTES in hex)");
            if (!t.empty() && t.back() == ':' && t.find('#') == std::string::npos) {
                skipping = t.find("prolog") != std::string::npos;
                if (skipping) skipped_sections.push_back(t.substr(0, t.size() - 1));
            }
        }
    }
    const ImportedCode code = import_listing_instructions(lines, path);
    const auto& scratch = code.scratch;

    const std::string kname = sanitized(name);
    std::ostringstream k;
    k << "# " << kname << ": imported by `agxsim kernel import` from\n#   " << path
      << "\n# (applegpu's disassembly of a compiled kernel). Each instruction keeps its\n"
         "# listing offset and text as a comment; branch targets are labels at_0xOFFSET.\n";
    k << "# Registers: the code uses " << code.registers_halves
      << " 16-bit halves: the launch needs registers=" << code.registers_halves << " or more.\n";
    if (!code.uniforms.empty()) {
        k << "# Uniforms read (set them with `uniform` directives):";
        for (std::size_t i = 0; i < code.uniforms.size(); ++i)
            k << (i ? ", " : " ") << code.uniforms[i]
              << (code.memory_bases.count(code.uniforms[i]) ? " (an address)" : "");
        k << ".\n";
    }
    if (!scratch.empty())
        k << "# " << scratch
          << " receives the old value of atomics whose result the listing "
             "drops.\n";
    for (const auto& s : skipped_sections)
        k << "# Not imported: the section '" << s
          << "' (it computes uniforms once per launch:\n# give them with `uniform` "
             "directives).\n";
    if (launch.empty())
        k << "# Give it a launch: agxsim run KERNEL --launch FILE (traces/KERNEL.md).\n";
    k << "agxsim-kernel 1\nkernel name=" << kname << "\n";
    if (!launch.empty()) k << launch << (launch.back() == '\n' ? "" : "\n");
    k << "\n";
    for (const auto& line : code.lines) k << line << "\n";
    ImportedKernel result;
    result.text = k.str();
    result.instructions = code.instructions;
    result.registers_halves = code.registers_halves;
    result.uniforms = code.uniforms;
    return result;
}

}  // namespace agx::kernel
