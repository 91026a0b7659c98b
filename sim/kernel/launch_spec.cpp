// Resolving a kernel's launch directives (traces/KERNEL.md).
#include "sim/kernel/launch_spec.hpp"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <set>

#include "isa/semantics.hpp"
#include "sim/common/errors.hpp"

namespace agx::kernel {

namespace {

// A number as traces/KERNEL.md writes them: decimal, or hex after 0x; never
// octal (strtoull's base 0 read 010 as 8 and refused 09).
unsigned long long number_literal(const char* text, char** end) {
    if (text[0] == '0' && (text[1] == 'x' || text[1] == 'X') &&
        std::isxdigit(static_cast<unsigned char>(text[2])))
        return std::strtoull(text + 2, end, 16);
    return std::strtoull(text, end, 10);
}

using Variables = std::map<std::string, std::int64_t>;

// Integer expressions: numbers (decimal or 0x hex), variables, + - * / %
// and parentheses, evaluated in checked 64-bit signed arithmetic: an
// overflow (INT64_MIN / -1 among them) or a division by zero is an error
// naming the expression, and so is nesting deeper than kMaxDepth (the
// parser recurses: a bound keeps the stack bounded).
class Expression {
  public:
    Expression(const std::string& text, const Variables& vars, const std::string& where)
        : s_(text), vars_(vars), where_(where) {}

    std::int64_t evaluate() {
        std::int64_t v = sum();
        skip();
        if (i_ != s_.size()) fail("unexpected '" + s_.substr(i_) + "'");
        return v;
    }

  private:
    static constexpr int kMaxDepth = 200;

    [[noreturn]] void fail(const std::string& why) const {
        // A long expression is elided in the middle: the message stays a line.
        std::string shown =
            s_.size() <= 80 ? s_ : s_.substr(0, 50) + "..." + s_.substr(s_.size() - 20);
        for (char& ch : shown)
            if (static_cast<unsigned char>(ch) < 0x20) ch = ' ';
        throw InputError(where_, "bad value '" + shown + "': " + why);
    }
    std::int64_t checked(bool overflowed, std::int64_t v) const {
        if (overflowed) fail("the value leaves 64-bit signed integers");
        return v;
    }
    void skip() {
        while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
    }
    std::int64_t sum() {
        std::int64_t v = product();
        for (skip(); i_ < s_.size() && (s_[i_] == '+' || s_[i_] == '-'); skip()) {
            const char op = s_[i_++];
            const std::int64_t r = product();
            std::int64_t out = 0;
            const bool over =
                op == '+' ? __builtin_add_overflow(v, r, &out) : __builtin_sub_overflow(v, r, &out);
            v = checked(over, out);
        }
        return v;
    }
    std::int64_t product() {
        std::int64_t v = factor();
        for (skip(); i_ < s_.size() && (s_[i_] == '*' || s_[i_] == '/' || s_[i_] == '%'); skip()) {
            const char op = s_[i_++];
            const std::int64_t r = factor();
            if (op != '*' && r == 0) fail("division by zero");
            std::int64_t out = 0;
            if (op == '*') {
                const bool over = __builtin_mul_overflow(v, r, &out);
                v = checked(over, out);
            } else if (r == -1) {  // INT64_MIN / -1 is past INT64_MAX (and traps, as % does)
                if (op == '/' && v == INT64_MIN) fail("the value leaves 64-bit signed integers");
                v = op == '/' ? -v : 0;
            } else
                v = op == '/' ? v / r : v % r;
        }
        return v;
    }
    std::int64_t factor() {
        skip();
        if (i_ == s_.size()) fail("expected a number or a name");
        const char c = s_[i_];
        if (c == '(' || c == '-') {
            if (++depth_ > kMaxDepth)
                fail("nested deeper than " + std::to_string(kMaxDepth) + " levels");
            ++i_;
            std::int64_t v = 0;
            if (c == '(') {
                v = sum();
                skip();
                if (i_ == s_.size() || s_[i_] != ')') fail("missing ')'");
                ++i_;
            } else {
                const std::int64_t f = factor();
                if (__builtin_sub_overflow(std::int64_t{0}, f, &v))
                    fail("the value leaves 64-bit signed integers");
            }
            --depth_;
            return v;
        }
        if (std::isdigit(static_cast<unsigned char>(c))) {
            const char* start = s_.c_str() + i_;
            char* end = nullptr;
            errno = 0;
            const unsigned long long v = number_literal(start, &end);
            if (errno != 0 || v > static_cast<unsigned long long>(INT64_MAX))
                fail("number out of range");
            i_ += static_cast<std::size_t>(end - start);
            return static_cast<std::int64_t>(v);
        }
        if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
            const std::size_t start = i_;
            while (i_ < s_.size() &&
                   (std::isalnum(static_cast<unsigned char>(s_[i_])) || s_[i_] == '_'))
                ++i_;
            const std::string name = s_.substr(start, i_ - start);
            auto it = vars_.find(name);
            if (it == vars_.end()) fail("unknown name '" + name + "'");
            return it->second;
        }
        fail(std::string("unexpected '") + c + "'");
    }

