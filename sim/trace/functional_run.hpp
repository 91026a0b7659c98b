// Runs a workload's instructions with no timing: each simd's stream is
// drained in program order, so a kernel's buffers end as a timed run leaves
// them (the executor computes the same values whatever the timing, as long as
// barriers hold and threadgroups that wait on each other run side by side).
//
// Threadgroups run `window` at a time, in launch order, as the chip holds
// them resident (cores x threadgroups per core): a kernel whose threadgroups
// wait on earlier ones (a scan's look-back) finds them running or done, as on
// the timed model. Inside the window the simds take turns of a few
// instructions, so a simd that spins on memory lets the writer run; a simd
// that reaches a barrier waits there until every live simd of its group has.
#pragma once

#include <cstdint>

#include "sim/trace/workload.hpp"

namespace agx {

// `window`: threadgroups in flight at once (at least 1). Returns the
// SIMD-instructions executed.
std::uint64_t run_functional(Workload& workload, std::uint32_t window);

}  // namespace agx
