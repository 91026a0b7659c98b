// The statistics every level of the memory hierarchy reports alike, declared
// once for all of them.
#pragma once

#include <cstdint>

#include "sim/common/cycle.hpp"
#include "sim/model/stats.hpp"
#include "sim/timing/cache_tags.hpp"

namespace agx {

// What a level holds and the requests it took.
inline void report_request_stats(StatsWriter& out, std::uint32_t size_bytes, std::uint64_t reads,
                                 std::uint64_t writes) {
    out.add("size_bytes", StatUnit::Bytes, "capacity (config)", size_bytes);
    out.add("reads", StatUnit::Count, "read requests", reads);
    out.add("writes", StatUnit::Count, "write requests", writes);
}

// Lookups in a level's tags and what its misses cost.
inline void report_lookup_stats(StatsWriter& out, const CacheTags& tags,
                                std::uint64_t hits_in_flight, std::uint64_t writebacks,
                                std::uint64_t miss_cycles) {
    out.add("hits", StatUnit::Count, "line lookups that hit", tags.hits());
    out.add("misses", StatUnit::Count, "line lookups that missed", tags.misses());
    out.add("hit_rate", StatUnit::Ratio, "hits / (hits + misses)",
            ratio(tags.hits(), tags.hits() + tags.misses()));
    out.add("hits_on_lines_in_flight", StatUnit::Count,
            "hits on a line still being filled (they wait for its fill)", hits_in_flight);
    out.add("writebacks", StatUnit::Count, "dirty lines written back on eviction", writebacks);
    out.add("miss_latency_cycles_total", StatUnit::Cycles,
            "cycles from each miss to its data, summed", miss_cycles);
    out.add("miss_latency_cycles_mean", StatUnit::Cycles, "miss_latency_cycles_total / misses",
            ratio(miss_cycles, tags.misses()));
}

// Misses that joined a fill in flight (sim/timing/miss_tracker.hpp).
inline void report_joined_misses(StatsWriter& out, std::uint64_t joined) {
    out.add("misses_joining_a_fill", StatUnit::Count,
            "misses whose line an MSHR was still fetching (its tag taken by other misses "
            "meanwhile): they wait for that fill, with no request of their own",
            joined);
}

// Bytes moved over the span from the first request's arrival to the last
// byte's delivery (0 without a span).
inline double bytes_per_cycle_over(std::uint64_t bytes, Cycle first, Cycle last) {
    return first != kNever && last > first ? ratio(bytes, static_cast<double>(last - first)) : 0.0;
}

}  // namespace agx
