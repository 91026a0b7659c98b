// Chip-wide figures beside the per-core ones: `gpu.cores_total` and
// `gpu.cores_mean` hold every statistic of `gpu.core_N` (and its blocks) at
// the same key path, summed over the cores (the additive ones, by their
// declared unit: counts, scheduler-cycles, bytes) and averaged over them
// (every number; the only aggregate of a ratio, a rate or a figure in
// cycles, which may be a time or a mean). A study
// of a 32-core chip reads `gpu.cores_total.l1d.misses` instead of adding 32
// keys, and a sweep takes either as a metric.
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "sim/model/stats.hpp"

namespace agx {

inline constexpr const char* kCoresTotal = "cores_total";
inline constexpr const char* kCoresMean = "cores_mean";

// Adds both to `gpu` (the stats JSON's `gpu` object) from its `core_N`
// objects; `declarations` holds the per-core statistics' declarations (as
// collect_stats appends them) and gains the aggregates'.
void add_core_aggregates(nlohmann::json& gpu, std::vector<StatDeclaration>& declarations);

}  // namespace agx
