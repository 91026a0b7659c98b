// The time line of one data path (a cache level's port, a DRAM channel's
// bus): requests reserve their bytes at the earliest time, at or after their
// own arrival, at which the path still has capacity.
//
// The memory levels are loosely timed: each request carries its own time, a
// little ahead of the kernel's, and requests from different cores reach a
// level out of time order. A single "busy until" would queue an early
// request behind a later one that happened to be simulated first, so the
// capacity is kept per bucket of a few cycles instead: a request arriving
// late in simulation still fills the gaps before later reservations. Memory
// is a fixed ring of buckets, whatever the run's length.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/common/cycle.hpp"
#include "sim/common/divisor.hpp"

namespace agx {

class BandwidthTimeline {
  public:
    // `bytes_per_cycle` > 0: the path's rate.
    explicit BandwidthTimeline(double bytes_per_cycle, Cycle bucket_cycles = 4);

    // Moves `bytes` over the path, starting no earlier than `arrival`;
    // returns the cycle the last byte has passed (at least arrival plus the
    // transfer time).
    Cycle reserve(Cycle arrival, std::uint32_t bytes);
    // When data that would be ready at `ready` without contention gets through
    // this path: the transfer is taken to end at `ready` when the path is
    // idle, so an idle path adds no latency, a busy one its queueing delay.
    Cycle pass(Cycle ready, std::uint32_t bytes);

    double bytes_per_cycle() const { return rate_; }
    std::uint64_t requests() const { return requests_; }
    std::uint64_t bytes() const { return bytes_; }
    // Summed over requests: cycles each waited beyond its own transfer time.
    double queue_cycles() const { return queue_cycles_; }
    // The span over which the path carried data (first arrival to last byte).
    Cycle first_arrival() const { return first_; }
    Cycle last_done() const { return last_; }

  private:
    double& used(std::uint64_t bucket);
    // The first bucket at or after full bucket `b` that is not full.
    std::uint64_t past_full(std::uint64_t b);

    double rate_;
    Cycle bucket_cycles_;
    Divisor bucket_of_;  // cycle -> bucket (a shift for a power of two, as the default 4)
    double inverse_rate_;
    double capacity_;                  // bytes per bucket
    double epsilon_;                   // bytes that count as none
    std::vector<double> used_;         // ring of bytes reserved per bucket
    std::vector<std::uint64_t> next_;  // per full bucket: a later bucket (past_full)
    std::uint64_t base_ = 0;           // oldest bucket the ring holds
    std::uint64_t first_open_ = 0;     // every bucket below it is full
    std::uint64_t end_ = 0;            // every bucket from it on is empty
    std::uint64_t requests_ = 0, bytes_ = 0;
    double queue_cycles_ = 0;
    Cycle first_ = kNever, last_ = 0;
};

}  // namespace agx
