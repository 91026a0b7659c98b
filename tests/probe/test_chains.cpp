// The chains' arithmetic, evaluated on the host (msl_eval.hpp) with the seeds
// the Metal backend uploads: an integer chain that returns to an earlier
// state within its kernel's repetitions could be collapsed by a compiler
// that knows the algebra (and stops measuring the instruction once it
// does), and a float chain that reaches inf or NaN times the special-value
// path instead of the instruction.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <regex>
#include <set>
#include <unordered_map>

#include "msl_eval.hpp"
#include "probe_test_util.hpp"
#include "validation/probe/kernel_generator.hpp"
#include "validation/probe/msl_ops.hpp"
#include "validation/probe/suite_source.hpp"

using namespace agx::probe;
using namespace probe_test;

namespace {

std::array<std::uint32_t, msl_eval::kLanes> lane_seeds() {
    std::array<std::uint32_t, msl_eval::kLanes> s{};
    const auto words = seed_words();
    for (std::size_t i = 0; i < s.size(); ++i) s[i] = words[i];
    return s;
}

// The kernel's chains by name: x<instance>_<copy> with its rotating values
// (x0_1a, x0_1b, ...), or the 24 components of the vec4 shape as one.
std::map<std::string, std::vector<std::string>> chains_of(const msl_eval::Program& p) {
    static const std::regex chain(R"(^(x[0-9]+_[0-9]+)[a-z]?$)"), vec(R"(^v[0-9]+[xyzw]$)");
    std::map<std::string, std::vector<std::string>> out;
    for (const auto& d : p.declarations) {
        std::smatch m;
        if (std::regex_match(d.target, m, chain))
            out[m[1].str()].push_back(d.target);
        else if (std::regex_match(d.target, vec))
            out["v"].push_back(d.target);
    }
    return out;
}

struct Verdict {
    bool evaluated = false;  // false: a type or function the evaluator does not model
    std::string problem;     // empty: every chain is fine
};

// Integer chains: the state of each chain (its live values in all 32 lanes)
// after every repetition differs from its state after every earlier one, so
// no chain's period is shorter than the kernel's repetitions.
Verdict integer_periods(const Kernel& k) {
    Verdict v;
    msl_eval::Program p;
    try {
        p = msl_eval::read_program(k.source);
    } catch (const msl_eval::Unsupported&) {
        return v;
    }
    const auto chains = chains_of(p);
    if (chains.empty()) return v;
    for (const auto& [name, vars] : chains)
        for (const auto& var : vars)
            if (!msl_eval::is_integer(p.types.at(var))) return v;
    v.evaluated = true;

    const std::size_t executed = k.loops * p.loop_body.size() + p.straight.size();
    // Statements per repetition; the vec4 shape's 24 operations are one
    // group (a repetition each), checked per group.
    const std::size_t unit = executed % k.repetitions == 0 ? executed / k.repetitions : 24;
    // A chain's state is its values from the oldest to the newest: a rotating
    // chain's variables take turns, and (a, b) -> (b, a) is a step.
    std::map<std::string, std::vector<std::string>> by_age = chains;
    std::map<std::string, std::string> chain_of;
    for (const auto& [name, vars] : chains)
        for (const auto& var : vars) chain_of[var] = name;
    msl_eval::Machine m(p, lane_seeds(), k.loops, KernelParams{}.uniform);
    struct History {
        std::unordered_multimap<std::uint64_t, std::size_t> seen;  // hash -> step
        std::vector<std::vector<std::uint64_t>> states;
    };
    std::map<std::string, History> history;
    std::size_t done = 0, step = 0;
    auto snapshot = [&] {
        for (const auto& [name, vars] : by_age) {
            std::vector<std::uint64_t> state;
            std::uint64_t h = 1469598103934665603ull;
            for (const auto& var : vars)
                for (const auto& lane : m.value(var)) {
                    state.push_back(lane.bits);
                    h = (h ^ lane.bits) * 1099511628211ull;
                }
            History& hist = history[name];
            const auto range = hist.seen.equal_range(h);
            for (auto it = range.first; it != range.second && v.problem.empty(); ++it)
                if (hist.states[it->second] == state)
                    v.problem = "chain " + name + " after step " + std::to_string(step) +
                                " is back where it was after step " + std::to_string(it->second) +
                                " (period " + std::to_string(step - it->second) + " of " +
                                std::to_string(executed / unit) + " steps)";
            hist.seen.emplace(h, hist.states.size());
            hist.states.push_back(std::move(state));
        }
        ++step;
    };
    m.run(
        [&](const msl_eval::Program::Statement& s) {
            const auto it = chain_of.find(s.target);
            if (it != chain_of.end()) {
                auto& order = by_age[it->second];
                order.erase(std::find(order.begin(), order.end(), s.target));
                order.push_back(s.target);
            }
            if (++done % unit == 0 && v.problem.empty()) snapshot();
        },
        snapshot);  // the seeded state counts: a chain must not return to it
    return v;
}

// The operation of each chain: chains_kernel numbers its instances in the
// body's order, every term `count` times.
std::map<std::string, const MslOp*> ops_of(const Kernel& k) {
    std::map<std::string, const MslOp*> out;
    std::uint32_t index = 0;
    for (const auto& item : k.def.body)
        for (const auto& term : resolve_operation(item.op, k.def.register_bits))
            for (std::uint32_t n = 0; n < item.count * term.count; ++n, ++index) {
                for (std::uint32_t c = 0; c < k.def.ilp; ++c)
                    out["x" + std::to_string(index) + "_" + std::to_string(c)] = term.op;
                out["v"] = term.op;
            }
    return out;
}

// The float ALU's add, multiply and fma: single instructions, measured on
// the reference tables' x*y+z chains as they are.
bool plain_arithmetic(const MslOp& op) {
    for (const char* name : {"FADD16", "FMUL16", "FFMA16", "FADD32", "FMUL32", "FFMA32"})
        if (op.name == name) return true;
    return false;
}

// Float chains of functions, conversions, comparisons and SIMD reductions:
// every lane stays finite, and the chain's state changes at every step.
Verdict float_values(const Kernel& k) {
    Verdict v;
    msl_eval::Program p;
    try {
        p = msl_eval::read_program(k.source);
    } catch (const msl_eval::Unsupported&) {
        return v;
    }
    const auto ops = ops_of(k);
    std::map<std::string, std::vector<std::string>> chains;
    for (const auto& [name, vars] : chains_of(p)) {
        const auto op = ops.find(name);
        if (op == ops.end() || plain_arithmetic(*op->second)) continue;
        if (!msl_eval::is_float(p.types.at(vars.front()))) continue;
        chains[name] = vars;
    }
    if (chains.empty()) return v;
    v.evaluated = true;
    std::map<std::string, std::string> chain_of;
    for (const auto& [name, vars] : chains)
        for (const auto& var : vars) chain_of[var] = name;
    msl_eval::Machine m(p, lane_seeds(), k.loops, KernelParams{}.uniform);
    std::map<std::string, std::vector<msl_eval::Value>> last;
    std::size_t step = 0;
    auto state = [&](const std::vector<std::string>& vars) {
        std::vector<msl_eval::Value> out;
        for (const auto& var : vars)
            for (const auto& lane : m.value(var)) out.push_back(lane);
        return out;
    };
    auto by_age = chains;
    m.run(
        [&](const msl_eval::Program::Statement& s) {
            const auto it = chain_of.find(s.target);
            if (it == chain_of.end() || !v.problem.empty()) return;
            ++step;
            auto& order = by_age[it->second];
            order.erase(std::find(order.begin(), order.end(), s.target));
            order.push_back(s.target);
            for (const auto& lane : m.value(s.target))
                if (!std::isfinite(lane.f)) {
                    v.problem = "chain " + it->second + " is not finite at step " +
                                std::to_string(step) + " (" + s.text + ")";
                    return;
                }
            auto now = state(order);
            if (now == last[it->second])
                v.problem = "chain " + it->second + " does not change at step " +
                            std::to_string(step) + " (" + s.text + ")";
            last[it->second] = std::move(now);
        },
        [&] {
            for (const auto& [name, vars] : chains) last[name] = state(vars);
        });
    return v;
}

// The kernels the suite runs, one per distinct definition, at N and (steady
// method) 2N repetitions, and every table entry at the latency point.
std::vector<Kernel> every_kernel() {
    std::vector<Kernel> out;
    std::set<std::string> seen;
    auto add = [&](const BenchmarkDefinition& d) {
        auto key = to_json(d);
        key.erase("name");
        if (!seen.insert(key.dump()).second) return;
        try {
            out.push_back(generate_kernel(d, d.repetitions));
            if (d.method == BenchmarkDefinition::Method::Steady)
                out.push_back(generate_kernel(d, 2 * d.repetitions));
        } catch (const GeneratorError&) {
        }
    };
    for (const auto& e :
         read_suite(std::string(AGX_SOURCE_DIR) + "/validation/suite/instructions.json"))
        add(e.def);
    for (const auto& op : msl_ops()) add(latency(std::string(op.name)));
    return out;
}

}  // namespace

