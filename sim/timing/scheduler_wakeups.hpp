// Which of one scheduler's simds are worth looking at in a given cycle.
//
// A scheduler issues from the first simd, in a circle from where its policy
// says, whose head can issue. Looking at every resident simd every cycle
// would make busy schedulers slow to simulate (88 simds waiting for the
// shared SFU each re-examined whenever it frees up). Instead every simd is
// parked where its last evaluation left it, and only the simds that could
// issue now are candidates:
//  - ready: a new head, or nothing known yet;
//  - timed: waiting for a cycle known in advance (a dependency, an
//    instruction fetch, a wait slot); a min-heap holds the cycles;
//  - waiting on a shared resource (the SFU, one of the scheduler's pipes):
//    all of them become candidates together the cycle the resource frees,
//    and go back to waiting, untouched, if someone else takes it first;
//  - elsewhere: asleep in the load/store unit's queue, or at a barrier, woken
//    from outside.
// Candidates are exactly the simds whose lower bound on their issue cycle
// has been reached, so the scan issues from the same simd a full scan would.
// Slots are positions in the scheduler's simd list (simd id / schedulers),
// stable while the simd is resident.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "sim/common/cycle.hpp"

namespace agx {

class SchedulerWakeups {
  public:
    static constexpr std::uint8_t kElsewhere = 0xff;

    SchedulerWakeups(unsigned slots, unsigned resources)
        : words_((slots + 63) / 64),
          ready_(words_, 0),
          waiting_(std::size_t{resources} * words_, 0),
          waiting_count_(resources, 0),
          scratch_(words_, 0),
          where_(slots, kElsewhere),
          generation_(slots, 0),
          resources_(resources) {
        timers_.reserve(std::size_t{slots} * 2);
    }

    void make_ready(unsigned slot) {
        leave(slot);
        where_[slot] = kReady;
        set(ready_.data(), slot);
    }
    void sleep_until(unsigned slot, Cycle when) {
        leave(slot);
        where_[slot] = kTimed;
        push_timer(when, slot);
        // Timers of slots that left before they fell due stay behind; drop
        // them now and then, so the heap never outgrows a few per slot.
        if (timers_.size() > 4 * where_.size() + 16) {
            timers_.erase(std::remove_if(timers_.begin(), timers_.end(),
                                         [this](const Timer& t) { return !live(t); }),
                          timers_.end());
            std::make_heap(timers_.begin(), timers_.end(), Later{});
        }
    }
    void wait_for(unsigned slot, unsigned resource) {
        leave(slot);
        where_[slot] = static_cast<std::uint8_t>(kResource0 + resource);
        set(waiting_.data() + std::size_t{resource} * words_, slot);
        if (waiting_count_[resource]++ == 0) waited_on_ |= 1u << resource;
    }
    // Not a candidate until woken from outside (the load/store unit's queue,
    // a barrier), or the slot is empty.
    void park_elsewhere(unsigned slot) { leave(slot); }

    // Makes the timers due by `now` candidates.
    void release_timers(Cycle now) {
        while (!timers_.empty() && timers_.front().when <= now) {
            const Timer t = timers_.front();
            std::pop_heap(timers_.begin(), timers_.end(), Later{});
            timers_.pop_back();
            if (live(t)) make_ready(t.slot);
        }
    }

    // The earliest cycle a timer falls due and its slot; false when none.
    bool next_timer(Cycle& when, unsigned& slot) {
        while (!timers_.empty() && !live(timers_.front())) {
            std::pop_heap(timers_.begin(), timers_.end(), Later{});
            timers_.pop_back();
        }
        if (timers_.empty()) return false;
        when = timers_.front().when;
        slot = timers_.front().slot;
        return true;
    }
    std::size_t timer_count() const { return timers_.size(); }  // live and stale
    // The resources someone waits on, as a bit mask.
    std::uint32_t waited_on() const { return waited_on_; }

