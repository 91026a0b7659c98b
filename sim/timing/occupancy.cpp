#include "sim/timing/occupancy.hpp"

#include <algorithm>

#include "sim/common/errors.hpp"

namespace agx {

std::uint32_t allocated_halves(const CoreConfig& core, std::uint32_t halves) {
    const std::uint32_t granule =
        std::max<std::uint32_t>(1, core.register_file.allocation_granule_halves);
    return std::max<std::uint32_t>(granule, (halves + granule - 1) / granule * granule);
}

std::uint32_t simds_by_registers(const CoreConfig& core, std::uint32_t allocated) {
    return core.register_file.size_bytes / (2u * allocated * core.simd_width);
}

Residency compute_residency(const CoreConfig& core, const Launch& launch,
                            const std::string& where) {
    Residency r;
    r.simds_per_threadgroup = launch.simds_per_threadgroup(core.simd_width);
    if (launch.threads_per_threadgroup == 0 || launch.threadgroups == 0)
        throw InputError(where, "launch has no threads");
    if (launch.threads_per_threadgroup > core.max_threads_per_threadgroup)
        throw InputError(where, "threadgroup of " + std::to_string(launch.threads_per_threadgroup) +
                                    " threads exceeds the core's limit of " +
                                    std::to_string(core.max_threads_per_threadgroup));
    if (launch.registers_halves > core.register_file.max_halves_per_thread)
        throw InputError(where, "launch uses " + std::to_string(launch.registers_halves) +
                                    " half-registers per thread, more than the " +
                                    std::to_string(core.register_file.max_halves_per_thread) +
                                    " allowed");

    // Register rule. The Mesa occupancy table (src/asahi/compiler) gives the most
    // threads a threadgroup may have at a register count (Metal's
    // maxTotalThreadsPerThreadgroup); the core holds as many simds as its
    // register file has room for at that allocation (208 KB / (2 B x halves
    // x 32 lanes)), up to the resident-simd limit.
    const std::uint32_t halves = allocated_halves(core, launch.registers_halves);
    r.thread_limit = 0;
    for (const auto& step : core.register_file.occupancy) {
        if (halves <= step.halves) {
            r.thread_limit = step.threads;
            break;
        }
    }
    if (launch.threads_per_threadgroup > r.thread_limit)
        throw InputError(where, "a threadgroup of " +
                                    std::to_string(launch.threads_per_threadgroup) +
                                    " threads at " + std::to_string(launch.registers_halves) +
                                    " half-registers exceeds the occupancy rule's " +
                                    std::to_string(r.thread_limit) + " threads per threadgroup");
    const std::uint32_t by_regs = simds_by_registers(core, halves) / r.simds_per_threadgroup;
    std::uint32_t by_simds = core.max_resident_simds / r.simds_per_threadgroup;
    std::uint32_t by_tgmem = launch.threadgroup_memory_bytes == 0
                                 ? by_simds
                                 : core.threadgroup_memory_bytes / launch.threadgroup_memory_bytes;
    if (by_regs == 0)
        throw InputError(where, "a threadgroup of " +
                                    std::to_string(launch.threads_per_threadgroup) +
                                    " threads at " + std::to_string(launch.registers_halves) +
                                    " half-registers does not fit in the register file");
    if (by_tgmem == 0)
        throw InputError(where, "threadgroup memory of " +
                                    std::to_string(launch.threadgroup_memory_bytes) +
                                    " bytes exceeds the core's " +
                                    std::to_string(core.threadgroup_memory_bytes));
    if (by_simds == 0) throw InputError(where, "threadgroup has more simds than a core holds");

    r.threadgroups_per_core = by_regs;
    r.limited_by = "registers";
    if (by_simds < r.threadgroups_per_core) {
        r.threadgroups_per_core = by_simds;
        r.limited_by = "simds";
    }
    if (by_tgmem < r.threadgroups_per_core) {
        r.threadgroups_per_core = by_tgmem;
        r.limited_by = "threadgroup_memory";
    }
    if (launch.threadgroups < r.threadgroups_per_core) {
        r.threadgroups_per_core = launch.threadgroups;
        r.limited_by = "launch";
    }
    return r;
}

}  // namespace agx
