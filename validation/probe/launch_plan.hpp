// How a dispatch gets a benchmark's occupancy (simds per core) on the GPU:
// the threadgroup memory each threadgroup asks for limits how many fit on a
// core, and each threadgroup runs `active_simds` simds; enough threadgroups
// fill every core `waves` times (~250, which hides the dispatch's own cost).
#pragma once

#include <cstdint>

#include "validation/probe/backend.hpp"

namespace agx::probe {

struct LaunchPlan {
    std::uint32_t groups_per_core = 0;  // resident threadgroups per core
    std::uint32_t active_simds = 0;     // simds per threadgroup that run the body
    std::uint32_t threads_per_threadgroup = 0;
    std::uint32_t threadgroup_memory_bytes = 0;
    std::uint32_t threadgroups = 0;
    std::uint32_t waves = 0;
    // Simds that ran the body on one core over the whole dispatch: the
    // figure's denominator.
    double simd_work_per_core() const;
    std::uint32_t cores = 0;
};

// groups_per_core x active_simds = simds_per_core, with the fewest groups
// that keep a group within the pipeline's thread limit and within the
// largest threadgroup memory one group may ask for. Throws std::invalid_argument
// when the occupancy cannot be reached (a prime number of simds above 32).
// A benchmark that names its threadgroups per core (`groups_per_core`, its
// definition's resident_threadgroups; 0: none named) gets exactly that many.
LaunchPlan plan_launch(std::uint32_t simds_per_core, const DeviceInfo& device, std::uint32_t cores,
                       std::uint32_t max_threads_per_threadgroup, std::uint32_t waves,
                       std::uint32_t groups_per_core = 0);

Dispatch dispatch_of(const LaunchPlan& plan, const Kernel& kernel);

}  // namespace agx::probe
