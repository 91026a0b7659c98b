#include "sim/model/core_aggregates.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <utility>

namespace agx {

namespace {

bool additive(StatUnit unit) {
    return unit == StatUnit::Count || unit == StatUnit::SchedulerCycles || unit == StatUnit::Bytes;
}

struct Aggregator {
    const std::vector<const nlohmann::json*>& cores;
    const std::map<std::pair<std::string, std::string>, const StatDeclaration*>& declared;
    std::vector<StatDeclaration> added;
    std::map<std::pair<std::string, std::string>, bool> seen;

    // `at`: the key path below a core ("l1d", "scheduler_0.register_cache").
    void walk(const nlohmann::json& first, const std::string& at, nlohmann::json& total,
              nlohmann::json& mean) {
        for (const auto& item : first.items()) {
            const std::string& key = item.key();
            const std::string path = at.empty() ? key : at + "." + key;
            if (item.value().is_object()) {
                nlohmann::json t = nlohmann::json::object(), m = nlohmann::json::object();
                walk(item.value(), path, t, m);
                if (!t.empty()) total[key] = std::move(t);
                if (!m.empty()) mean[key] = std::move(m);
                continue;
            }
            if (!item.value().is_number()) continue;
            const std::string generic =
                generic_stat_path(at.empty() ? "gpu.core_0" : "gpu.core_0." + at);
            const auto d = declared.find({generic, key});
            if (d == declared.end()) continue;
            double sum = 0;
            bool integral = true, same_shape = true;
            std::uint64_t isum = 0;
            for (const nlohmann::json* core : cores) {
                const nlohmann::json* v = core;
                for (std::size_t from = 0; v && from <= path.size();) {
                    const std::size_t dot = std::min(path.find('.', from), path.size());
                    const std::string part = path.substr(from, dot - from);
                    v = v->is_object() && v->contains(part) ? &v->at(part) : nullptr;
                    from = dot + 1;
                }
                if (!v || !v->is_number()) {  // cores that differ in shape: no aggregate
                    same_shape = false;
                    break;
                }
                sum += v->get<double>();
                if (v->is_number_unsigned())
                    isum += v->get<std::uint64_t>();
                else
                    integral = false;
            }
            if (!same_shape) continue;
            const std::string rest = generic.substr(std::string("gpu.core_N").size());
            if (additive(d->second->unit)) {
                if (integral)
                    total[key] = isum;
                else
                    total[key] = sum;
                declare(std::string("gpu.") + kCoresTotal + rest, *d->second, "sum over the cores");
            }
            mean[key] = sum / static_cast<double>(cores.size());
            declare(std::string("gpu.") + kCoresMean + rest, *d->second, "mean over the cores");
        }
    }

    void declare(const std::string& path, const StatDeclaration& per_core, const char* how) {
        if (!seen.emplace(std::make_pair(path, per_core.name), true).second) return;
        added.push_back({path, per_core.name, per_core.unit,
                         std::string(how) + " of `gpu.core_N" +
                             per_core.path.substr(std::string("gpu.core_N").size()) + "." +
                             per_core.name + "`"});
    }
};

}  // namespace

void add_core_aggregates(nlohmann::json& gpu, std::vector<StatDeclaration>& declarations) {
    std::vector<const nlohmann::json*> cores;
    for (unsigned i = 0;; ++i) {
        const std::string key = "core_" + std::to_string(i);
        if (!gpu.contains(key) || !gpu.at(key).is_object()) break;
        cores.push_back(&gpu.at(key));
    }
    if (cores.empty()) return;
    std::map<std::pair<std::string, std::string>, const StatDeclaration*> declared;
    for (const StatDeclaration& d : declarations)
        if (d.path.rfind("gpu.core_N", 0) == 0)
            declared.emplace(std::make_pair(d.path, d.name), &d);
    Aggregator a{cores, declared, {}, {}};
    nlohmann::json total = nlohmann::json::object(), mean = nlohmann::json::object();
    a.walk(*cores.front(), "", total, mean);
    gpu[kCoresTotal] = std::move(total);
    gpu[kCoresMean] = std::move(mean);
    declarations.insert(declarations.end(), a.added.begin(), a.added.end());
}

}  // namespace agx
