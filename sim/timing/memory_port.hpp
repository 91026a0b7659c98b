// How the core's timing logic reaches the memory blocks below it (L1 data
// cache, instruction cache). The SystemC layer implements it; unit tests use
// fixed-latency fakes.
#pragma once

#include <cstdint>

#include "sim/common/cycle.hpp"

namespace agx {

class MemoryPort {
public:
    virtual ~MemoryPort() = default;
    // One request for `bytes` at `address` (within one line), made at `now`.
    // Returns the cycle at which the data is back (loads) or accepted (stores).
    virtual Cycle access(std::uint64_t address, std::uint32_t bytes, bool write, Cycle now) = 0;
};

}  // namespace agx
