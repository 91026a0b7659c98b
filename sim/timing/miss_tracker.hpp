// A file of miss status holding registers: the misses a cache has in flight,
// each held until its fill returns, and the line each is for. A miss that
// finds the file full waits for the earliest fill, which is how a cache with
// few MSHRs caps the bandwidth it can draw from below (bandwidth <= entries x
// line / latency). A miss for a line that an entry is already fetching joins
// that entry instead of sending a second request, as a cache looks its MSHRs
// up beside its tags (Kroft, "Lockup-free instruction fetch/prefetch cache
// organization", ISCA 1981): the line may have left the tags meanwhile, when
// other misses to its set took its way before its fill came back.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>

#include <boost/circular_buffer.hpp>

#include "sim/common/cycle.hpp"

namespace agx {

class MissTracker {
  public:
    // What hold() records for a request that no later miss can join (an atomic).
    static constexpr std::uint64_t kNoLine = ~0ull;

    // `entries` 0: unlimited (entries are still kept until their fills return,
    // so that misses can join them: as many as are in flight at once).
    explicit MissTracker(std::uint32_t entries)
        : entries_(entries), held_(entries ? entries : 16) {}

    // The first cycle at or after `t` at which a miss can take an entry. If it
    // must wait, the entry it takes is the one that frees first.
    Cycle acquire(Cycle t) {
        retire(t);
        if (entries_ == 0 || held_.size() < entries_) return t;
        const Cycle freed = held_.front().release;
        pop_oldest();
        ++full_waits_;
        wait_cycles_ += freed - t;
        return freed;
    }
    // Whether an entry is free at `t`, without taking it (prefetches give way).
    bool available(Cycle t) {
        retire(t);
        return entries_ == 0 || held_.size() < entries_;
    }
    // Holds an entry for `line` until `release` (after acquire); the line's
    // data arrives at `data_ready` (at or before `release`).
    void hold(Cycle release, std::uint64_t line = kNoLine, Cycle data_ready = kNever) {
        if (held_.full()) held_.set_capacity(held_.capacity() * 2);  // (acquire came first)
        // Fills mostly come back in the order they were asked for: the new
        // one usually goes last, else a few places from the end.
        const Entry e{release, line, data_ready == kNever ? release : data_ready};
        if (held_.empty() || held_.back().release <= release) {
            held_.push_back(e);  // (circular_buffer's insert is a general rotation)
        } else {
            auto at = held_.end() - 1;
            while (at != held_.begin() && (at - 1)->release > release) --at;
            held_.insert(at, e);
        }
        ++lines_in_bucket_[bucket(line)];
    }
    // When the data of `line` arrives, if an entry still held at `t` is
    // fetching it: a miss then joins that entry.
    std::optional<Cycle> in_flight(std::uint64_t line, Cycle t) {
        retire(t);
        // Most misses find no entry for their line: the count of held
        // entries whose line falls in its bucket says so without a scan.
        if (lines_in_bucket_[bucket(line)] == 0) return std::nullopt;
        for (const Entry& e : held_)
            if (e.line == line) return e.data_ready;
        return std::nullopt;
    }
    std::uint32_t entries() const { return entries_; }
    std::uint64_t full_waits() const { return full_waits_; }
    std::uint64_t wait_cycles() const { return wait_cycles_; }

  private:
    struct Entry {
        Cycle release;
        std::uint64_t line;
        Cycle data_ready;
    };
    void retire(Cycle t) {
        while (!held_.empty() && held_.front().release <= t) pop_oldest();
    }
    void pop_oldest() {
        --lines_in_bucket_[bucket(held_.front().line)];
        held_.pop_front();
    }
    static std::size_t bucket(std::uint64_t line) { return line & (kBuckets - 1); }
    std::uint32_t entries_;
    // Entries in ascending order of release, in a ring of `entries` (never
    // allocates when the count is bounded).
    boost::circular_buffer<Entry> held_;
    // Held entries per bucket of line numbers (line mod kBuckets).
    static constexpr std::size_t kBuckets = 1024;
    std::array<std::uint32_t, kBuckets> lines_in_bucket_{};
    std::uint64_t full_waits_ = 0, wait_cycles_ = 0;
};

}  // namespace agx
