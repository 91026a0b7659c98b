// The active pool of a two-level scheduler: the few simds of a scheduler it
// issues from.
//
// A two-level scheduler (Gebhart et al., ISCA 2011; Narasiman et al., MICRO
// 2011) picks each cycle among a small pool of its resident simds, not all of
// them. A simd leaves the pool when it waits on something long (outstanding
// memory, a barrier) or finishes, and the longest-waiting eligible simd takes
// its place. The ilp_occupancy table of metal-benchmarks shows the effect on
// the Apple GPU: a dependent chain keeps a scheduler busy only a third to a
// half of the time even with 22 simds resident (docs/validation.md).
//
// Slots are a scheduler's simd positions (as in SchedulerWakeups). Each is
// out (not eligible, or not resident), queued (eligible, waiting for room) or
// in the pool. Simds that wait on memory come back at a known cycle or when
// woken; the engine says which.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <vector>

#include "sim/common/cycle.hpp"

namespace agx {

class ActivePool {
  public:
    // capacity 0: every resident simd is in the pool (no pool at all).
    ActivePool(unsigned capacity, unsigned slots)
        : capacity_(capacity),
          state_(slots, kOut),
          departures_(slots, 0),
          members_((slots + 63) / 64, 0) {}

    bool enabled() const { return capacity_ > 0; }
    unsigned size() const { return count_; }  // simds in the pool now
    // One bit per slot, set for the slots in the pool.
    const std::uint64_t* members() const { return members_.data(); }

    // The slot's simd can issue again (newly resident, or back from a wait):
    // it queues for room.
    void arrive(unsigned slot) {
        if (!enabled() || state_[slot] != kOut) return;
        state_[slot] = kQueued;
        queue_.push_back(slot);
    }
    // The slot's simd leaves the pool or the queue (it waits, or finished).
    void leave(unsigned slot) {
        if (!enabled()) return;
        if (state_[slot] == kIn) {
            members_[slot / 64] &= ~(1ull << (slot % 64));
            --count_;
        } else if (state_[slot] == kQueued) {
            queue_.erase(std::find(queue_.begin(), queue_.end(), slot));
        }
        state_[slot] = kOut;
        ++departures_[slot];
    }
    // The slot's simd waits until `when`: out of the pool, back in the queue then.
    void away_until(unsigned slot, Cycle when) {
        if (!enabled()) return;
        leave(slot);
        returns_.push_back({when, slot, departures_[slot]});
        std::push_heap(returns_.begin(), returns_.end(), Later{});
    }
    // Queues the simds whose wait is over by `now`, then fills the pool from
    // the queue, oldest first.
    void refill(Cycle now) {
        while (!returns_.empty() && returns_.front().when <= now) {
            const Return r = returns_.front();
            std::pop_heap(returns_.begin(), returns_.end(), Later{});
            returns_.pop_back();
            // Stale if the simd came back some other way or left again since.
            if (state_[r.slot] == kOut && r.departure == departures_[r.slot]) arrive(r.slot);
        }
        while (count_ < capacity_ && !queue_.empty()) {
            const unsigned slot = queue_.front();
            queue_.pop_front();
            state_[slot] = kIn;
            members_[slot / 64] |= 1ull << (slot % 64);
            ++count_;
        }
    }
    // A simd waits for room in the pool while there is some.
    bool room_for_queued() const { return count_ < capacity_ && !queue_.empty(); }

  private:
    static constexpr std::uint8_t kOut = 0, kQueued = 1, kIn = 2;
    struct Return {
        Cycle when;
        unsigned slot;
        std::uint32_t departure;  // which of the slot's departures it returns from
    };
    struct Later {
        bool operator()(const Return& a, const Return& b) const { return a.when > b.when; }
    };
    unsigned capacity_;
    unsigned count_ = 0;
    std::vector<std::uint8_t> state_;
    std::vector<std::uint32_t> departures_;  // per slot: how many times it left
    std::vector<std::uint64_t> members_;
    std::deque<unsigned> queue_;   // eligible, oldest first
    std::vector<Return> returns_;  // min-heap by cycle
};

}  // namespace agx
