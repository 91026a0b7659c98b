#include "msl_eval.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <limits>
#include <regex>
#include <sstream>

namespace msl_eval {

// --- types and values -----------------------------------------------------------

bool is_integer(Type t) {
    return t == Type::Bool || t == Type::I32 || t == Type::U16 || t == Type::U32 ||
           t == Type::I64 || t == Type::U64;
}

bool is_float(Type t) {
    return t == Type::F16 || t == Type::F32;
}

Type type_named(const std::string& name) {
    static const std::map<std::string, Type> types = {
        {"bool", Type::Bool}, {"int", Type::I32},   {"ushort", Type::U16},
        {"uint", Type::U32},  {"long", Type::I64},  {"ulong", Type::U64},
        {"half", Type::F16},  {"float", Type::F32}, {"float2", Type::F32x2}};
    const auto it = types.find(name);
    if (it == types.end()) throw Unsupported("type '" + name + "'");
    return it->second;
}

bool Value::operator==(const Value& o) const {
    if (type != o.type) return false;
    if (is_float(type)) return f == o.f || (std::isnan(f) && std::isnan(o.f));
    if (type == Type::F32x2) return f == o.f && f2 == o.f2;
    return bits == o.bits;
}

namespace {

unsigned width(Type t) {
    switch (t) {
        case Type::Bool:
            return 1;
        case Type::U16:
            return 16;
        case Type::I32:
        case Type::U32:
            return 32;
        case Type::I64:
        case Type::U64:
            return 64;
        case Type::QuadVote:
            return 4;
        case Type::SimdVote:
            return 32;
        default:
            throw Unsupported("no integer width");
    }
}

bool is_signed(Type t) {
    return t == Type::I32 || t == Type::I64;
}

std::uint64_t mask(unsigned bits) {
    return bits >= 64 ? ~0ull : (1ull << bits) - 1;
}

// The integer as a signed 64-bit number (sign-extended for signed types).
std::int64_t as_signed(const Value& v) {
    const unsigned w = width(v.type);
    if (!is_signed(v.type) || w == 64) return static_cast<std::int64_t>(v.bits);
    const std::uint64_t sign = 1ull << (w - 1);
    return static_cast<std::int64_t>((v.bits ^ sign) - sign);
}

double round_float(double x) {
    return static_cast<double>(static_cast<float>(x));
}

// To the nearest binary16, ties to even; beyond its range, infinity.
double round_half(double x) {
    if (std::isnan(x) || std::isinf(x) || x == 0) return x;
    int e = 0;
    std::frexp(x, &e);  // |x| = m * 2^e, m in [0.5, 1)
    const int exponent = std::max(e - 1, -14);
    const double ulp = std::ldexp(1.0, exponent - 10);
    const double q = std::nearbyint(x / ulp) * ulp;
    if (std::abs(q) >= 65520.0) return std::copysign(INFINITY, x);
    return q;
}

Value make_int(Type t, std::uint64_t bits) {
    Value v;
    v.type = t;
    v.bits = bits & mask(width(t));
    return v;
}

Value make_float(Type t, double f) {
    Value v;
    v.type = t;
    v.f = t == Type::F16 ? round_half(f) : round_float(f);
    return v;
}

double to_double(const Value& v) {
    if (is_float(v.type)) return v.f;
    if (is_signed(v.type)) return static_cast<double>(as_signed(v));
    return static_cast<double>(v.bits);
}

Value convert(const Value& v, Type to) {
    if (v.type == to) return v;
    if (to == Type::Bool) return make_int(Type::Bool, is_float(v.type) ? v.f != 0 : v.bits != 0);
    if (is_float(to)) {
        if (v.type == Type::F32x2) throw Unsupported("float2 to scalar");
        return make_float(to, to_double(v));
    }
    if (is_integer(to)) {
        if (is_float(v.type)) {
            // Metal's float to integer conversion rounds toward zero and saturates.
            if (std::isnan(v.f)) return make_int(to, 0);
            const double t = std::trunc(v.f);
            const unsigned w = width(to);
            if (is_signed(to)) {
                const double lo = -std::ldexp(1.0, static_cast<int>(w) - 1);
                const double hi = std::ldexp(1.0, static_cast<int>(w) - 1) - 1;
                const double c = std::min(std::max(t, lo), hi);
                return make_int(to, static_cast<std::uint64_t>(static_cast<std::int64_t>(c)));
            }
            const double hi = std::ldexp(1.0, static_cast<int>(w)) - 1;
            const double c = std::min(std::max(t, 0.0), hi);
            return make_int(to,
                            c >= 18446744073709551615.0 ? ~0ull : static_cast<std::uint64_t>(c));
        }
        if (v.type == Type::F32x2) throw Unsupported("float2 to integer");
        return make_int(to, static_cast<std::uint64_t>(as_signed(v)));
    }
    throw Unsupported("conversion");
}

// C's usual arithmetic conversions, as MSL applies them.
Type promote(Type t) {
    return t == Type::Bool || t == Type::U16 ? Type::I32 : t;
}
Type common(Type a, Type b) {
    if (is_float(a) || is_float(b))
        return a == Type::F32 || b == Type::F32 || !is_float(a) || !is_float(b) ? Type::F32
                                                                                : Type::F16;
    a = promote(a);
    b = promote(b);
    if (width(a) == 64 || width(b) == 64)
        return a == Type::U64 || b == Type::U64 ? Type::U64 : Type::I64;
    return a == Type::U32 || b == Type::U32 ? Type::U32 : Type::I32;
}

std::uint32_t float_bits(float f) {
    std::uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}
float bits_float(std::uint32_t u) {
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

// binary16 from and to its bits (the value is already a half).
std::uint16_t half_bits(double h) {
    const std::uint16_t sign = std::signbit(h) ? 0x8000 : 0;
    h = std::abs(h);
    if (std::isnan(h)) return 0x7e00;
    if (std::isinf(h)) return sign | 0x7c00;
    if (h < 0x1p-14) return sign | static_cast<std::uint16_t>(h / 0x1p-24);
    int e = 0;
    const double m = std::frexp(h, &e);  // h = m * 2^e, m in [0.5, 1)
    const auto mantissa = static_cast<std::uint16_t>((m * 2 - 1) * 1024);
    return sign | static_cast<std::uint16_t>((e - 1 + 15) << 10) | mantissa;
}
double bits_half(std::uint16_t b) {
    const double sign = b & 0x8000 ? -1.0 : 1.0;
    const int e = (b >> 10) & 0x1f;
    const int m = b & 0x3ff;
    if (e == 0) return sign * m * 0x1p-24;
    if (e == 31) return m ? NAN : sign * INFINITY;
    return sign * std::ldexp(1.0 + m / 1024.0, e - 15);
}

}  // namespace

// --- parsing ----------------------------------------------------------------------

struct Node {
    enum class Kind : std::uint8_t { Number, Var, Call, Binary, Unary, Ternary, Member } kind;
    std::string name;  // variable, function, operator or member
    std::string template_arg;
    Value number;
    std::vector<Expr> args;
};

namespace {

struct Token {
    enum class Kind : std::uint8_t { Ident, Number, Op, End } kind;
    std::string text;
};

std::vector<Token> tokenize(const std::string& s) {
    std::vector<Token> out;
    std::size_t i = 0;
    while (i < s.size()) {
        const char c = s[i];
        if (std::isspace(static_cast<unsigned char>(c))) {
            ++i;
        } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
            std::size_t j = i;
            while (j < s.size() && (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '_' ||
                                    (s[j] == ':' && j + 1 < s.size() && s[j + 1] == ':')))
                j += s[j] == ':' ? 2 : 1;
            out.push_back({Token::Kind::Ident, s.substr(i, j - i)});
            i = j;
        } else if (std::isdigit(static_cast<unsigned char>(c)) ||
                   (c == '.' && i + 1 < s.size() &&
                    std::isdigit(static_cast<unsigned char>(s[i + 1])))) {
            std::size_t j = i;
            while (j < s.size() && (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '.'))
                ++j;
            out.push_back({Token::Kind::Number, s.substr(i, j - i)});
            i = j;
        } else {
            static const char* two[] = {"<<", ">>", "<=", ">=", "==", "!=", "&&", "||"};
            std::string op(1, c);
            for (const char* t : two)
                if (s.compare(i, 2, t) == 0) op = t;
            if (std::string("+-*/%^&|<>?:(),.~!").find(c) == std::string::npos)
                throw Unsupported(std::string("character '") + c + "' in '" + s + "'");
            out.push_back({Token::Kind::Op, op});
            i += op.size();
        }
    }
    out.push_back({Token::Kind::End, ""});
    return out;
}

class Parser {
  public:
    explicit Parser(const std::string& text) : text_(text), tokens_(tokenize(text)) {}