    const std::string& s_;
    const Variables& vars_;
    const std::string& where_;
    std::size_t i_ = 0;
    int depth_ = 0;
};

std::int64_t evaluate(const std::string& text, const Variables& vars, const std::string& where) {
    return Expression(text, vars, where).evaluate();
}

std::uint64_t evaluate_in(const std::string& key, const std::string& text, const Variables& vars,
                          const std::string& where, std::int64_t low, std::int64_t high) {
    const std::int64_t v = evaluate(text, vars, where);
    if (v < low || v > high)
        throw InputError(where, key + "=" + text + " is " + std::to_string(v) + ", must be " +
                                    std::to_string(low) + ".." + std::to_string(high));
    return static_cast<std::uint64_t>(v);
}

std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> out;
    std::size_t start = 0;
    for (;;) {
        auto cut = s.find(sep, start);
        out.push_back(s.substr(start, cut - start));
        if (cut == std::string::npos) return out;
        start = cut + 1;
    }
}

}  // namespace

UniformInit parse_uniform(const std::string& text, const std::string& where) {
    auto bad = [&](const std::string& why) {
        throw InputError(where, "bad uniform '" + text + "': " + why);
    };
    auto one = [&](const std::string& t, bool& half, bool& high) -> unsigned {
        if (t.size() < 2 || t[0] != 'u') bad("expected u0..u255, u0l/u0h or a pair u0_u1");
        std::string digits = t.substr(1);
        half = high = false;
        if (digits.back() == 'l' || digits.back() == 'h') {
            half = true;
            high = digits.back() == 'h';
            digits.pop_back();
        }
        if (digits.empty() || digits.size() > 3 ||
            digits.find_first_not_of("0123456789") != std::string::npos ||
            (digits.size() > 1 && digits[0] == '0'))
            bad("expected u0..u255, u0l/u0h or a pair u0_u1");
        const unsigned n = static_cast<unsigned>(std::stoul(digits));
        if (n > 255) bad("uniforms are u0..u255");
        return n;
    };
    UniformInit u;
    auto parts = split(text, '_');
    bool half = false, high = false;
    const unsigned first = one(parts[0], half, high);
    if (parts.size() == 1) {
        u.first_half = static_cast<std::uint16_t>(first * 2 + (high ? 1 : 0));
        u.halves = half ? 1 : 2;
        return u;
    }
    bool half2 = false, high2 = false;
    if (parts.size() != 2 || half || one(parts[1], half2, high2) != first + 1 || half2)
        bad("a 64-bit uniform is a pair of consecutive 32-bit uniforms, e.g. u0_u1");
    if (first % 2 != 0) bad("a 64-bit pair must start at an even uniform");
    u.first_half = static_cast<std::uint16_t>(first * 2);
    u.halves = 4;
    return u;
}

