#include "sim/sweep/sweep_table.hpp"

#include <cstdio>
#include <sstream>

namespace agx::sweep {

namespace {

std::string four_digits(double v) {
    char b[32];
    std::snprintf(b, sizeof b, "%.4g", v);
    return b;
}

// "core.register_cache.entries=22, cores=4": the axes' values at the baseline.
std::string baseline_text(const SweepSpec& spec) {
    if (spec.axes.empty()) return "";
    std::string text;
    for (const Axis& a : spec.axes)
        text += (text.empty() ? "" : ", ") + a.key + "=" +
                value_text(a.values[spec.baseline[a.dimension]]);
    return text;
}

}  // namespace

std::string sweep_tables(const SweepSpec& spec, const ResultsTable& results,
                         const std::vector<std::string>& metrics) {
    std::ostringstream md;
    const std::string baseline = baseline_text(spec);
    for (const std::string& metric : metrics) {
        const auto values = metric_by_point(results, metric);
        // cell[workload][config], from the points at the baseline.
        std::vector<std::vector<std::string>> cell(
            spec.workloads.size(), std::vector<std::string>(spec.configs.size(), "-"));
        for (const auto& [index, v] : values) {
            if (index >= point_count(spec)) continue;
            const Point p = point_at(spec, index);
            if (at_baseline(spec, p)) cell[p.workload][p.config] = four_digits(v);
        }
        if (md.tellp() > 0) md << "\n";
        md << "### " << metric << (baseline.empty() ? "" : " (at " + baseline + ")") << "\n\n";
        md << "| workload |";
        for (const std::string& c : spec.configs) md << " " << c << " |";
        md << "\n| --- |";
        for (std::size_t c = 0; c < spec.configs.size(); ++c) md << " ---: |";
        md << "\n";
        for (std::size_t w = 0; w < spec.workloads.size(); ++w) {
            md << "| " << spec.workloads[w].name << " |";
            for (const std::string& v : cell[w]) md << " " << v << " |";
            md << "\n";
        }
    }
    return md.str();
}

}  // namespace agx::sweep
