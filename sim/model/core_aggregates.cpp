#include "sim/model/core_aggregates.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>

namespace agx {

namespace {

bool additive(StatUnit unit) {
    return unit == StatUnit::Count || unit == StatUnit::SchedulerCycles || unit == StatUnit::Bytes;
}

struct Aggregator {
    const std::map<std::pair<std::string, std::string>, const StatDeclaration*>& declared;
    std::vector<StatDeclaration> added;
    std::set<std::pair<std::string, std::string>> seen;

    // `nodes`: the same object in every core; `generic`: its declared path
    // ("gpu.core_N.scheduler_N.register_cache").
    void walk(const std::vector<const nlohmann::json*>& nodes, const std::string& generic,
              nlohmann::json& total, nlohmann::json& mean) {
        for (const auto& item : nodes.front()->items()) {
            const std::string& key = item.key();
            // The same key in every core, or no aggregate of it.
            std::vector<const nlohmann::json*> values;
            for (const nlohmann::json* n : nodes) {
                const auto it = n->find(key);
                if (it == n->end() || it->is_object() != item.value().is_object() ||
                    it->is_number() != item.value().is_number())
                    break;
                values.push_back(&*it);
            }
            if (values.size() != nodes.size()) continue;
            if (item.value().is_object()) {
                nlohmann::json t = nlohmann::json::object(), m = nlohmann::json::object();
                walk(values, generic_stat_path(generic + "." + key), t, m);
                if (!t.empty()) total[key] = std::move(t);
                if (!m.empty()) mean[key] = std::move(m);
                continue;
            }
            if (!item.value().is_number()) continue;
            const auto d = declared.find({generic, key});
            if (d == declared.end()) continue;
            double sum = 0;
            bool integral = true;
            std::uint64_t isum = 0;
            for (const nlohmann::json* v : values) {
                sum += v->get<double>();
                if (v->is_number_unsigned())
                    isum += v->get<std::uint64_t>();
                else
                    integral = false;
            }
            const std::string rest = generic.substr(std::string("gpu.core_N").size());
            if (additive(d->second->unit)) {
                if (integral)
                    total[key] = isum;
                else
                    total[key] = sum;
                declare(std::string("gpu.") + kCoresTotal + rest, *d->second, "sum over the cores");
            }
            mean[key] = sum / static_cast<double>(values.size());
            declare(std::string("gpu.") + kCoresMean + rest, *d->second, "mean over the cores");
        }
    }

    void declare(const std::string& path, const StatDeclaration& per_core, const char* how) {
        if (!seen.emplace(path, per_core.name).second) return;
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
    Aggregator a{declared, {}, {}};
    nlohmann::json total = nlohmann::json::object(), mean = nlohmann::json::object();
    a.walk(cores, "gpu.core_N", total, mean);
    gpu[kCoresTotal] = std::move(total);
    gpu[kCoresMean] = std::move(mean);
    declarations.insert(declarations.end(), a.added.begin(), a.added.end());
}

}  // namespace agx
