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
    // An atomic read-modify-write of `bytes` within one line; returns when its
    // result is back. By default a write's timing.
    virtual Cycle atomic(std::uint64_t address, std::uint32_t bytes, Cycle now) {
        return access(address, bytes, true, now);
    }
    // The cycle the last request was accepted: later than its `now` when it
    // missed and had to wait for a miss status register (MSHR). The load/store
    // unit holds its next request until then.
    virtual Cycle last_accepted() const { return 0; }
    // Requests that found their line present / absent so far (0 for a port
    // that does not keep them), for per-instruction profiles.
    virtual std::uint64_t hits() const { return 0; }
    virtual std::uint64_t misses() const { return 0; }
};

}  // namespace agx