    Expr whole() {
        Expr e = ternary();
        if (peek().kind != Token::Kind::End) fail("trailing '" + peek().text + "'");
        return e;
    }

  private:
    const Token& peek() const { return tokens_[at_]; }
    bool accept(const std::string& op) {
        if (peek().kind == Token::Kind::Op && peek().text == op) {
            ++at_;
            return true;
        }
        return false;
    }
    void expect(const std::string& op) {
        if (!accept(op)) fail("expected '" + op + "'");
    }
    [[noreturn]] void fail(const std::string& why) const {
        throw Unsupported(why + " in '" + text_ + "'");
    }
    static Expr node(Node::Kind k, std::string name, std::vector<Expr> args) {
        auto n = std::make_shared<Node>();
        n->kind = k;
        n->name = std::move(name);
        n->args = std::move(args);
        return n;
    }

    Expr ternary() {
        Expr c = binary(0);
        if (!accept("?")) return c;
        Expr a = ternary();
        expect(":");
        Expr b = ternary();
        return node(Node::Kind::Ternary, "?", {c, a, b});
    }

    Expr binary(int level) {
        static const std::vector<std::vector<std::string>> levels = {{"||"},
                                                                     {"&&"},
                                                                     {"|"},
                                                                     {"^"},
                                                                     {"&"},
                                                                     {"==", "!="},
                                                                     {"<", ">", "<=", ">="},
                                                                     {"<<", ">>"},
                                                                     {"+", "-"},
                                                                     {"*", "/", "%"}};
        if (level == static_cast<int>(levels.size())) return unary();
        Expr left = binary(level + 1);
        for (;;) {
            bool matched = false;
            for (const auto& op : levels[static_cast<std::size_t>(level)])
                if (accept(op)) {
                    left = node(Node::Kind::Binary, op, {left, binary(level + 1)});
                    matched = true;
                    break;
                }
            if (!matched) return left;
        }
    }