namespace {

// A constant's bits: `value` in the element type `type`, which must fit the
// uniform's width.
std::uint64_t constant_bits(const std::string& value, const std::string& type_name, unsigned halves,
                            const Variables& vars, const std::string& where) {
    auto type = parse_element_type(type_name);
    if (!type && type_name != "u64" && type_name != "i64")
        throw InputError(where, "unknown type '" + type_name +
                                    "' (f32, f16, i32, u32, i16, u16, i8, u8, i64, u64)");
    const unsigned bytes = type ? element_bytes(*type) : 8;
    if (bytes * 8 > halves * 16u)
        throw InputError(where, "a " + type_name + " value does not fit a " +
                                    std::to_string(halves * 16) + "-bit uniform");
    if (type == ElementType::F32 || type == ElementType::F16) {
        char* end = nullptr;
        double d = std::strtod(value.c_str(), &end);
        // Else an integer expression of the parameters (`value=n`).
        if (value.empty() || *end != '\0') d = static_cast<double>(evaluate(value, vars, where));
        const float f = static_cast<float>(d);
        return type == ElementType::F32 ? isa::sem::bits(f) : isa::sem::f32_to_f16(f);
    }
    const auto v = static_cast<std::uint64_t>(evaluate(value, vars, where));
    return bytes == 8 ? v : v & ((std::uint64_t{1} << (bytes * 8)) - 1);
}

// A fill's number: a decimal or float literal, or else an integer
// expression of the launch's parameters (`high=max`, `value=n-1`).
Fill parse_fill(const Directive& d, const std::map<std::string, std::string>& kv,
                const Variables& vars) {
    Fill f;
    auto get = [&](const char* k) -> const std::string* {
        auto it = kv.find(k);
        return it == kv.end() ? nullptr : &it->second;
    };
    auto number = [&](const char* k, double fallback) {
        const std::string* v = get(k);
        if (!v) return fallback;
        char* end = nullptr;
        const double x = std::strtod(v->c_str(), &end);
        if (!v->empty() && *end == '\0' && std::isfinite(x)) return x;
        if (!v->empty() && (std::isalpha(static_cast<unsigned char>((*v)[0])) || (*v)[0] == '('))
            return static_cast<double>(evaluate(*v, vars, d.where));
        throw InputError(d.where, std::string("bad ") + k + "=" + *v +
                                      ": expected a number or an expression of the parameters");
    };
    const std::string kind = get("fill") ? *get("fill") : "zero";
    if (const std::string* t = get("type")) {
        auto type = parse_element_type(*t);
        if (!type)
            throw InputError(d.where,
                             "unknown type '" + *t + "' (f32, f16, i32, u32, i16, u16, i8, u8)");
        f.type = *type;
    }
    std::set<std::string> allowed = {"size", "fill", "type"};
    if (kind == "zero") {
        f.kind = Fill::Kind::Zero;
    } else if (kind == "constant") {
        f.kind = Fill::Kind::Constant;
        if (!get("value")) throw InputError(d.where, "fill=constant needs value=");
        f.value = number("value", 0);
        allowed.insert("value");
    } else if (kind == "random") {
        f.kind = Fill::Kind::Random;
        f.low = number("low", 0);
        f.high = number("high", 1);
        if (!(f.low <= f.high)) throw InputError(d.where, "fill=random needs low <= high");
        const std::string* seed = get("seed");
        if (seed) {
            char* end = nullptr;
            errno = 0;
            f.seed = number_literal(seed->c_str(), &end);
            if (seed->empty() || *end != '\0' || errno != 0)
                throw InputError(d.where, "bad seed=" + *seed + ": expected an integer");
        }
        allowed.insert({"low", "high", "seed"});
    } else if (kind == "iota") {
        f.kind = Fill::Kind::Iota;
        f.low = number("low", 0);
        allowed.insert("low");
    } else if (kind == "file") {
        f.kind = Fill::Kind::File;
        const std::string* path = get("path");
        if (!path || path->empty()) throw InputError(d.where, "fill=file needs path=");
        f.path = *path;
        allowed.insert("path");
    } else {
        throw InputError(d.where,
                         "unknown fill '" + kind + "' (zero, constant, random, iota, file)");
    }
    for (const auto& [k, v] : kv)
        if (!allowed.count(k))
            throw InputError(d.where, "'" + k + "=' does not apply to a buffer with fill=" + kind);
    return f;
}

// A compiled kernel's arguments (`argument NAME uniform=U type=T`, written
// by `agxsim kernel compile`): a pointer takes the address of the buffer
// `arg NAME buffer=B [offset=E]` names, else the buffer called NAME; a
// scalar takes `--set launch.NAME=V`, else `arg NAME value=V`, else the
// parameter NAME.
void bind_arguments(const LaunchText& text, const std::map<std::string, std::string>& over,
                    const Variables& vars, const std::map<std::string, std::size_t>& buffer_index,
                    const std::function<void(const UniformInit&, const Directive&)>& claim_uniform,
                    const std::string& launch_where, ResolvedLaunch& r) {
    std::map<std::string, const Directive*> args;
    for (const Directive& d : text.directives)
        if (d.keyword == "arg") {
            auto [it, fresh] = args.emplace(d.subject, &d);
            if (!fresh)
                throw InputError(d.where, "arg '" + d.subject + "' is given twice (first at " +
                                              it->second->where + ")");
        }
    std::set<std::string> declared;
    for (const Directive& d : text.directives) {
        if (d.keyword != "argument") continue;
        std::map<std::string, std::string> kv(d.values.begin(), d.values.end());
        if (!kv.count("uniform") || !kv.count("type"))
            throw InputError(d.where, "argument needs uniform= and type=");
        declared.insert(d.subject);
        const UniformInit u0 = parse_uniform(kv["uniform"], d.where);
        claim_uniform(u0, d);
        auto a = args.find(d.subject);
        std::map<std::string, std::string> akv;
        if (a != args.end()) akv.insert(a->second->values.begin(), a->second->values.end());
        // What is missing is missing from the launch: name its file and line.
        const std::string where = a != args.end() ? a->second->where : launch_where;
        if (kv["type"] == "pointer") {
            if (over.count(d.subject) && !vars.count(d.subject))
                throw InputError("--set launch." + d.subject,
                                 "argument '" + d.subject +
                                     "' is a pointer: give it a buffer "
                                     "with `arg " +
                                     d.subject + " buffer=NAME` in the launch");
            if (akv.count("value"))
                throw InputError(where, "argument '" + d.subject +
                                            "' is a pointer: give it buffer=NAME, not value=");
            const std::string buffer = akv.count("buffer") ? akv["buffer"] : d.subject;
            auto it = buffer_index.find(buffer);
            if (it == buffer_index.end())
                throw InputError(
                    where, "argument '" + d.subject + "' is a pointer and no buffer '" + buffer +
                               "' is declared (declare `buffer " + buffer +
                               " size=...` or give `arg " + d.subject + " buffer=NAME`)");
            const std::uint64_t offset =
                akv.count("offset")
                    ? evaluate_in("offset", akv["offset"], vars, where, 0, 1ll << 40)
                    : 0;
            r.bindings.push_back({u0, it->second, offset});
            continue;
        }
        if (akv.count("buffer") || akv.count("offset"))
            throw InputError(where, "argument '" + d.subject + "' is a " + kv["type"] +
                                        " scalar: give it value=, not buffer=");
        std::string value, vwhere = where;
        if (auto o = over.find(d.subject); o != over.end() && !vars.count(d.subject)) {
            value = o->second;
            vwhere = "--set launch." + d.subject;
        } else if (akv.count("value")) {
            value = akv["value"];
        } else if (vars.count(d.subject)) {
            value = d.subject;
        } else {
            throw InputError(launch_where,
                             "argument '" + d.subject + "' (" + kv["type"] +
                                 ") has no value: give `arg " + d.subject +
                                 " value=...` in the launch, a parameter of that name, "
                                 "or --set launch." +
                                 d.subject + "=");
        }
        UniformInit u = u0;
        u.bits = constant_bits(value, kv["type"], u.halves, vars, vwhere);
        r.constants.push_back(u);
    }
    for (const auto& [name, d] : args) {
        if (!declared.count(name))
            throw InputError(d->where,
                             "the kernel has no argument '" + name + "'" +
                                 (declared.empty() ? " (arg is for compiled kernels)" : ""));
        for (const auto& [k, v] : d->values)
            if (k != "value" && k != "buffer" && k != "offset")
                throw InputError(d->where, "unknown arg key '" + k + "' (value, buffer, offset)");
    }
}

}  // namespace

