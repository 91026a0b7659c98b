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
#include <functional>

#include "sim/trace/workload.hpp"

namespace agx {

// What a functional run executed: the figures a timed run counts at issue.
struct FunctionalTally {
    std::uint64_t simd_instructions = 0;
    std::uint64_t flops = 0;         // as CoreEngine::flops: per active lane
    std::uint64_t fp16_flops = 0;    // of them, the 16-bit ones
    std::uint64_t device_bytes = 0;  // as LoadStoreUnit::bytes: each byte an active lane touches

    FunctionalTally& operator+=(const FunctionalTally& o) {
        simd_instructions += o.simd_instructions;
        flops += o.flops;
        fp16_flops += o.fp16_flops;
        device_bytes += o.device_bytes;
        return *this;
    }
};

// `window`: threadgroups in flight at once (at least 1). Returns the
// SIMD-instructions executed.
std::uint64_t run_functional(Workload& workload, std::uint32_t window);

// Told of each line of `line_bytes` a device access touches (functional
// warming), with whether the access writes it.
using LineToucher = std::function<void(std::uint64_t address, bool write)>;

// Threadgroups `first` to `last` (exclusive) only, `window` at a time: the
// threadgroups a sampled run skips (ThreadgroupSampler). `touch` (may be
// empty) is told of every device line they access.
FunctionalTally run_functional(Workload& workload, std::uint32_t first, std::uint32_t last,
                               std::uint32_t window, const LineToucher& touch = {},
                               std::uint32_t line_bytes = 128);

}  // namespace agx