    Expr unary() {
        for (const char* op : {"-", "~", "!"})
            if (accept(op)) return node(Node::Kind::Unary, op, {unary()});
        Expr e = primary();
        while (accept(".")) {
            if (peek().kind != Token::Kind::Ident) fail("member name");
            e = node(Node::Kind::Member, tokens_[at_++].text, {e});
        }
        return e;
    }

    Expr primary() {
        const Token t = tokens_[at_];
        if (t.kind == Token::Kind::Number) {
            ++at_;
            return number(t.text);
        }
        if (accept("(")) {
            Expr e = ternary();
            expect(")");
            return e;
        }
        if (t.kind != Token::Kind::Ident) fail("unexpected '" + t.text + "'");
        ++at_;
        std::string targ;
        if ((t.text == "as_type" || t.text == "make_filled_simdgroup_matrix") && accept("<")) {
            while (!accept(">")) {
                if (peek().kind == Token::Kind::End) fail("unclosed template argument");
                targ += tokens_[at_++].text;
            }
        }
        if (!accept("(")) {
            if (!targ.empty()) fail("template without a call");
            return node(Node::Kind::Var, t.text, {});
        }
        std::vector<Expr> args;
        if (!accept(")")) {
            do args.push_back(ternary());
            while (accept(","));
            expect(")");
        }
        auto n = std::make_shared<Node>();
        n->kind = Node::Kind::Call;
        n->name = t.text;
        n->template_arg = targ;
        n->args = std::move(args);
        return n;
    }

