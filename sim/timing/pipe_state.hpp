// Issue state of one pipeline kind across a core's schedulers: each scheduler
// has its own copy of the pipe, busy for `issue_interval` cycles after an issue.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/common/cycle.hpp"

namespace agx {

class PipeState {
  public:
    explicit PipeState(unsigned schedulers = 4) : free_at_(schedulers, 0), issued_(schedulers, 0) {}

    Cycle free_at(unsigned scheduler) const { return free_at_[scheduler]; }
    // Where free_at(scheduler) is kept, for a reader that wants it without
    // finding the pipe again each time (stable: the schedulers are fixed).
    const Cycle* free_at_entry(unsigned scheduler) const { return &free_at_[scheduler]; }
    void issue(unsigned scheduler, Cycle now, std::uint32_t interval) {
        free_at_[scheduler] = now + interval;
        ++issued_[scheduler];
        busy_cycles_ += interval;
    }
    std::uint64_t issued_total() const {
        std::uint64_t n = 0;
        for (auto v : issued_) n += v;
        return n;
    }
    std::uint64_t busy_cycles() const { return busy_cycles_; }

  private:
    std::vector<Cycle> free_at_;
    std::vector<std::uint64_t> issued_;
    std::uint64_t busy_cycles_ = 0;
};

}  // namespace agx