    // Calls visit(slot) for each candidate, in a circle from `start`, until it
    // returns true. Candidates are the ready slots and the slots waiting on a
    // resource for which free(resource) says it is free now, among the slots
    // whose bit is set in `only` (null: all of them); visit must
    // re-park the slot it is given, or leave it ready, and may stop the walk
    // by returning true.
    template <class Free, class Visit>
    void for_each_candidate(unsigned start, Free free, Visit visit,
                            const std::uint64_t* only = nullptr) {
        // Up to 64 slots (every shipped config): one word, no scratch copy,
        // the same order as the walk below.
        if (words_ == 1) {
            std::uint64_t bits = ready_[0];
            for (std::uint32_t m = waited_on_; m; m &= m - 1) {
                const unsigned r = static_cast<unsigned>(__builtin_ctz(m));
                if (free(r)) bits |= waiting_[r];
            }
            if (only) bits &= only[0];
            if (start >= where_.size()) start = 0;  // round robin past the last slot
            // From start to the end, then from 0 to start.
            const std::uint64_t from_start = ~0ull << start;
            for (std::uint64_t b = bits & from_start; b; b &= b - 1)
                if (visit(static_cast<unsigned>(__builtin_ctzll(b)))) return;
            for (std::uint64_t b = bits & ~from_start; b; b &= b - 1)
                if (visit(static_cast<unsigned>(__builtin_ctzll(b)))) return;
            return;
        }
        std::copy(ready_.begin(), ready_.end(), scratch_.begin());
        for (std::uint32_t m = waited_on_; m; m &= m - 1) {
            const unsigned r = static_cast<unsigned>(__builtin_ctz(m));
            if (!free(r)) continue;
            const std::uint64_t* w = waiting_.data() + std::size_t{r} * words_;
            for (unsigned i = 0; i < words_; ++i) scratch_[i] |= w[i];
        }
        if (only)
            for (unsigned i = 0; i < words_; ++i) scratch_[i] &= only[i];
        const unsigned slots = static_cast<unsigned>(where_.size());
        if (start >= slots) start = 0;  // round robin past the last slot
        // From start to the end, then from 0 to start.
        if (walk(start, slots, visit)) return;
        walk(0, start, visit);
    }

  private:
    static constexpr std::uint8_t kReady = 0xfe, kTimed = 0xfd, kResource0 = 0;
    struct Timer {
        Cycle when;
        std::uint32_t slot;
        std::uint32_t generation;
    };
    struct Later {
        bool operator()(const Timer& a, const Timer& b) const { return a.when > b.when; }
    };

    static void set(std::uint64_t* w, unsigned slot) { w[slot / 64] |= 1ull << (slot % 64); }
    static void clear(std::uint64_t* w, unsigned slot) { w[slot / 64] &= ~(1ull << (slot % 64)); }

    // push_back and std::push_heap, written out to build the same heap:
    // push_heap reads the new timer back as one 16-byte value just after
    // push_back stored it field by field, which the CPU cannot forward from
    // those stores (a stall on every park).
    void push_timer(Cycle when, unsigned slot) {
        std::size_t hole = timers_.size();
        timers_.emplace_back();
        while (hole > 0) {
            const std::size_t parent = (hole - 1) / 2;
            if (!(timers_[parent].when > when)) break;
            timers_[hole] = timers_[parent];
            hole = parent;
        }
        timers_[hole] = Timer{when, slot, generation_[slot]};
    }
    bool live(const Timer& t) const {
        return where_[t.slot] == kTimed && generation_[t.slot] == t.generation;
    }
    // Takes the slot out of wherever it was parked; its pending timer, if
    // any, is left in the heap but no longer counts.
    void leave(unsigned slot) {
        const std::uint8_t w = where_[slot];
        if (w == kReady) {
            clear(ready_.data(), slot);
        } else if (w < resources_) {
            clear(waiting_.data() + std::size_t{w} * words_, slot);
            if (--waiting_count_[w] == 0) waited_on_ &= ~(1u << w);
        }
        where_[slot] = kElsewhere;
        ++generation_[slot];
    }
    // Visits the candidates in [from, to) of scratch_; true when visit stopped.
    template <class Visit>
    bool walk(unsigned from, unsigned to, Visit& visit) {
        for (unsigned word = from / 64; word * 64 < to; ++word) {
            std::uint64_t bits = scratch_[word];
            const unsigned base = word * 64;
            if (from > base) bits &= ~0ull << (from - base);
            if (to < base + 64) bits &= (1ull << (to - base)) - 1;
            while (bits) {
                const unsigned slot = base + static_cast<unsigned>(__builtin_ctzll(bits));
                bits &= bits - 1;
                if (visit(slot)) return true;
            }
        }
        return false;
    }

    unsigned words_;
    std::vector<std::uint64_t> ready_;
    std::vector<std::uint64_t> waiting_;  // resources_ bitsets of words_ words
    std::vector<std::uint32_t> waiting_count_;
    std::vector<std::uint64_t> scratch_;
    std::vector<std::uint8_t> where_;
    std::vector<std::uint32_t> generation_;
    std::vector<Timer> timers_;  // a min-heap on `when`
    unsigned resources_;         // at most 32
    std::uint32_t waited_on_ = 0;
};

}  // namespace agx