TEST_CASE("chains: the evaluator follows the generator's arithmetic") {
    // IADD32's Fibonacci rotation, by hand, in lane 0.
    const auto k = generate_kernel(latency("IADD32"), 4);
    const auto p = msl_eval::read_program(k.source);
    msl_eval::Machine m(p, lane_seeds(), k.loops, 5);
    std::vector<std::uint64_t> a;
    m.run([&](const msl_eval::Program::Statement& s) { a.push_back(m.value(s.target)[0].bits); });
    REQUIRE(a.size() == 4);
    CHECK(a[2] == ((a[0] + a[1]) & 0xffffffffu));
    CHECK(a[3] == ((a[1] + a[2]) & 0xffffffffu));
}

TEST_CASE("chains: no integer chain returns to an earlier state within its repetitions") {
    std::vector<std::string> failures;
    std::size_t evaluated = 0;
    for (const auto& k : every_kernel()) {
        const Verdict v = integer_periods(k);
        evaluated += v.evaluated;
        if (!v.problem.empty())
            failures.push_back(k.def.name + " (" + std::to_string(k.repetitions) +
                               " repetitions): " + v.problem);
    }
    INFO(failures.size() << " failing:\n"
                         << [&] {
                                std::string s;
                                for (const auto& f : failures) s += "  " + f + "\n";
                                return s;
                            }());
    CHECK(evaluated > 100);
    CHECK(failures.empty());
}

TEST_CASE("chains: float function chains change every step and stay finite") {
    std::vector<std::string> failures;
    std::size_t evaluated = 0;
    for (const auto& k : every_kernel()) {
        const Verdict v = float_values(k);
        evaluated += v.evaluated;
        if (!v.problem.empty())
            failures.push_back(k.def.name + " (" + std::to_string(k.repetitions) +
                               " repetitions): " + v.problem);
    }
    INFO(failures.size() << " failing:\n"
                         << [&] {
                                std::string s;
                                for (const auto& f : failures) s += "  " + f + "\n";
                                return s;
                            }());
    CHECK(evaluated > 50);
    CHECK(failures.empty());
}
