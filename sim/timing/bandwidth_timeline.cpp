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
      inverse_rate_(1.0 / rate_),
      capacity_(rate_ * static_cast<double>(bucket_cycles_)),
      // What counts as nothing: a billionth of a byte, or of a bucket's
      // capacity on a path so slow that a bucket holds less than that.
      epsilon_(std::min(kEpsilon, capacity_ * kEpsilon)),
      used_(kRing, 0.0) {}

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
    std::uint64_t b = std::max(arrival / bucket_cycles_, first_open_);  // first_open_ >= base_
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
        if (free <= epsilon_) continue;
        const double bucket_start = static_cast<double>(b * bucket_cycles_);
        if (start < 0)
            start = std::max(static_cast<double>(arrival), bucket_start + u * inverse_rate_);
        const double take = std::min(free, remaining);
        u += take;
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

Cycle BandwidthTimeline::pass(Cycle ready, std::uint32_t bytes) {
    const Cycle transfer =
        static_cast<Cycle>(std::ceil(static_cast<double>(bytes) * inverse_rate_));
    const Cycle at = ready > transfer ? ready - transfer : 0;
    return std::max(ready, reserve(at, bytes));
}

}  // namespace agx
