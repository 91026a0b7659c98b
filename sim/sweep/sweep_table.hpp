// A sweep's results as Markdown tables (`agxsim sweep table`): one per
// metric, a row per workload and a column per config, with the axes held at
// the baseline point as the line charts hold them. The comparison a paper
// prints: each kernel's time, rate or bandwidth on each machine.
#pragma once

#include <string>
#include <vector>

#include "sim/sweep/results_csv.hpp"
#include "sim/sweep/sweep_spec.hpp"

namespace agx::sweep {

// The tables, each under a heading naming its metric (and the baseline when
// the sweep has axes). A point without a value (failed, or not run yet)
// shows "-". Numbers keep four significant digits.
std::string sweep_tables(const SweepSpec& spec, const ResultsTable& results,
                         const std::vector<std::string>& metrics);

}  // namespace agx::sweep
