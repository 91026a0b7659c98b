// Runs one workload on one machine: elaborates the chip, simulates to the end
// and gathers the statistics. SystemC elaborates once per process, so a
// process runs at most one simulation.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/common/cycle.hpp"
#include "sim/config/machine_config.hpp"
#include "sim/model/stats.hpp"
#include "sim/timing/engine_observer.hpp"
#include "sim/timing/memory_observer.hpp"
#include "sim/timing/occupancy.hpp"
#include "sim/timing/stall_cause.hpp"
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
};

struct RunResult {
    Cycle cycles = 0;
    std::uint64_t simd_instructions = 0;
    unsigned cores = 1;
    unsigned schedulers_per_core = 4;
    Residency residency;
    std::array<std::uint64_t, kStallCauseCount> stall_cycles{};  // summed over schedulers
    double host_seconds = 0.0;
    nlohmann::json stats;  // the whole statistics document

    double ipc_per_core() const {
        return cycles ? static_cast<double>(simd_instructions) / static_cast<double>(cycles) / cores
                      : 0.0;
    }
    // Peak is one SIMD-instruction per scheduler per cycle.
    double percent_of_peak() const { return 100.0 * ipc_per_core() / schedulers_per_core; }
};

RunResult simulate(const MachineConfig& cfg, Workload& workload, const RunOptions& options);

}  // namespace agx
