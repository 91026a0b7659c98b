#pragma once

#include <ostream>

#include "sim/config/machine_config.hpp"
#include "sim/model/simulation.hpp"

namespace agx::cli {

// The human-readable account of a run: cycles, instructions, IPC against
// peak, and where the scheduler-cycles went.
void print_summary(std::ostream& out, const MachineConfig& cfg, const Workload& workload,
                   const RunResult& r);

}  // namespace agx::cli
