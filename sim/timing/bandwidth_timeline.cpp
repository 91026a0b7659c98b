#include "sim/timing/bandwidth_timeline.hpp"

#include <algorithm>
#include <cmath>

namespace agx {

namespace {
// 8192 buckets of 4 cycles: 32k cycles of look-ahead, far more than any
// queue the bounded misses in flight can build.
constexpr std::size_t kRing = 1u << 13;
constexpr double kEpsilon = 1e-9;
}  // namespace

BandwidthTimeline::BandwidthTimeline(double bytes_per_cycle, Cycle bucket_cycles)
    : rate_(bytes_per_cycle > 0 ? bytes_per_cycle : 1.0),
      bucket_cycles_(std::max<Cycle>(1, bucket_cycles)),
      bucket_of_(bucket_cycles_),
      inverse_rate_(1.0 / rate_),
      capacity_(rate_ * static_cast<double>(bucket_cycles_)),
      // What counts as nothing: a billionth of a byte, or of a bucket's
      // capacity on a path so slow that a bucket holds less than that.
      epsilon_(std::min(kEpsilon, capacity_ * kEpsilon)),
      used_(kRing, 0.0),
      next_(kRing, 0) {}

double& BandwidthTimeline::used(std::uint64_t bucket) {
    if (bucket >= base_ + kRing) {  // slide the window forward, forgetting the oldest buckets
        const std::uint64_t new_base = bucket - kRing + 1;
        const std::uint64_t clear_end = std::min(new_base, base_ + kRing);
        for (std::uint64_t b = base_; b < clear_end; ++b) used_[b & (kRing - 1)] = 0.0;
        if (new_base > base_ + kRing) std::fill(used_.begin(), used_.end(), 0.0);
        base_ = new_base;
        first_open_ = std::max(first_open_, base_);
    }
    return used_[bucket & (kRing - 1)];
}

Cycle BandwidthTimeline::reserve(Cycle arrival, std::uint32_t bytes) {
    if (bytes == 0) return arrival;
    ++requests_;
    bytes_ += bytes;
    first_ = std::min(first_, arrival);
    const double transfer = static_cast<double>(bytes) * inverse_rate_;
    // Buckets before the window or before the first open one are full.
    std::uint64_t b = std::max(bucket_of_.divide(arrival), first_open_);  // first_open_ >= base_
    double remaining = static_cast<double>(bytes);
    double start = -1.0, done = 0.0;
    for (;; ++b) {
        if (b >= end_ && remaining > capacity_ * static_cast<double>(kRing + 1)) {
            // Every bucket from here on is empty and the rest fills more of
            // them than the ring holds: those that would fall out of it as
            // the rest is placed are full, and are skipped in one step. So a
            // request costs at most the ring's length of steps, however slow
            // the path (a rate of 1e-12 bytes per cycle would otherwise walk
            // ~10^13 buckets for one line).
            if (start < 0)
                start =
                    std::max(static_cast<double>(arrival), static_cast<double>(b * bucket_cycles_));
            const double skip = std::floor(remaining / capacity_) - static_cast<double>(kRing);
            remaining -= skip * capacity_;
            b += static_cast<std::uint64_t>(skip);
        }
        double& u = used(b);
        const double free = capacity_ - u;
        if (free <= epsilon_) {
            b = past_full(b) - 1;  // the loop's step lands on the first open bucket
            continue;
        }
        const double bucket_start = static_cast<double>(b * bucket_cycles_);
        if (start < 0)
            start = std::max(static_cast<double>(arrival), bucket_start + u * inverse_rate_);
        const double take = std::min(free, remaining);
        u += take;
        if (capacity_ - u <= epsilon_) next_[b & (kRing - 1)] = b + 1;
        remaining -= take;
        end_ = std::max(end_, b + 1);
        if (remaining <= epsilon_) {
            done = bucket_start + u * inverse_rate_;
            break;
        }
    }
    done = std::max(done, start + transfer);
    while (first_open_ < base_ + kRing && used_[first_open_ & (kRing - 1)] >= capacity_ - epsilon_)
        ++first_open_;
    queue_cycles_ += std::max(0.0, done - (static_cast<double>(arrival) + transfer));
    const Cycle d = static_cast<Cycle>(std::ceil(done - kEpsilon));
    last_ = std::max(last_, d);
    return d;
}

// Full buckets link to a later bucket (next_), the one after them when they
// filled; a walk follows the links to the first bucket that is not full and
// points every bucket it passed straight at it (path compression), so that a
// request arriving in a long run of full buckets, as on a saturated path,
// skips the run in a few steps. A bucket that slid out of the ring was
// emptied and is never followed; every link points within the ring's buckets
// below end_, or at end_.
std::uint64_t BandwidthTimeline::past_full(std::uint64_t b) {
    std::uint64_t r = b;
    while (r < end_ && capacity_ - used_[r & (kRing - 1)] <= epsilon_) r = next_[r & (kRing - 1)];
    while (b != r) {
        std::uint64_t& link = next_[b & (kRing - 1)];
        b = link;
        link = r;
    }
    return r;
}

Cycle BandwidthTimeline::pass(Cycle ready, std::uint32_t bytes) {
    const Cycle transfer =
        static_cast<Cycle>(std::ceil(static_cast<double>(bytes) * inverse_rate_));
    const Cycle at = ready > transfer ? ready - transfer : 0;
    return std::max(ready, reserve(at, bytes));
}

}  // namespace agx
