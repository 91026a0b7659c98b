// A hook on the memory hierarchy, attached from outside
// (RunOptions::memory_observer), told of every request each level serves:
// the caches inside the cores (their misses), the L2, the SLC and DRAM. The
// timeline draws them as async slices (sim/stats/timeline.hpp).
#pragma once

#include <cstdint>

#include "sim/common/cycle.hpp"

namespace agx {

class MemoryObserver {
  public:
    virtual ~MemoryObserver() = default;
    // `level` (the block's SystemC name, "gpu.l2") served a request for
    // `address` from cycle `start` to `end`; `hit`: whether it held the line
    // (a miss went on to the level below). A core cache reports its misses.
    virtual void memory_request(const char* level, std::uint64_t address, bool write, Cycle start,
                                Cycle end, bool hit) = 0;
};

}  // namespace agx
