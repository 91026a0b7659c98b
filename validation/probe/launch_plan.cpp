#include "validation/probe/launch_plan.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace agx::probe {

namespace {
constexpr std::uint32_t kSimdWidth = 32;
constexpr std::uint32_t kMemoryGranule = 16;  // setThreadgroupMemoryLength wants multiples of 16
}  // namespace

double LaunchPlan::simd_work_per_core() const {
    return cores ? static_cast<double>(threadgroups) * active_simds / cores : 0.0;
}

LaunchPlan plan_launch(std::uint32_t simds_per_core, const DeviceInfo& device, std::uint32_t cores,
                       std::uint32_t max_threads_per_threadgroup, std::uint32_t waves,
                       std::uint32_t groups_per_core) {
    if (simds_per_core == 0 || cores == 0 || waves == 0)
        throw std::invalid_argument("plan_launch: nothing to launch");
    const std::uint32_t max_simds = std::max<std::uint32_t>(
        1, std::min<std::uint32_t>(32, max_threads_per_threadgroup / kSimdWidth));
    // One group may not ask for more than max_threadgroup_memory, so fewer
    // groups than this cannot be enforced: more would fit.
    const std::uint32_t min_groups =
        (device.threadgroup_memory_per_core + device.max_threadgroup_memory - 1) /
        device.max_threadgroup_memory;
    if (groups_per_core && groups_per_core < min_groups)
        throw std::invalid_argument(
            "threadgroup memory cannot hold exactly " + std::to_string(groups_per_core) +
            " threadgroups per core: one threadgroup may ask for at most " +
            std::to_string(device.max_threadgroup_memory) + " of the core's " +
            std::to_string(device.threadgroup_memory_per_core) + " bytes");
    LaunchPlan p;
    p.cores = cores;
    p.waves = waves;
    for (std::uint32_t g = std::max(min_groups, (simds_per_core + max_simds - 1) / max_simds);
         g <= simds_per_core; ++g)
        if (simds_per_core % g == 0 && simds_per_core / g <= max_simds &&
            (groups_per_core == 0 || g == groups_per_core)) {
            p.groups_per_core = g;
            break;
        }
    if (p.groups_per_core == 0)
        throw std::invalid_argument(
            std::to_string(simds_per_core) + " simds per core cannot be split into " +
            (groups_per_core ? "exactly " + std::to_string(groups_per_core)
                             : "at least " + std::to_string(min_groups)) +
            " threadgroups of at most " + std::to_string(max_simds) + " simds");
    p.active_simds = simds_per_core / p.groups_per_core;
    p.threads_per_threadgroup = p.active_simds * kSimdWidth;
    // The largest length that lets exactly groups_per_core groups share a core.
    p.threadgroup_memory_bytes =
        device.threadgroup_memory_per_core / p.groups_per_core / kMemoryGranule * kMemoryGranule;
    if ((p.groups_per_core + 1) * p.threadgroup_memory_bytes <= device.threadgroup_memory_per_core)
        throw std::invalid_argument(
            std::to_string(p.groups_per_core) +
            " threadgroups per core are too many to separate by threadgroup memory");
    p.threadgroups = cores * p.groups_per_core * waves;
    return p;
}

Dispatch dispatch_of(const LaunchPlan& plan, const Kernel& kernel) {
    Dispatch d;
    d.threadgroups = plan.threadgroups;
    d.threads_per_threadgroup = plan.threads_per_threadgroup;
    d.threadgroup_memory_bytes = plan.threadgroup_memory_bytes;
    d.params.loops = kernel.loops;
    d.params.active_simds = plan.active_simds;
    return d;
}

}  // namespace agx::probe
