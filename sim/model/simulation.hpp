// Runs one workload on one machine: elaborates the chip, simulates to the end
// and gathers the statistics. SystemC elaborates once per process, so a
// process runs at most one simulation.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/common/cycle.hpp"
#include "sim/config/machine_config.hpp"
#include "sim/model/stats.hpp"
#include "sim/timing/engine_observer.hpp"
#include "sim/timing/memory_observer.hpp"
#include "sim/timing/occupancy.hpp"
#include "sim/timing/stall_cause.hpp"
#include "sim/timing/threadgroup_sampler.hpp"
#include "sim/trace/workload.hpp"

namespace agx {

struct RunOptions {
    unsigned cores = 1;
    // Told of every issue and every simd's waits on every core (not owned;
    // null: nothing is reported and nothing is paid for it).
    EngineObserver* observer = nullptr;
    // Told of every request each memory level serves (not owned; null: none).
    MemoryObserver* memory_observer = nullptr;
    // Receives the declaration of every statistic the run reports (not
    // owned; null: none), for docs/statistics.md.
    std::vector<StatDeclaration>* stat_declarations = nullptr;
    // Sampled simulation (ThreadgroupSampler): the waves it skips run with
    // no timing, and the figures are estimates. Unset: every threadgroup in
    // detail.
    std::optional<SamplingPlan> sampling;
};

struct RunResult {
    Cycle cycles = 0;
    std::uint64_t simd_instructions = 0;
    unsigned cores = 1;
    unsigned schedulers_per_core = 4;
    Residency residency;
    std::array<std::uint64_t, kStallCauseCount> stall_cycles{};  // summed over schedulers
    double clock_ghz = 1.0;                                      // the config's GPU clock
    std::uint64_t flops = 0;               // of the active lanes, all cores (CoreEngine::flops)
    std::uint64_t fp16_flops = 0;          // of them, the 16-bit ones
    double fp32_peak_flops_per_cycle = 0;  // all cores simulated: fused multiply-adds, every lane
    double fp16_peak_flops_per_cycle = 0;  // likewise at 16 bits (f16_arith's issue interval)
    std::uint64_t device_bytes = 0;        // device memory the lanes loaded and stored, all cores
    double dram_peak_gb_per_s = 0;         // the chip's DRAM: bus width x data rate
    double host_seconds = 0.0;
    // A sampled run's estimate and its bound. `cycles` is then the estimate,
    // the instruction, flop and byte counts are exact (the skipped
    // threadgroups are executed and counted), and the stall cycles are the
    // detailed stretches' shares of the estimated scheduler-cycles.
    std::optional<SamplingEstimate> sampling;
    nlohmann::json stats;  // the whole statistics document

    double ipc_per_core() const {
        return cycles ? static_cast<double>(simd_instructions) / static_cast<double>(cycles) / cores
                      : 0.0;
    }
    // The share of issue slots used: one SIMD-instruction per scheduler per
    // cycle is every slot.
    double issue_slot_share() const { return ipc_per_core() / schedulers_per_core; }
    // The simulated GPU's time: cycles at the config's clock.
    double seconds() const { return static_cast<double>(cycles) / (clock_ghz * 1e9); }
    double gflop_per_s() const { return cycles ? flops / seconds() / 1e9 : 0.0; }
    double fp16_gflop_per_s() const { return cycles ? fp16_flops / seconds() / 1e9 : 0.0; }
    double fp32_gflop_per_s() const {
        return cycles ? (flops - fp16_flops) / seconds() / 1e9 : 0.0;
    }
    double fp32_peak_gflop_per_s() const { return fp32_peak_flops_per_cycle * clock_ghz; }
    double fp16_peak_gflop_per_s() const { return fp16_peak_flops_per_cycle * clock_ghz; }
    // Achieved over peak: each names the peak it is a share of.
    double fp32_peak_share() const {
        return fp32_peak_gflop_per_s() > 0 ? fp32_gflop_per_s() / fp32_peak_gflop_per_s() : 0.0;
    }
    double fp16_peak_share() const {
        return fp16_peak_gflop_per_s() > 0 ? fp16_gflop_per_s() / fp16_peak_gflop_per_s() : 0.0;
    }
    double device_gb_per_s() const { return cycles ? device_bytes / seconds() / 1e9 : 0.0; }
    double dram_bandwidth_share() const {
        return dram_peak_gb_per_s > 0 ? device_gb_per_s() / dram_peak_gb_per_s : 0.0;
    }
};

RunResult simulate(const MachineConfig& cfg, Workload& workload, const RunOptions& options);

}  // namespace agx
