// The core's special-function units, shared by its schedulers.
//
// metal-benchmarks ("ALU Layout"): 32 SFU lanes per core, which each scheduler
// sees as a 4-cycle pipeline. An instruction whose per-scheduler issue
// interval is I occupies the shared lanes for I * simd_width /
// (schedulers * lanes) cycles: with 4 schedulers, 32 lanes and 32-wide simds,
// an IMAD32 (I = 4) takes the SFUs for 1 cycle and an RSQRT (I = 8) for 2.
// Occupancy can be fractional (RECIP: 1.5 cycles), so time is kept in units
// of 1 / (schedulers * lanes) cycle, exactly.
#pragma once

#include <algorithm>
#include <cstdint>

#include "sim/common/cycle.hpp"
#include "sim/common/divisor.hpp"

namespace agx {

class SharedSfu {
  public:
    SharedSfu(unsigned schedulers, unsigned lanes, unsigned simd_width)
        : units_per_cycle_(static_cast<std::uint64_t>(schedulers) * lanes),
          simd_width_(simd_width) {}

    // The first cycle in which a new instruction can be handed to the SFUs.
    // The lanes take the next instruction the moment they free up, part-way
    // through a cycle, so fractional occupancy adds up; and a small queue in
    // front of them holds up to one cycle of work, so schedulers arriving a
    // cycle apart do not leave the shared lanes idle.
    Cycle free_at() const { return free_at_; }

    // Hands an instruction over at `now`; returns the cycles it waits in the
    // queue before its lanes start, which delay its result.
    Cycle issue(Cycle now, std::uint32_t issue_interval) {
        const std::uint64_t units_now = now * units_per_cycle_.value();
        const std::uint64_t start = std::max(busy_until_, units_now);
        const std::uint64_t cost = static_cast<std::uint64_t>(issue_interval) * simd_width_;
        busy_until_ = start + cost;
        // Kept: read far more than written.
        const Cycle busy = units_per_cycle_.divide(busy_until_);
        free_at_ = busy > 0 ? busy - 1 : 0;
        busy_units_ += cost;
        ++issued_;
        return units_per_cycle_.divide(start - units_now);
    }

    std::uint64_t issued() const { return issued_; }
    double busy_cycles() const {
        return static_cast<double>(busy_units_) / units_per_cycle_.value();
    }

  private:
    Divisor units_per_cycle_;
    std::uint64_t simd_width_;
    std::uint64_t busy_until_ = 0;
    Cycle free_at_ = 0;
    std::uint64_t busy_units_ = 0;
    std::uint64_t issued_ = 0;
};

}  // namespace agx
