// The workloads of the speed benchmark: each a kind of work the simulator
// spends its time differently on (ALU issue every cycle, long dependency
// stalls, the shared SFU, the memory hierarchy, several cores).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/trace/trace_writer.hpp"
#include "sim/trace/workload.hpp"

namespace agx::bench {

struct WorkloadSpec {
    std::string name;
    std::string what;  // one line for the table's legend
    unsigned cores = 1;
    // About how many SIMD-instructions the full and the --short run simulate
    // (for a library kernel's row: its launch's n).
    std::uint64_t full = 0;
    std::uint64_t short_run = 0;
    // The machine, when the row needs its own (a chip of 32 cores); empty:
    // the benchmark's --config.
    std::string config;
};

const std::vector<WorkloadSpec>& workload_specs();
const WorkloadSpec* find_workload(const std::string& name);

// Builds workload `name` with about `instructions` SIMD-instructions in all
// (rounded to whole loop bodies on every simd) for a run on `cores` cores.
// Throws std::invalid_argument for an unknown name.
std::unique_ptr<Workload> make_workload(const std::string& name, std::uint64_t instructions,
                                        unsigned cores);

// Writes the same workload as a trace, its loop as a repeat block, if it is
// one of the stored-body kinds; false for the generated memory kernels.
bool write_program_trace(const std::string& name, std::uint64_t instructions, unsigned cores,
                         TraceWriter& out);

}  // namespace agx::bench
