// A file of miss status holding registers: the misses a cache has in flight,
// each held until its fill returns. A miss that finds the file full waits
// for the earliest fill, which is how a cache with few MSHRs caps the
// bandwidth it can draw from below (bandwidth <= entries x line / latency).
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <vector>

#include "sim/common/cycle.hpp"

namespace agx {

class MissTracker {
  public:
    // `entries` 0: unlimited.
    explicit MissTracker(std::uint32_t entries) : entries_(entries) { done_.reserve(entries); }

    // The first cycle at or after `t` at which a miss can take an entry. If it
    // must wait, the entry it takes is the one that frees first.
    Cycle acquire(Cycle t) {
        if (entries_ == 0) return t;
        retire(t);
        if (done_.size() < entries_) return t;
        std::pop_heap(done_.begin(), done_.end(), std::greater<>());
        const Cycle freed = done_.back();
        done_.pop_back();
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
        done_.push_back(done);
        std::push_heap(done_.begin(), done_.end(), std::greater<>());
    }
    std::uint32_t entries() const { return entries_; }
    std::uint64_t full_waits() const { return full_waits_; }
    std::uint64_t wait_cycles() const { return wait_cycles_; }

  private:
    void retire(Cycle t) {
        while (!done_.empty() && done_.front() <= t) {
            std::pop_heap(done_.begin(), done_.end(), std::greater<>());
            done_.pop_back();
        }
    }
    std::uint32_t entries_;
    std::vector<Cycle> done_;  // min-heap of fill times
    std::uint64_t full_waits_ = 0, wait_cycles_ = 0;
};

}  // namespace agx
