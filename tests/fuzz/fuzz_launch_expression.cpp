// A launch expression (traces/KERNEL.md, "Expressions"; what `--set
// launch.n='(n+31)/32'` and a kernel's sizes and constants hold): the
// input's last line (a final newline ends it) is the expression, and up to
// 8 lines before it, NAME=VALUE, declare parameters in order (`param
// NAME=VALUE`, each VALUE an expression of the ones before). The expression
// is a 64-bit constant, `uniform u0_u1 value=EXPR type=i64`, of a launch
// resolved with them; it evaluates or is refused with InputError. An
// accepted expression evaluates again to the same value; its value printed
// in decimal and in hex evaluates to it too, and so does the expression
// between spaces and in parentheses (or is refused there, nested one level
// too deep); as a buffer's size (1..2^40) it is accepted exactly when its
// value is in range, and is that size.
#include <cinttypes>

#include "sim/kernel/launch_spec.hpp"
#include "tests/fuzz/fuzz_support.hpp"

namespace {

namespace ak = agx::kernel;

using Definitions = std::vector<std::pair<std::string, std::string>>;

// A launch of one thread with the parameters, then one more directive:
// `keyword subject values...`.
ak::LaunchText launch_with(const Definitions& params, const std::string& keyword,
                           const std::string& subject,
                           std::vector<std::pair<std::string, std::string>> values) {
    ak::LaunchText t;
    if (!params.empty()) t.directives.push_back({"param", "", params, "input:1"});
    t.directives.push_back(
        {"launch", "", {{"grid", "1"}, {"threadgroup", "1"}, {"registers", "8"}}, "input:2"});
    t.directives.push_back({keyword, subject, std::move(values), "input:3"});
    return t;
}

// The expression's value as a 64-bit constant, or false if it is refused.
bool value_of(const Definitions& params, const std::string& expression, std::int64_t& value) {
    ak::ResolvedLaunch r;
    const ak::LaunchText t =
        launch_with(params, "uniform", "u0_u1", {{"value", expression}, {"type", "i64"}});
    if (!agx_fuzz::accepted("resolve_launch (uniform value=)",
                            [&] { r = ak::resolve_launch(t, {}); }))
        return false;
    if (r.constants.size() != 1 || r.constants[0].halves != 4 || r.constants[0].first_half != 0)
        agx_fuzz::finding("uniform u0_u1 value= did not make one 64-bit constant in u0_u1");
    value = static_cast<std::int64_t>(r.constants[0].bits);
    return true;
}

std::string quoted(const std::string& s) {
    return "'" + agx::bounded_message(s) + "'";
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace agx_fuzz;
    std::string text(reinterpret_cast<const char*>(data), size);
    if (!text.empty() && text.back() == '\n') text.pop_back();  // ends the last line
    std::vector<std::string> lines;
    for (std::size_t at = 0; at <= text.size();) {
        std::size_t end = text.find('\n', at);
        if (end == std::string::npos) end = text.size();
        lines.push_back(text.substr(at, end - at));
        at = end + 1;
    }
    const std::string expression = lines.back();
    Definitions params;
    for (std::size_t i = 0; i + 1 < lines.size() && params.size() < 8; ++i) {
        const std::size_t eq = lines[i].find('=');
        params.emplace_back(lines[i].substr(0, eq),
                            eq == std::string::npos ? "" : lines[i].substr(eq + 1));
    }

    std::int64_t value = 0;
    const bool ok = value_of(params, expression, value);

    // As a buffer's size: refused with the uniform, else exactly when out of range.
    constexpr std::int64_t kMaxSize = std::int64_t{1} << 40;
    ak::ResolvedLaunch sized;
    const ak::LaunchText buffer = launch_with(params, "buffer", "b", {{"size", expression}});
    const bool size_ok =
        accepted("resolve_launch (buffer size=)", [&] { sized = ak::resolve_launch(buffer, {}); });
    if (!ok) {
        if (size_ok) finding("a buffer's size= accepts " + quoted(expression) + ", a value= not");
        return 0;
    }
    const bool in_range = value >= 1 && value <= kMaxSize;
    if (size_ok != in_range)
        finding("a buffer's size= " + std::string(size_ok ? "accepts" : "refuses") + " " +
                quoted(expression) + ", which is " + std::to_string(value));
    if (size_ok && (sized.buffers.size() != 1 || sized.buffers[0].size != std::uint64_t(value)))
        finding("a buffer's size= " + quoted(expression) + " is not its value " +
                std::to_string(value));

    // The same value again, from the expression and from forms of it.
    auto same = [&](const std::string& form, bool may_refuse) {
        std::int64_t again = 0;
        if (!value_of(params, form, again)) {
            if (may_refuse) return;
            finding(quoted(expression) + " is " + std::to_string(value) + " but " + quoted(form) +
                    " is refused");
        }
        if (again != value)
            finding(quoted(expression) + " is " + std::to_string(value) + " but " + quoted(form) +
                    " is " + std::to_string(again));
    };
    same(expression, false);
    // INT64_MIN has no literal: its magnitude is past INT64_MAX.
    same(value == INT64_MIN ? "-9223372036854775807-1" : std::to_string(value), false);
    char hex[32];
    if (value == INT64_MIN)
        std::snprintf(hex, sizeof hex, "-0x7fffffffffffffff-1");
    else if (value < 0)
        std::snprintf(hex, sizeof hex, "-0x%" PRIx64, static_cast<std::uint64_t>(-value));
    else
        std::snprintf(hex, sizeof hex, "0x%" PRIX64, static_cast<std::uint64_t>(value));
    same(hex, false);
    same(" \t" + expression + " ", false);
    same("(" + expression + ")", true);  // one level deeper: past the limit, refused
    return 0;
}
