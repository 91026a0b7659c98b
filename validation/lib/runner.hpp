// Runs benchmark definitions on the simulator and computes their figures.
//
// SystemC elaborates once per process, so every simulation runs in a child
// process of its own (fork), `parallel` at a time; the parent never
// elaborates. A child reports its cycles through a pipe.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "sim/common/cycle.hpp"
#include "sim/config/machine_config.hpp"
#include "validation/lib/benchmark.hpp"
#include "validation/lib/simulation_cache.hpp"

namespace agx::validation {

struct SimulatedFigure {
    double value = 0.0;  // cycles per body per scheduler, as measured on hardware
    std::uint64_t simd_instructions = 0;
    Cycle cycles = 0;
    std::string error;  // non-empty: the simulation failed
};

// Simulates each definition in a child process, `parallel` at a time.
// `on_done`, if given, is called in this process as each simulation ends
// (whether it failed), with the number of simulations in all: a run of two
// lengths (the steady method) is two. With a cache, a simulation found there
// is not run, and one that succeeds is stored.
std::vector<SimulatedFigure> simulate_benchmarks(
    const MachineConfig& cfg, const std::vector<BenchmarkDefinition>& defs, unsigned parallel,
    const std::function<void(bool ok, std::size_t simulations)>& on_done = {},
    const SimulationCache* cache = nullptr);

// The figure of one run, from its cycles and the simds it ran at: cycles per
// body per scheduler (exposed for tests).
double figure_from_cycles(const BenchmarkDefinition& def, unsigned schedulers, Cycle cycles,
                          std::uint32_t repetitions, unsigned simds);

}  // namespace agx::validation
