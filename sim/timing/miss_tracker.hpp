// A file of miss status holding registers: the misses a cache has in flight,
// each held until its fill returns. A miss that finds the file full waits
// for the earliest fill, which is how a cache with few MSHRs caps the
// bandwidth it can draw from below (bandwidth <= entries x line / latency).
#pragma once

#include <algorithm>
#include <cstdint>

#include <boost/circular_buffer.hpp>

#include "sim/common/cycle.hpp"

namespace agx {

class MissTracker {
  public:
    // `entries` 0: unlimited.
    explicit MissTracker(std::uint32_t entries) : entries_(entries), done_(entries) {}

    // The first cycle at or after `t` at which a miss can take an entry. If it
    // must wait, the entry it takes is the one that frees first.
    Cycle acquire(Cycle t) {
        if (entries_ == 0) return t;
        retire(t);
        if (done_.size() < entries_) return t;
        const Cycle freed = done_.front();
        done_.pop_front();
        ++full_waits_;
        wait_cycles_ += freed - t;
        return freed;
    }
    // Whether an entry is free at `t`, without taking it (prefetches give way).
    bool available(Cycle t) {
        if (entries_ == 0) return true;
        retire(t);
        return done_.size() < entries_;
    }
    // Holds an entry until `done` (after acquire).
    void hold(Cycle done) {
        if (entries_ == 0) return;
        if (done_.full()) done_.set_capacity(done_.capacity() + 1);  // (acquire came first)
        // Fills mostly come back in the order they were asked for: the new
        // one usually goes last, else a few places from the end.
        auto at = done_.end();
        while (at != done_.begin() && *(at - 1) > done) --at;
        done_.insert(at, done);
    }
    std::uint32_t entries() const { return entries_; }
    std::uint64_t full_waits() const { return full_waits_; }
    std::uint64_t wait_cycles() const { return wait_cycles_; }

  private:
    void retire(Cycle t) {
        while (!done_.empty() && done_.front() <= t) done_.pop_front();
    }
    std::uint32_t entries_;
    // Fill times in ascending order, in a ring of `entries` (never allocates).
    boost::circular_buffer<Cycle> done_;
    std::uint64_t full_waits_ = 0, wait_cycles_ = 0;
};

}  // namespace agx
