// The figures a sweep keeps of each point, read from the run's statistics
// JSON (`agxsim run --stats`).
//
// Names: `cycles`, `simd_instructions`, `ipc` (SIMD-instructions per cycle per
// core), `stall.CAUSE` (the share of scheduler-cycles lost to CAUSE, 0 to 1),
// `stalls` (every stall.CAUSE), or any dotted key path of the statistics whose
// value is a number (`gpu.l2.hits`; a number in a path indexes a list).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace agx::sweep {

// cycles, simd_instructions, ipc and every stall.CAUSE.
std::vector<std::string> default_metrics();

// Empty when `name` is a well-formed metric name, else why not.
std::string metric_name_problem(const std::string& name);

// Whether the statistics of every run have it (cycles, ipc, stall.CAUSE, ...),
// as against a key path that only a run can confirm.
bool is_builtin_metric(const std::string& name);

// `stalls` becomes every stall.CAUSE; any other name is itself.
std::vector<std::string> expand_metric(const std::string& name);

// The metric's value in a run's statistics; nullopt when the statistics have
// no such number.
std::optional<double> metric_value(const nlohmann::json& stats, const std::string& name);

}  // namespace agx::sweep
