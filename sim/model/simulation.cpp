#include "sim/model/simulation.hpp"

#include <chrono>

#include <systemc>

#include "sim/model/gpu.hpp"
#include "sim/model/stats_tree.hpp"

namespace agx {

RunResult simulate(const MachineConfig& cfg, Workload& workload, const RunOptions& options) {
    RunResult r;
    r.cores = options.cores;
    r.schedulers_per_core = cfg.core.schedulers;
    r.residency = compute_residency(cfg.core, workload.launch(), workload.name());

    const auto t0 = std::chrono::steady_clock::now();
    Gpu gpu("gpu", cfg, options.cores, workload, r.residency);
    if (options.observer)
        for (unsigned i = 0; i < gpu.cores.size(); ++i) gpu.cores[i].observe(options.observer, i);
    if (options.memory_observer) gpu.observe_memory(options.memory_observer);
    sc_core::sc_start();
    for (auto& core : gpu.cores)
        if (core.failure()) std::rethrow_exception(core.failure());

    for (auto& core : gpu.cores) {
        r.cycles = std::max(r.cycles, core.engine().end_cycle());
        r.simd_instructions += core.engine().simd_instructions();
    }
    for (auto& core : gpu.cores) {
        core.finish(r.cycles);
        for (const auto& s : core.engine().scheduler_counters())
            for (std::size_t c = 0; c < kStallCauseCount; ++c) r.stall_cycles[c] += s.stalls[c];
    }
    r.host_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

    nlohmann::json& s = r.stats;
    s["cycles"] = r.cycles;
    s["simd_instructions"] = r.simd_instructions;
    s["machine"] = cfg.name;
    s["workload"] = workload.name();
    s["cores_simulated"] = r.cores;
    s["ipc_per_core"] = r.ipc_per_core();
    s["percent_of_peak"] = r.percent_of_peak();
    s["residency"] = {{"threadgroups_per_core", r.residency.threadgroups_per_core},
                      {"simds_per_threadgroup", r.residency.simds_per_threadgroup},
                      {"limited_by", r.residency.limited_by}};
    nlohmann::json stalls = nlohmann::json::object();
    for (std::size_t c = 0; c < kStallCauseCount; ++c)
        stalls[stall_cause_name(static_cast<StallCause>(c))] = r.stall_cycles[c];
    s["stall_scheduler_cycles"] = stalls;
    s["host"] = {{"seconds", r.host_seconds},
                 {"simd_instructions_per_second",
                  r.host_seconds > 0 ? r.simd_instructions / r.host_seconds : 0.0},
                 {"cycles_per_second", r.host_seconds > 0 ? r.cycles / r.host_seconds : 0.0}};
    s["gpu"] = collect_stats(gpu);
    return r;
}

}  // namespace agx
