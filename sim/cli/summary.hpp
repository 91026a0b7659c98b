#pragma once

#include <cstdint>
#include <ostream>

#include "sim/config/machine_config.hpp"
#include "sim/model/simulation.hpp"

namespace agx::cli {

// The human-readable account of a run: cycles, instructions, IPC against
// peak, and where the scheduler-cycles went.
void print_summary(std::ostream& out, const MachineConfig& cfg, const Workload& workload,
                   const RunResult& r);
// A sampled run's lines: the estimate's bound, what ran in detail, and
// whether the kernel's behaviour changed between samples.
void print_sampling(std::ostream& out, const SamplingEstimate& e);
// The account of a functional run (`run --functional`): what ran, how fast.
void print_functional_summary(std::ostream& out, const MachineConfig& cfg, const Workload& workload,
                              std::uint64_t simd_instructions, std::uint32_t window,
                              double host_seconds);

}  // namespace agx::cli
