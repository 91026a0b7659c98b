// `agxsim stats diff A.json B.json`: what moved between two runs' statistics
// (`agxsim run --stats`). The cycles first; then where the change in cycles
// went, as the stall causes' scheduler-cycles (each cause's change as a share
// of the change in all of them); then every other statistic that moved,
// largest relative change first. The host's timing, which differs on every
// run, is left out.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/cli/commands.hpp"
#include "sim/common/errors.hpp"
#include "sim/common/json_input.hpp"

namespace agx::cli {

namespace {

struct StatsDiffArgs {
    std::string a, b;
};

using Values = std::map<std::string, double>;

// The numeric statistics by dotted key, the host's timing left out.
void flatten(const nlohmann::json& j, const std::string& prefix, Values& out) {
    if (j.is_object()) {
        for (const auto& [k, v] : j.items()) {
            const std::string key = prefix.empty() ? k : prefix + "." + k;
            if (key != "host") flatten(v, key, out);
        }
    } else if (j.is_number()) {
        out[prefix] = j.get<double>();
    }
}

Values read_stats(const std::string& path) {
    const nlohmann::json j = read_json_file(path, "statistics file");
    if (!j.is_object() || !j.contains("cycles") || !j["cycles"].is_number())
        throw InputError(path, "not the statistics of a run (agxsim run --stats): no cycles");
    Values v;
    flatten(j, "", v);
    return v;
}

std::string number(double v) {
    char b[48];
    if (v == std::floor(v) && std::fabs(v) < 1e15)
        std::snprintf(b, sizeof b, "%.0f", v);
    else
        std::snprintf(b, sizeof b, "%.6g", v);
    return b;
}

std::string change(double a, double b) {
    if (a == 0) return "new";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%+.2f%%", 100.0 * (b - a) / std::fabs(a));
    return buf;
}

int diff(const StatsDiffArgs& args) {
    const Values a = read_stats(args.a), b = read_stats(args.b);
    std::cout << "cycles: " << number(a.at("cycles")) << " -> " << number(b.at("cycles")) << " ("
              << change(a.at("cycles"), b.at("cycles")) << ")\n";

    // Where the change went: the stall causes, in scheduler-cycles.
    const std::string stall = "stall_scheduler_cycles.";
    std::vector<std::pair<double, std::string>> causes;
    double moved = 0;
    std::set<std::string> keys;
    for (const auto& kv : a) keys.insert(kv.first);
    for (const auto& kv : b) keys.insert(kv.first);
    for (const std::string& k : keys)
        if (k.rfind(stall, 0) == 0) {
            const double d = (b.count(k) ? b.at(k) : 0) - (a.count(k) ? a.at(k) : 0);
            if (d != 0) causes.emplace_back(d, k.substr(stall.size()));
            moved += std::fabs(d);
        }
    std::sort(causes.begin(), causes.end(), [](const auto& x, const auto& y) {
        return std::fabs(x.first) != std::fabs(y.first) ? std::fabs(x.first) > std::fabs(y.first)
                                                        : x.second < y.second;
    });
    if (!causes.empty()) {
        std::cout << "\nwhere it went (stall causes, scheduler-cycles; each change as a share of "
                     "the changes of all):\n";
        for (const auto& [d, cause] : causes) {
            const std::string k = stall + cause;
            char share[32];
            std::snprintf(share, sizeof share, "%.1f%%", 100.0 * std::fabs(d) / moved);
            std::cout << "  " << cause << ": " << number(a.count(k) ? a.at(k) : 0) << " -> "
                      << number(b.count(k) ? b.at(k) : 0) << " (" << (d > 0 ? "+" : "") << number(d)
                      << ", " << share << ")\n";
        }
    }

    // Every other statistic that moved, largest relative change first.
    std::vector<std::pair<double, std::string>> others;
    std::vector<std::string> only_a, only_b;
    std::size_t compared = 0;
    for (const std::string& k : keys) {
        if (k == "cycles" || k.rfind(stall, 0) == 0) continue;
        const bool in_a = a.count(k) > 0, in_b = b.count(k) > 0;
        if (!in_a) {
            only_b.push_back(k);
            continue;
        }
        if (!in_b) {
            only_a.push_back(k);
            continue;
        }
        ++compared;
        const double x = a.at(k), y = b.at(k);
        if (x == y) continue;
        others.emplace_back(x == 0 ? HUGE_VAL : std::fabs((y - x) / x), k);
    }
    std::sort(others.begin(), others.end(), [](const auto& x, const auto& y) {
        return x.first != y.first ? x.first > y.first : x.second < y.second;
    });
    if (!others.empty()) {
        std::cout << "\nother statistics that moved, largest relative change first:\n";
        for (const auto& [r, k] : others)
            std::cout << "  " << k << ": " << number(a.at(k)) << " -> " << number(b.at(k)) << " ("
                      << change(a.at(k), b.at(k)) << ")\n";
    }
    for (const std::string& k : only_a) std::cout << "  only in " << args.a << ": " << k << "\n";
    for (const std::string& k : only_b) std::cout << "  only in " << args.b << ": " << k << "\n";
    std::cout << "\n"
              << others.size() + causes.size() + (a.at("cycles") != b.at("cycles")) << " of "
              << compared + causes.size() + 1 << " statistics moved"
              << (only_a.size() + only_b.size()
                      ? ", " + std::to_string(only_a.size() + only_b.size()) + " in one file only"
                      : "")
              << " (the host's timing left out)\n";
    return kExitOk;
}

}  // namespace

void add_stats_command(CLI::App& app, Action& action) {
    CLI::App* cmd = app.add_subcommand("stats", "Work with run statistics (agxsim run --stats)");
    cmd->require_subcommand(1);
    auto args = std::make_shared<StatsDiffArgs>();
    CLI::App* d = cmd->add_subcommand(
        "diff", "What moved between two runs' statistics, and where the change in cycles went");
    d->add_option("a", args->a, "The first run's statistics (JSON)")->required();
    d->add_option("b", args->b, "The second run's statistics (JSON)")->required();
    d->callback([args, &action] { action = [args] { return diff(*args); }; });
}

}  // namespace agx::cli
