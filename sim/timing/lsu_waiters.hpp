// The simds waiting for the load/store unit to take their device-memory
// instruction (stall cause lsu_queue), in the order they started waiting.
//
// When the unit's data path or the L1's MSHRs are full, every simd with a
// device access waits for the same moment; waking them all then, only for one
// to get the unit and the rest to wait again, costs a re-evaluation of every
// waiting simd per line the unit moves. Instead they sleep here, and only the
// first is woken when the unit can take more: the unit serves waiting simds
// in arrival order. A sleeping simd is known by its id alone, so a scheduler's
// scan passes over it without touching its context.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include <boost/circular_buffer.hpp>

namespace agx {

class LsuWaiters {
  public:
    LsuWaiters(std::uint32_t simds, unsigned schedulers)
        : state_(simds, kNone), per_scheduler_(schedulers, 0), queue_(simds) {}

    bool waiting(std::uint32_t id) const { return state_[id] != kNone; }
    bool asleep(std::uint32_t id) const { return state_[id] == kAsleep; }
    bool empty() const { return queue_.empty(); }
    std::uint32_t count(unsigned scheduler) const { return per_scheduler_[scheduler]; }

    // Puts the simd to sleep in the queue (a woken one keeps its place).
    void add(std::uint32_t id, unsigned scheduler) {
        if (state_[id] == kNone) {
            ++per_scheduler_[scheduler];
            queue_.push_back(id);
        }
        state_[id] = kAsleep;
    }
    // Called for every issue, nearly always for a simd that is not waiting:
    // that check is inline, the rest is not.
    void remove(std::uint32_t id, unsigned scheduler) {
        if (state_[id] != kNone) remove_waiting(id, scheduler);
    }
    // Wakes the first `n` waiting simds, calling wake(id) for each (they stay
    // queued until they issue or find another reason to wait).
    template <class Wake>
    void wake_first(unsigned n, Wake wake) {
        for (unsigned i = 0; i < n && i < queue_.size(); ++i) {
            state_[queue_[i]] = kWoken;
            wake(queue_[i]);
        }
    }

  private:
    enum : std::uint8_t { kNone, kAsleep, kWoken };
    [[gnu::noinline]] void remove_waiting(std::uint32_t id, unsigned scheduler) {
        state_[id] = kNone;
        --per_scheduler_[scheduler];
        queue_.erase(
            std::find(queue_.begin(), queue_.end(), id));  // near the front: woken simds leave
    }

    std::vector<std::uint8_t> state_;
    std::vector<std::uint32_t> per_scheduler_;
    // At most one entry per simd: a ring of that capacity never allocates
    // (a deque would, as its front moves on).
    boost::circular_buffer<std::uint32_t> queue_;
};

}  // namespace agx
