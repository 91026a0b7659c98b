// A sweep's results drawn as SVG, in the style of the validation plots: for
// each axis a line chart of a metric against the axis' values (one line per
// workload and config, the other axes at their baseline), and for each pair
// of axes a heatmap per workload and config.
#pragma once

#include <string>
#include <vector>

#include "sim/sweep/results_csv.hpp"
#include "sim/sweep/sweep_spec.hpp"

namespace agx::sweep {

struct PlotOptions {
    std::vector<std::string> metrics;  // results.csv columns
    bool normalise = false;            // each line divided by its value at the baseline point
    std::string out_dir;
};

// Writes the SVGs into options.out_dir and returns their paths.
std::vector<std::string> write_sweep_plots(const SweepSpec& spec, const ResultsTable& results,
                                           const PlotOptions& options);

}  // namespace agx::sweep