ResolvedLaunch resolve_launch(const LaunchText& text, const std::vector<std::string>& overrides) {
    static const std::set<std::string> kLaunchKeys = {"grid", "threadgroup", "registers",
                                                      "threadgroup_memory", "stack"};
    // Overrides by key; each must be used.
    std::map<std::string, std::string> over;
    for (const auto& o : overrides) {
        const auto eq = o.find('=');
        if (eq == std::string::npos || eq == 0)
            throw InputError("--set launch." + o, "expected launch.KEY=VALUE");
        over[o.substr(0, eq)] = o.substr(eq + 1);
    }
    std::set<std::string> used;

    Variables vars;
    const Directive* launch = nullptr;
    for (const Directive& d : text.directives) {
        if (d.keyword == "param") {
            for (const auto& [k, v] : d.values) {
                if (kLaunchKeys.count(k) || vars.count(k))
                    throw InputError(
                        d.where, "parameter '" + k + "' is declared twice or names a launch key");
                auto it = over.find(k);
                const bool o = it != over.end();
                if (o) used.insert(k);
                vars[k] = evaluate(o ? it->second : v, vars, o ? "--set launch." + k : d.where);
            }
        } else if (d.keyword == "launch") {
            if (launch)
                throw InputError(d.where,
                                 "a second 'launch' line (the first is at " + launch->where + ")");
            launch = &d;
        }
    }
    if (!launch)
        throw InputError(text.directives.empty() ? "kernel" : text.directives.front().where,
                         "no 'launch' line");

    ResolvedLaunch r;
    std::map<std::string, std::string> kv;
    for (const auto& [k, v] : launch->values) {
        if (!kLaunchKeys.count(k))
            throw InputError(launch->where, "unknown launch key '" + k +
                                                "' (grid, threadgroup, registers, "
                                                "threadgroup_memory, stack)");
        kv[k] = v;
    }
    // A compiled kernel's own registers, threadgroup and threadgroup memory
    // (its `compiled` line) stand where the launch gives none.
    const Directive* compiled = nullptr;
    std::map<std::string, std::string> compiled_kv;
    for (const Directive& d : text.directives)
        if (d.keyword == "compiled") {
            compiled = &d;
            for (const auto& [k, v] : d.values) compiled_kv[k] = v;
        }
    if (compiled) {
        for (const char* k : {"registers", "threadgroup"})
            if (!kv.count(k) && compiled_kv.count(k)) kv[k] = compiled_kv[k];
    }
    auto value_of = [&](const std::string& k, std::string& where) -> const std::string* {
        auto o = over.find(k);
        if (o != over.end()) {
            used.insert(k);
            where = "--set launch." + k;
            return &o->second;
        }
        where = launch->where;
        auto it = kv.find(k);
        return it == kv.end() ? nullptr : &it->second;
    };
    auto dims = [&](const std::string& k, std::array<std::uint32_t, 3>& out) {
        std::string where;
        const std::string* v = value_of(k, where);
        if (!v) throw InputError(launch->where, "launch needs " + k + "=");
        auto parts = split(*v, ',');
        if (parts.size() > 3) throw InputError(where, k + "= has at most 3 dimensions");
        for (std::size_t i = 0; i < parts.size(); ++i)
            out[i] =
                static_cast<std::uint32_t>(evaluate_in(k, parts[i], vars, where, 1, 0xffffffffll));
    };
    dims("grid", r.grid);
    dims("threadgroup", r.threadgroup);
    if (std::uint64_t{r.threadgroup[0]} * r.threadgroup[1] * r.threadgroup[2] > 1024)
        throw InputError(launch->where, "a threadgroup has at most 1024 threads");
    auto scalar = [&](const std::string& k, std::int64_t low, std::int64_t high,
                      std::int64_t fallback, bool required) -> std::uint32_t {
        std::string where;
        const std::string* v = value_of(k, where);
        if (!v) {
            if (required) throw InputError(launch->where, "launch needs " + k + "=");
            return static_cast<std::uint32_t>(fallback);
        }
        return static_cast<std::uint32_t>(evaluate_in(k, *v, vars, where, low, high));
    };
    r.registers_halves = scalar("registers", 1, 256, 0, true);
    r.threadgroup_memory = scalar("threadgroup_memory", 0, 65536, 0, false);
    if (compiled) {
        auto number = [&](const char* k) {
            auto it = compiled_kv.find(k);
            return it == compiled_kv.end() ? 0u
                                           : static_cast<std::uint32_t>(evaluate_in(
                                                 k, it->second, vars, compiled->where, 0, 65536));
        };
        const std::uint32_t registers = number("registers");
        if (r.registers_halves < registers)
            throw InputError(launch->where,
                             "the compiled kernel uses " + std::to_string(registers) +
                                 " register halves: registers= must be at least that");
        std::array<std::uint32_t, 3> group{1, 1, 1};
        if (auto it = compiled_kv.find("threadgroup"); it != compiled_kv.end()) {
            auto parts = split(it->second, ',');
            for (std::size_t i = 0; i < parts.size() && i < 3; ++i)
                group[i] = static_cast<std::uint32_t>(
                    evaluate_in("threadgroup", parts[i], vars, compiled->where, 1, 1024));
            if (group != r.threadgroup)
                throw InputError(launch->where,
                                 "the kernel was compiled for threadgroup=" + it->second +
                                     " (its reqd_work_group_size): the launch must match");
        }
        r.threadgroup_memory = std::max(r.threadgroup_memory, number("threadgroup_memory"));
    }
    r.stack_bytes = scalar("stack", 0, 65536, 0, false);
    if (r.stack_bytes % 16 != 0)
        throw InputError(launch->where, "stack= must be a multiple of 16 bytes");

    for (const Directive& d : text.directives)
        if (d.keyword == "argument" && over.count(d.subject)) used.insert(d.subject);
    for (const auto& [k, v] : over)
        if (!used.count(k)) {
            std::string names = "grid, threadgroup, registers, threadgroup_memory, stack";
            for (const auto& [p, _] : vars) names += ", " + p;
            throw InputError("--set launch." + k,
                             "unknown launch key or parameter (" + names + ")");
        }

    // Buffer sizes and constants may use the launch's shape.
    const char* axis[3] = {"x", "y", "z"};
    std::uint64_t threads = 1;
    for (int i = 0; i < 3; ++i) {
        vars[std::string("grid_") + axis[i]] = r.grid[i];
        vars[std::string("threadgroup_") + axis[i]] = r.threadgroup[i];
        threads *= r.grid[i];
    }
    vars["threads"] = static_cast<std::int64_t>(threads);

    std::map<std::string, std::size_t> buffer_index;
    std::vector<std::pair<UniformInit, std::string>> uniforms_seen;
    auto claim_uniform = [&](const UniformInit& u, const Directive& d) {
        for (const auto& [other, where] : uniforms_seen)
            if (u.first_half < other.first_half + other.halves &&
                other.first_half < u.first_half + u.halves)
                throw InputError(d.where, "uniform " + d.subject + " overlaps one set at " + where);
        uniforms_seen.push_back({u, d.where});
    };
    for (const Directive& d : text.directives) {
        std::map<std::string, std::string> kv;
        for (const auto& [k, v] : d.values) kv[k] = v;
        if (d.keyword == "buffer") {
            if (buffer_index.count(d.subject))
                throw InputError(d.where, "buffer '" + d.subject + "' is declared twice");
            auto size = kv.find("size");
            if (size == kv.end()) throw InputError(d.where, "buffer needs size=");
            BufferSpec b;
            b.name = d.subject;
            b.size = evaluate_in("size", size->second, vars, d.where, 1, 1ll << 40);
            b.fill = parse_fill(d, kv, vars);
            buffer_index[b.name] = r.buffers.size();
            r.buffers.push_back(std::move(b));
        } else if (d.keyword == "uniform") {
            const UniformInit u0 = parse_uniform(d.subject, d.where);
            claim_uniform(u0, d);
            if (kv.count("buffer")) {
                for (const auto& [k, v] : kv)
                    if (k != "buffer" && k != "offset")
                        throw InputError(d.where,
                                         "'" + k + "=' does not apply to a buffer's address");
                auto it = buffer_index.find(kv["buffer"]);
                if (it == buffer_index.end())
                    throw InputError(d.where, "no buffer named '" + kv["buffer"] +
                                                  "' is declared before this line");
                if (u0.halves != 4)
                    throw InputError(
                        d.where, "a buffer's address is 64 bits: bind it to a pair such as u0_u1");
                const std::uint64_t offset =
                    kv.count("offset")
                        ? evaluate_in("offset", kv["offset"], vars, d.where, 0, 1ll << 40)
                        : 0;
                r.bindings.push_back({u0, it->second, offset});
            } else {
                auto value = kv.find("value");
                if (value == kv.end())
                    throw InputError(d.where, "uniform needs buffer=NAME or value=");
                for (const auto& [k, v] : kv)
                    if (k != "value" && k != "type")
                        throw InputError(d.where, "'" + k + "=' does not apply to a constant");
                const std::string type = kv.count("type") ? kv["type"]
                                                          : (u0.halves == 1   ? "u16"
                                                             : u0.halves == 2 ? "u32"
                                                                              : "u64");
                UniformInit u = u0;
                u.bits = constant_bits(value->second, type, u.halves, vars, d.where);
                r.constants.push_back(u);
            }
        }
    }
    bind_arguments(text, over, vars, buffer_index, claim_uniform, launch->where, r);
    if (r.stack_bytes > 0) {
        BufferSpec s;
        s.name = "(stack)";
        s.size = r.threadgroup_count() * r.threads_per_threadgroup() * r.stack_bytes;
        r.buffers.push_back(s);
    }
    return r;
}

}  // namespace agx::kernel
