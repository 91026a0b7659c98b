#include "sim/sweep/metrics.hpp"

#include <cctype>

#include "sim/timing/stall_cause.hpp"

namespace agx::sweep {

namespace {

const std::string kStallPrefix = "stall.";

bool is_stall_cause(const std::string& name) {
    for (std::size_t c = 0; c < kStallCauseCount; ++c)
        if (name == stall_cause_name(static_cast<StallCause>(c))) return true;
    return false;
}

std::vector<std::string> stall_metrics() {
    std::vector<std::string> names;
    for (std::size_t c = 0; c < kStallCauseCount; ++c)
        names.push_back(kStallPrefix + stall_cause_name(static_cast<StallCause>(c)));
    return names;
}

std::optional<double> number(const nlohmann::json& v) {
    if (!v.is_number()) return std::nullopt;
    return v.get<double>();
}

}  // namespace

std::vector<std::string> default_metrics() {
    std::vector<std::string> names = {"cycles", "simd_instructions", "ipc"};
    for (std::string& s : stall_metrics()) names.push_back(std::move(s));
    return names;
}

std::string metric_name_problem(const std::string& name) {
    if (name.rfind(kStallPrefix, 0) == 0) {
        if (is_stall_cause(name.substr(kStallPrefix.size()))) return "";
        std::string causes;
        for (std::size_t c = 0; c < kStallCauseCount; ++c)
            causes += std::string(c ? ", " : "") + stall_cause_name(static_cast<StallCause>(c));
        return "'" + name + "' is not a stall cause (" + causes + ")";
    }
    // A dotted key path: segments of letters, digits and '_'.
    bool segment_empty = true;
    for (char c : name) {
        if (c == '.') {
            if (segment_empty) break;
            segment_empty = true;
        } else if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') {
            segment_empty = false;
        } else {
            return "'" + name +
                   "' is not a metric name (cycles, ipc, stalls, stall.CAUSE or a key path a.b.c)";
        }
    }
    if (segment_empty)
        return "'" + name +
               "' is not a metric name (cycles, ipc, stalls, stall.CAUSE or a key path a.b.c)";
    return "";
}

bool is_builtin_metric(const std::string& name) {
    for (const std::string& m : default_metrics())
        if (m == name) return true;
    return false;
}

std::vector<std::string> expand_metric(const std::string& name) {
    if (name == "stalls") return stall_metrics();
    return {name};
}

std::optional<double> metric_value(const nlohmann::json& stats, const std::string& name) {
    if (name == "ipc")
        return stats.contains("ipc_per_core") ? number(stats["ipc_per_core"]) : std::nullopt;
    if (name.rfind(kStallPrefix, 0) == 0 && stats.contains("stall_scheduler_cycles")) {
        const auto& stalls = stats["stall_scheduler_cycles"];
        const std::string cause = name.substr(kStallPrefix.size());
        if (!stalls.is_object() || !stalls.contains(cause)) return std::nullopt;
        // Every scheduler-cycle is an issue or exactly one stall.
        double total = stats.value("simd_instructions", 0.0);
        for (const auto& [k, v] : stalls.items())
            if (v.is_number()) total += v.get<double>();
        const auto v = number(stalls[cause]);
        if (!v) return std::nullopt;
        return total > 0 ? *v / total : 0.0;
    }
    const nlohmann::json* at = &stats;
    std::size_t from = 0;
    while (from <= name.size()) {
        const std::size_t dot = std::min(name.find('.', from), name.size());
        const std::string key = name.substr(from, dot - from);
        if (at->is_object() && at->contains(key)) {
            at = &(*at)[key];
        } else if (at->is_array() && !key.empty() &&
                   key.find_first_not_of("0123456789") == std::string::npos && key.size() < 9 &&
                   std::stoul(key) < at->size()) {
            at = &(*at)[std::stoul(key)];
        } else {
            return std::nullopt;
        }
        from = dot + 1;
    }
    return number(*at);
}

}  // namespace agx::sweep