    Expr number(const std::string& text) const {
        auto n = std::make_shared<Node>();
        n->kind = Node::Kind::Number;
        std::size_t end = text.size();
        while (end > 0 && std::isalpha(static_cast<unsigned char>(text[end - 1])) &&
               !(text.size() > 2 && text[1] == 'x'))
            --end;
        const std::string digits = text.substr(0, end), suffix = text.substr(end);
        const bool floating =
            digits.find('.') != std::string::npos || suffix == "f" || suffix == "h";
        if (floating) {
            n->number = make_float(suffix == "h" ? Type::F16 : Type::F32, std::stod(digits));
        } else {
            const std::uint64_t v = std::stoull(digits, nullptr, 0);
            const Type t = suffix == "ul" || suffix == "UL" ? Type::U64
                           : suffix == "u" || suffix == "U" ? Type::U32
                                                            : Type::I32;
            n->number = make_int(t, v);
        }
        return n;
    }

    std::string text_;
    std::vector<Token> tokens_;
    std::size_t at_ = 0;
};

std::string trim(const std::string& s) {
    const auto b = s.find_first_not_of(" \t");
    const auto e = s.find_last_not_of(" \t");
    return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

std::string strip_namespace(const std::string& name) {
    for (const char* ns : {"metal::", "fast::", "precise::"})
        if (name.rfind(ns, 0) == 0) return name.substr(std::strlen(ns));
    return name;
}

}  // namespace

Expr parse(const std::string& text) {
    return Parser(text).whole();
}

Program read_program(const std::string& source) {
    std::istringstream in(source);
    std::string line;
    bool inside = false, in_loop = false;
    Program p;
    static const std::regex decl(R"(^(const )?([A-Za-z_0-9]+) ([A-Za-z_][A-Za-z_0-9]*) = (.*);$)");
    static const std::regex assign(R"(^([A-Za-z_][A-Za-z_0-9]*) = (.*);$)");
    while (std::getline(in, line)) {
        const std::string t = trim(line);
        if (t == "if (s == 0u) s = occupancy[lane];") {
            inside = true;
            continue;
        }
        if (!inside) continue;
        if (t == "uint sink = s;") return p;
        if (t.rfind("for (uint i = 0; i < p.loops; ++i) {", 0) == 0) {
            in_loop = true;
            continue;
        }
        if (t == "}") {
            in_loop = false;
            continue;
        }
        std::smatch m;
        if (std::regex_match(t, m, decl)) {
            const Type type = type_named(m[2].str());
            p.types[m[3].str()] = type;
            p.declarations.push_back({m[3].str(), parse(m[4].str()), t});
        } else if (std::regex_match(t, m, assign)) {
            if (!p.types.count(m[1].str())) throw Unsupported("assignment to undeclared " + t);
            (in_loop ? p.loop_body : p.straight).push_back({m[1].str(), parse(m[2].str()), t});
        } else {
            throw Unsupported("statement '" + t + "'");
        }
    }
    throw Unsupported("no kernel body found");
}

// --- evaluation ---------------------------------------------------------------------

Machine::Machine(const Program& program, const std::array<std::uint32_t, kLanes>& seeds,
                 std::uint32_t loops, std::uint32_t uniform)
    : program_(program), loops_(loops) {
    Lanes s, lane, u, l;
    for (int i = 0; i < kLanes; ++i) {
        s[i] = make_int(Type::U32, seeds[static_cast<std::size_t>(i)]);
        lane[i] = make_int(Type::U16, static_cast<std::uint64_t>(i));
        u[i] = make_int(Type::U32, uniform);
        l[i] = make_int(Type::U32, loops);
    }
    vars_["s"] = s;
    vars_["lane"] = lane;
    vars_["p.uniform"] = u;
    vars_["p.loops"] = l;
}

const Lanes& Machine::value(const std::string& name) const {
    const auto it = vars_.find(name);
    if (it == vars_.end()) throw Unsupported("no variable '" + name + "'");
    return it->second;
}

void Machine::execute(const Program::Statement& s) {
    Lanes v = eval(*s.value);
    const Type t = program_.types.at(s.target);
    for (auto& x : v) x = convert(x, t);
    vars_[s.target] = v;
}

void Machine::run(const std::function<void(const Program::Statement&)>& after,
                  const std::function<void()>& seeded) {
    for (const auto& d : program_.declarations) execute(d);
    if (seeded) seeded();
    for (std::uint32_t i = 0; i < loops_; ++i)
        for (const auto& s : program_.loop_body) {
            execute(s);
            after(s);
        }
    for (const auto& s : program_.straight) {
        execute(s);
        after(s);
    }
}

namespace {

template <typename F>
Lanes per_lane(const Lanes& a, F f) {
    Lanes out;
    for (int i = 0; i < kLanes; ++i) out[i] = f(a[i], i);
    return out;
}

Value arith(const std::string& op, const Value& a0, const Value& b0) {
    if (op == "<<" || op == ">>") {
        const Type t = promote(a0.type);
        const Value a = convert(a0, t);
        const unsigned n = static_cast<unsigned>(convert(b0, Type::U32).bits) & (width(t) - 1);
        if (op == "<<") return make_int(t, a.bits << n);
        return make_int(t,
                        is_signed(t) ? static_cast<std::uint64_t>(as_signed(a) >> n) : a.bits >> n);
    }
    if (op == "&&" || op == "||") {
        const bool x = convert(a0, Type::Bool).bits, y = convert(b0, Type::Bool).bits;
        return make_int(Type::Bool, op == "&&" ? x && y : x || y);
    }
    const Type t = common(a0.type, b0.type);
    const Value a = convert(a0, t), b = convert(b0, t);
    if (is_float(t)) {
        const double x = a.f, y = b.f;
        if (op == "+") return make_float(t, x + y);
        if (op == "-") return make_float(t, x - y);
        if (op == "*") return make_float(t, x * y);
        if (op == "/") return make_float(t, x / y);
        if (op == "<") return make_int(Type::Bool, x < y);
        if (op == ">") return make_int(Type::Bool, x > y);
        if (op == "<=") return make_int(Type::Bool, x <= y);
        if (op == ">=") return make_int(Type::Bool, x >= y);
        if (op == "==") return make_int(Type::Bool, x == y);
        if (op == "!=") return make_int(Type::Bool, x != y);
        throw Unsupported("float operator " + op);
    }
    const bool sig = is_signed(t);
    const std::int64_t sx = as_signed(a), sy = as_signed(b);
    if (op == "+") return make_int(t, a.bits + b.bits);
    if (op == "-") return make_int(t, a.bits - b.bits);
    if (op == "*") return make_int(t, a.bits * b.bits);
    if (op == "/" || op == "%") {
        if (b.bits == 0) throw Unsupported("integer division by zero");
        if (sig) return make_int(t, static_cast<std::uint64_t>(op == "/" ? sx / sy : sx % sy));
        return make_int(t, op == "/" ? a.bits / b.bits : a.bits % b.bits);
    }
    if (op == "&") return make_int(t, a.bits & b.bits);
    if (op == "|") return make_int(t, a.bits | b.bits);
    if (op == "^") return make_int(t, a.bits ^ b.bits);
    const bool lt = sig ? sx < sy : a.bits < b.bits;
    const bool eq = a.bits == b.bits;
    if (op == "<") return make_int(Type::Bool, lt);
    if (op == ">") return make_int(Type::Bool, !lt && !eq);
    if (op == "<=") return make_int(Type::Bool, lt || eq);
    if (op == ">=") return make_int(Type::Bool, !lt);
    if (op == "==") return make_int(Type::Bool, eq);
    if (op == "!=") return make_int(Type::Bool, !eq);
    throw Unsupported("operator " + op);
}

std::uint64_t reverse(std::uint64_t x, unsigned w) {
    std::uint64_t r = 0;
    for (unsigned i = 0; i < w; ++i) r |= ((x >> i) & 1ull) << (w - 1 - i);
    return r;
}

Value mulhi(const Value& a, const Value& b) {
    const unsigned w = width(a.type);
    if (is_signed(a.type)) {
        const __int128 p = static_cast<__int128>(as_signed(a)) * as_signed(b);
        return make_int(a.type, static_cast<std::uint64_t>(p >> w));
    }
    const unsigned __int128 p = static_cast<unsigned __int128>(a.bits) * b.bits;
    return make_int(a.type, static_cast<std::uint64_t>(p >> w));
}

// Functions of one lane's arguments, converted to the first argument's type.
Value lane_function(const std::string& name, std::vector<Value> a) {
    const Type t = a.empty() ? Type::U32 : a[0].type;
    auto need = [&](std::size_t n) {
        if (a.size() != n) throw Unsupported(name + " with " + std::to_string(a.size()) + " args");
    };
    // Casts written as calls.
    for (const char* ty : {"bool", "int", "ushort", "uint", "long", "ulong", "half", "float"})
        if (name == ty) {
            need(1);
            return convert(a[0], type_named(ty));
        }
    if (is_float(t)) {
        for (std::size_t i = 1; i < a.size(); ++i) a[i] = convert(a[i], t);
        const double x = a[0].f;
        auto r = [&](double v) { return make_float(t, v); };
        if (name == "fma")
            return need(3),
                   r(t == Type::F32 ? static_cast<double>(std::fma(static_cast<float>(x),
                                                                   static_cast<float>(a[1].f),
                                                                   static_cast<float>(a[2].f)))
                                    : x * a[1].f + a[2].f);
        if (name == "rint") return r(std::nearbyint(x));
        if (name == "trunc") return r(std::trunc(x));
        if (name == "floor") return r(std::floor(x));
        if (name == "ceil") return r(std::ceil(x));
        if (name == "round") return r(std::round(x));
        if (name == "divide") return need(2), r(x / a[1].f);
        if (name == "rsqrt") return r(1.0 / std::sqrt(x));
        if (name == "sqrt") return r(std::sqrt(x));
        if (name == "exp2") return r(std::exp2(x));
        if (name == "exp") return r(std::exp(x));
        if (name == "exp10") return r(std::pow(10.0, x));
        if (name == "log2") return r(std::log2(x));
        if (name == "log") return r(std::log(x));
        if (name == "log10") return r(std::log10(x));
        if (name == "sin") return r(std::sin(x));
        if (name == "cos") return r(std::cos(x));
        if (name == "sinpi") return r(std::sin(M_PI * x));
        if (name == "fract")
            return r(std::min(x - std::floor(x), t == Type::F16 ? 0.99951171875 : 0x1.fffffep-1));
        if (name == "fmax" || name == "max") return need(2), r(std::fmax(x, a[1].f));
        if (name == "fmin" || name == "min") return need(2), r(std::fmin(x, a[1].f));
        if (name == "median3") {
            need(3);
            double v[3] = {x, a[1].f, a[2].f};
            std::sort(v, v + 3);
            return r(v[1]);
        }
        throw Unsupported("float function " + name);
    }
    if (!is_integer(t)) throw Unsupported(name + " of a non-scalar");
    // Offsets and counts of the bit-field functions are uint whatever the value's type.
    const bool field = name == "extract_bits" || name == "insert_bits";
    for (std::size_t i = 1; i < a.size(); ++i)
        if (!(field && i >= a.size() - 2)) a[i] = convert(a[i], t);
    const unsigned w = width(t);
    const std::uint64_t x = a[0].bits;
    auto r = [&](std::uint64_t v) { return make_int(t, v); };
    if (name == "max" || name == "min") {
        need(2);
        const bool lt = is_signed(t) ? as_signed(a[0]) < as_signed(a[1]) : x < a[1].bits;
        return (name == "max") == lt ? a[1] : a[0];
    }
    if (name == "mulhi") return need(2), mulhi(a[0], a[1]);
    if (name == "madhi") return need(3), r(mulhi(a[0], a[1]).bits + a[2].bits);
    if (name == "addsat") {
        need(2);
        if (is_signed(t)) throw Unsupported("signed addsat");
        const std::uint64_t s = x + a[1].bits;
        return r((s & mask(w)) < x || (w < 64 && s > mask(w)) ? mask(w) : s);
    }
    if (name == "extract_bits") {
        need(3);
        const unsigned off = static_cast<unsigned>(a[1].bits), n = static_cast<unsigned>(a[2].bits);
        if (is_signed(t)) throw Unsupported("signed extract_bits");
        return r((x >> off) & mask(n));
    }
    if (name == "insert_bits") {
        need(4);
        const unsigned off = static_cast<unsigned>(a[2].bits), n = static_cast<unsigned>(a[3].bits);
        const std::uint64_t m = mask(n) << off;
        return r((x & ~m) | ((a[1].bits << off) & m));
    }
    if (name == "reverse_bits") return r(reverse(x, w));
    if (name == "popcount") return r(static_cast<std::uint64_t>(__builtin_popcountll(x)));
    if (name == "clz") {
        unsigned n = 0;
        while (n < w && !((x >> (w - 1 - n)) & 1)) ++n;
        return r(n);
    }
    if (name == "rotate") {
        need(2);
        const unsigned n = static_cast<unsigned>(a[1].bits % w);
        return r(n == 0 ? x : (x << n) | (x >> (w - n)));
    }
    if (name == "rhadd") {
        need(2);
        const unsigned __int128 s = static_cast<unsigned __int128>(x) + a[1].bits + 1;
        return r(static_cast<std::uint64_t>(s >> 1));
    }
    if (name == "absdiff") {
        need(2);
        const bool lt = is_signed(t) ? as_signed(a[0]) < as_signed(a[1]) : x < a[1].bits;
        return r(lt ? a[1].bits - x : x - a[1].bits);
    }
    throw Unsupported("integer function " + name);
}

// simd_* over all 32 lanes, quad_* over each group of four.
Lanes group_function(const std::string& name, const std::vector<Lanes>& args) {
    const bool quad = name.rfind("quad_", 0) == 0;
    const int size = quad ? 4 : kLanes;
    const std::string op = name.substr(quad ? 5 : 5);
    const Lanes& x = args.at(0);
    Lanes out;
    const Type t = x[0].type;
    auto combine = [&](const Value& a, const Value& b, bool product) {
        if (op.find("xor") != std::string::npos) return make_int(t, a.bits ^ b.bits);
        return convert(arith(product ? "*" : "+", a, b), t);
    };
    for (int base = 0; base < kLanes; base += size) {
        auto at = [&](int i) { return x[static_cast<std::size_t>(base + i)]; };
        if (op == "ballot") {
            std::uint64_t bits = 0;
            for (int i = 0; i < size; ++i)
                if (convert(at(i), Type::Bool).bits) bits |= 1ull << i;
            Value v;
            v.type = quad ? Type::QuadVote : Type::SimdVote;
            v.bits = bits;
            for (int i = 0; i < size; ++i) out[static_cast<std::size_t>(base + i)] = v;
            continue;
        }
        for (int i = 0; i < size; ++i) {
            Value v;
            if (op == "sum" || op == "product" || op == "xor") {
                v = at(0);
                for (int j = 1; j < size; ++j) v = combine(v, at(j), op == "product");
            } else if (op.rfind("prefix_", 0) == 0) {
                const bool product = op.find("product") != std::string::npos;
                const bool inclusive = op.find("inclusive") != std::string::npos;
                v = product ? convert(make_int(Type::U32, 1), t)
                            : convert(make_int(Type::U32, 0), t);
                for (int j = 0; j < (inclusive ? i + 1 : i); ++j) v = combine(v, at(j), product);
            } else if (op == "broadcast" || op == "shuffle") {
                const auto k = static_cast<int>(
                    convert(args.at(1)[static_cast<std::size_t>(base + i)], Type::U32).bits);
                v = at(k % size);
            } else if (op == "shuffle_down") {
                const auto d = static_cast<int>(convert(args.at(1)[0], Type::U32).bits);
                v = i + d < size ? at(i + d) : at(i);
            } else if (op == "shuffle_up") {
                const auto d = static_cast<int>(convert(args.at(1)[0], Type::U32).bits);
                v = i - d >= 0 ? at(i - d) : at(i);
            } else if (op == "shuffle_rotate_down") {
                const auto d = static_cast<int>(convert(args.at(1)[0], Type::U32).bits);
                v = at((i + d) % size);
            } else {
                throw Unsupported("group function " + name);
            }
            out[static_cast<std::size_t>(base + i)] = v;
        }
    }
    return out;
}

}  // namespace

Lanes Machine::eval(const Node& n) const {
    switch (n.kind) {
        case Node::Kind::Number: {
            Lanes out;
            out.fill(n.number);
            return out;
        }
        case Node::Kind::Var:
            return value(n.name);
        case Node::Kind::Member: {
            const Node& base = *n.args[0];
            if (base.kind == Node::Kind::Var && base.name == "p") return value("p." + n.name);
            const Lanes v = eval(base);
            return per_lane(v, [&](const Value& x, int) {
                if (x.type != Type::F32x2) throw Unsupported("member of a scalar");
                return make_float(Type::F32, n.name == "x" ? x.f : x.f2);
            });
        }
        case Node::Kind::Unary: {
            const Lanes v = eval(*n.args[0]);
            return per_lane(v, [&](const Value& x, int) {
                if (n.name == "!") return make_int(Type::Bool, !convert(x, Type::Bool).bits);
                if (is_float(x.type)) {
                    if (n.name == "-") return make_float(x.type, -x.f);
                    throw Unsupported("~ of a float");
                }
                const Value p = convert(x, promote(x.type));
                return make_int(p.type, n.name == "-" ? 0 - p.bits : ~p.bits);
            });
        }
        case Node::Kind::Binary: {
            const Lanes a = eval(*n.args[0]), b = eval(*n.args[1]);
            Lanes out;
            for (int i = 0; i < kLanes; ++i) out[i] = arith(n.name, a[i], b[i]);
            return out;
        }
        case Node::Kind::Ternary: {
            const Lanes c = eval(*n.args[0]), a = eval(*n.args[1]), b = eval(*n.args[2]);
            Lanes out;
            for (int i = 0; i < kLanes; ++i) {
                const Type t = a[i].type == b[i].type ? a[i].type : common(a[i].type, b[i].type);
                out[i] = convert(convert(c[i], Type::Bool).bits ? a[i] : b[i], t);
            }
            return out;
        }
        case Node::Kind::Call:
            break;
    }
    const std::string name = strip_namespace(n.name);
    std::vector<Lanes> args;
    for (const auto& a : n.args) args.push_back(eval(*a));
    if (name == "as_type") {
        return per_lane(args.at(0), [&](const Value& x, int) {
            if (n.template_arg == "float" && (x.type == Type::I32 || x.type == Type::U32))
                return make_float(Type::F32, bits_float(static_cast<std::uint32_t>(x.bits)));
            if (n.template_arg == "float2" && (x.type == Type::I64 || x.type == Type::U64)) {
                Value v;
                v.type = Type::F32x2;
                v.f = bits_float(static_cast<std::uint32_t>(x.bits));
                v.f2 = bits_float(static_cast<std::uint32_t>(x.bits >> 32));
                return v;
            }
            if ((n.template_arg == "uint" || n.template_arg == "int") && x.type == Type::F32)
                return make_int(n.template_arg == "int" ? Type::I32 : Type::U32,
                                float_bits(static_cast<float>(x.f)));
            if (n.template_arg == "ushort" && x.type == Type::F16)
                return make_int(Type::U16, half_bits(x.f));
            if (n.template_arg == "half" && x.type == Type::U16)
                return make_float(Type::F16, bits_half(static_cast<std::uint16_t>(x.bits)));
            throw Unsupported("as_type<" + n.template_arg + ">");
        });
    }
    if (name == "simd_vote::vote_t" || name == "quad_vote::vote_t")
        return per_lane(args.at(0), [&](const Value& x, int) {
            return make_int(name[0] == 's' ? Type::U64 : Type::U16, x.bits);
        });
    if (name.rfind("simd_", 0) == 0 || name.rfind("quad_", 0) == 0)
        return group_function(name, args);
    Lanes out;
    for (int i = 0; i < kLanes; ++i) {
        std::vector<Value> lane_args;
        for (const auto& a : args) lane_args.push_back(a[static_cast<std::size_t>(i)]);
        out[static_cast<std::size_t>(i)] = lane_function(name, lane_args);
    }
    return out;
}

}  // namespace msl_eval
