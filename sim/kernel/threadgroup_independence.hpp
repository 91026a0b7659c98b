// Whether a kernel's threadgroups are independent: none reads device memory
// that another writes, and none uses a device atomic, so they may run in any
// order with the same results. A sampled run executes a skipped range of
// such a kernel as soon as it skips it (SamplingPlan::early).
//
// The finding is static, from the code: every device load and store names
// its buffer by a uniform pair (a launch binding, which the code does not
// overwrite), no buffer is both loaded and stored, and there is no device
// atomic. An access is taken to stay inside the buffer its base points
// into; KernelWorkload checks that it does once the finding is relied on.
// A kernel that updates a buffer in place (saxpy's y) or whose threadgroups
// wait on each other (a scan's look-back, through atomics) is not
// independent by this test, even where its threadgroups touch disjoint
// elements. Stores of two threadgroups to one word of a buffer nobody loads
// are not looked for: without an atomic they race on the GPU too, and
// their order is not the kernel's to rely on.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/kernel/device_memory.hpp"
#include "sim/kernel/kernel_program.hpp"
#include "sim/kernel/simd_state.hpp"

namespace agx::kernel {

struct ThreadgroupIndependence {
    bool independent = false;
    std::string reason;  // why not, naming the line (empty when independent)
    // Per instruction of the program's code: the buffer its device accesses
    // stay in, or -1 (not a device load or store).
    std::vector<std::int32_t> buffer_of;
};

// `uniforms` as the launch (and the preamble) left them.
ThreadgroupIndependence find_threadgroup_independence(const KernelProgram& program,
                                                      const Uniforms& uniforms,
                                                      const DeviceMemory& memory);

}  // namespace agx::kernel
