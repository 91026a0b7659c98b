#include "sim/model/stats.hpp"

#include <cctype>
#include <map>
#include <set>
#include <sstream>
#include <utility>

namespace agx {

const char* stat_unit_name(StatUnit unit) {
    switch (unit) {
        case StatUnit::Count:
            return "count";
        case StatUnit::Cycles:
            return "cycles";
        case StatUnit::SchedulerCycles:
            return "scheduler-cycles";
        case StatUnit::Bytes:
            return "bytes";
        case StatUnit::BytesPerCycle:
            return "bytes/cycle";
        case StatUnit::GigabytesPerSecond:
            return "GB/s";
        case StatUnit::Ratio:
            return "ratio";
        case StatUnit::Percent:
            return "%";
        case StatUnit::InstructionsPerCycle:
            return "instructions/cycle";
        case StatUnit::Seconds:
            return "s (host)";
        case StatUnit::PerSecond:
            return "per s (host)";
        case StatUnit::SimulatedSeconds:
            return "s (simulated)";
        case StatUnit::Gigahertz:
            return "GHz";
        case StatUnit::GigaflopsPerSecond:
            return "GFLOP/s";
        case StatUnit::Text:
            return "text";
        case StatUnit::Group:
            return "object";
    }
    return "?";
}

StatsWriter StatsWriter::group(const char* name, const char* description) {
    declare(name, StatUnit::Group, description);
    nlohmann::json& inner = values_[name];
    if (!inner.is_object()) inner = nlohmann::json::object();
    return StatsWriter(inner, path_.empty() ? name : path_ + "." + name, declarations_);
}

void StatsWriter::declare(const char* name, StatUnit unit, const char* description) {
    if (declarations_)
        declarations_->push_back({generic_stat_path(path_), name, unit, description});
}

std::string generic_stat_path(const std::string& path) {
    std::string out;
    std::size_t i = 0;
    while (i < path.size()) {
        // "_<digits>" up to a '.' or the end is an instance number.
        if (path[i] == '_' && i + 1 < path.size() &&
            std::isdigit(static_cast<unsigned char>(path[i + 1]))) {
            std::size_t j = i + 1;
            while (j < path.size() && std::isdigit(static_cast<unsigned char>(path[j]))) ++j;
            if (j == path.size() || path[j] == '.') {
                out += "_N";
                i = j;
                continue;
            }
        }
        out += path[i++];
    }
    return out;
}

std::string stats_markdown(const std::vector<StatDeclaration>& declarations) {
    std::vector<std::string> order;
    std::map<std::string, std::vector<const StatDeclaration*>> by_path;
    std::set<std::pair<std::string, std::string>> seen;
    // The chip-wide aggregates repeat every core statistic: one note, not
    // two more copies of the cores' tables.
    bool aggregates = false;
    for (const StatDeclaration& d : declarations) {
        if (d.path.rfind("gpu.cores_total", 0) == 0 || d.path.rfind("gpu.cores_mean", 0) == 0) {
            aggregates = true;
            continue;
        }
        if (!seen.insert({d.path, d.name}).second) continue;
        if (!by_path.count(d.path)) order.push_back(d.path);
        by_path[d.path].push_back(&d);
    }
    std::ostringstream md;
    for (const std::string& path : order) {
        md << "### `" << (path.empty() ? "(top level)" : path) << "`\n\n";
        md << "| key | unit | meaning |\n| --- | --- | --- |\n";
        for (const StatDeclaration* d : by_path[path])
            md << "| `" << d->name << "` | " << stat_unit_name(d->unit) << " | " << d->description
               << " |\n";
        md << "\n";
    }
    if (aggregates)
        md << "### `gpu.cores_total`, `gpu.cores_mean`\n\n"
              "Every statistic of `gpu.core_N` and its blocks, at the same key path below "
              "them: `cores_total` sums over the cores those counted in count, "
              "scheduler-cycles or bytes (`gpu.cores_total.l1d.misses`); `cores_mean` "
              "averages every number over the cores (`gpu.cores_mean.l1d.hit_rate`), and is "
              "the only aggregate of a ratio, a rate or a figure in cycles (a time, a "
              "duration or a mean).\n\n";
    return md.str();
}

}  // namespace agx
