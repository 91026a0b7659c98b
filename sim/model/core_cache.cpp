#include "sim/model/core_cache.hpp"

#include "sim/model/cache_stats.hpp"

#include "sim/model/timed_request.hpp"

#include <algorithm>
#include <cmath>

namespace agx {

CoreCache::CoreCache(sc_core::sc_module_name name, const CacheConfig& cfg, const CoreClock& clock,
                     double link_bytes_per_cycle)
    : sc_module(name),
      downstream("downstream"),
      cfg_(cfg),
      clock_(clock),
      tags_(cfg),
      mshrs_(cfg.mshrs),
      // The remaining beats over the link, then the line's write into the array.
      beats_after_first_(static_cast<Cycle>(std::ceil(
                             cfg.line_bytes / std::max(1.0, link_bytes_per_cycle) - 1e-9)) -
                         1 +
                         (cfg.line_bytes + std::max(1u, cfg.bytes_per_cycle) - 1) /
                             std::max(1u, cfg.bytes_per_cycle)),
      write_back_(cfg.write_policy == WritePolicy::WriteBack),
      line_(cfg.line_bytes) {}

Cycle CoreCache::transport(tlm::tlm_command cmd, std::uint64_t address, std::uint32_t bytes,
                           Cycle at) {
    return timed_request(downstream, trans_, clock_, cmd, address, line_.data(), bytes, at, name(),
                         "memory request failed below the core");
}

Cycle CoreCache::fill(std::uint64_t line, Cycle at, const TagResult& tags) {
    // A line whose fill is still on the way (its tag taken by other misses
    // meanwhile) joins that fill and takes no MSHR of its own.
    const auto joined = mshrs_.in_flight(line, at);
    const Cycle start = joined ? at : mshrs_.acquire(at);
    accepted_ += start - at;   // access() set it to the request's cycle
    if (tags.evicted_dirty) {  // the victim's data leaves first; nobody waits for it
        ++writebacks_;
        transport(tlm::TLM_WRITE_COMMAND, tags.evicted_address, cfg_.line_bytes, start);
    }
    if (joined) {  // it comes back into the way just taken
        const Cycle ready = std::max(at, *joined);
        if (tags.ready) *tags.ready = ready;
        ++joined_;
        return ready;
    }
    const Cycle done =
        transport(tlm::TLM_READ_COMMAND, line * cfg_.line_bytes, cfg_.line_bytes, start);
    mshrs_.hold(done + beats_after_first_, line, done);
    if (tags.ready) *tags.ready = done;  // present from now, usable when the fill is back
    miss_cycles_ += done - at;
    if (memory_observer_)
        memory_observer_->memory_request(name(), line * cfg_.line_bytes, false, at, done, false);
    return done;
}

void CoreCache::prefetch(std::uint64_t line, Cycle now) {
    if (tags_.contains(line * cfg_.line_bytes)) return;
    if (!mshrs_.available(now)) {
        ++prefetches_dropped_;
        return;
    }
    ++prefetches_;
    const Cycle done =
        transport(tlm::TLM_READ_COMMAND, line * cfg_.line_bytes, cfg_.line_bytes, now);
    mshrs_.hold(done + beats_after_first_, line, done);
    tags_.fill(line * cfg_.line_bytes, done, now);
}

Cycle CoreCache::load(std::uint64_t address, Cycle now) {
    ++reads_;
    const std::uint64_t line = address / cfg_.line_bytes;
    const Cycle lookup_done = now + cfg_.hit_latency_cycles;
    const TagResult t = tags_.access(address, false, true, lookup_done);
    Cycle ready = lookup_done;
    if (t.hit) {
        if (*t.ready > lookup_done) {  // present, still on its way
            ready = *t.ready;
            ++merged_;
        }
    } else {
        ready = fill(line, lookup_done, t);
    }
    for (std::uint32_t k = 1; k <= cfg_.prefetch_lines; ++k) prefetch(line + k, lookup_done);
    return ready;
}

Cycle CoreCache::store(std::uint64_t address, std::uint32_t bytes, Cycle now) {
    ++writes_;
    const Cycle lookup_done = now + cfg_.hit_latency_cycles;
    if (!write_back_) {
        // Write-through, no allocation: a present line is updated in place,
        // and the L2 acknowledges the store.
        if (tags_.contains(address)) ++write_hits_;
        return transport(tlm::TLM_WRITE_COMMAND, address, bytes, lookup_done);
    }
    const std::uint64_t line = address / cfg_.line_bytes;
    const TagResult t = tags_.access(address, true, true, lookup_done);
    if (!t.hit)
        return fill(line, lookup_done,
                    t);  // write-allocate: the rest of the line comes from the L2
    ++write_hits_;
    return std::max(lookup_done, *t.ready);
}

Cycle CoreCache::access(std::uint64_t address, std::uint32_t bytes, bool write, Cycle now) {
    accepted_ = now;
    return write ? store(address, bytes, now) : load(address, now);
}

Cycle CoreCache::atomic(std::uint64_t address, std::uint32_t bytes, Cycle now) {
    accepted_ = now;
    ++atomics_;
    tags_.invalidate(address);
    const Cycle lookup_done = now + cfg_.hit_latency_cycles;
    const Cycle start = mshrs_.acquire(lookup_done);
    if (start > lookup_done) accepted_ = now + (start - lookup_done);
    const Cycle done = transport(tlm::TLM_READ_COMMAND, address, bytes, start);
    mshrs_.hold(done);
    return done;
}

void CoreCache::report_stats(StatsWriter& out) const {
    report_request_stats(out, cfg_.size_bytes, reads_, writes_);
    out.add("atomics", StatUnit::Count, "atomic requests (performed at the L2)", atomics_);
    report_lookup_stats(out, tags_, merged_, writebacks_, miss_cycles_);
    report_joined_misses(out, joined_);
    out.add("write_hits", StatUnit::Count, "writes that found their line", write_hits_);
    out.add("prefetches", StatUnit::Count, "next lines requested ahead of a miss", prefetches_);
    out.add("prefetches_dropped", StatUnit::Count, "prefetches not sent: no MSHR free",
            prefetches_dropped_);
    out.add("mshrs", StatUnit::Count, "outstanding misses it can track (config)", cfg_.mshrs);
    out.add("mshr_full_waits", StatUnit::Count, "misses that waited for a free MSHR",
            mshrs_.full_waits());
    out.add("mshr_wait_cycles", StatUnit::Cycles, "cycles those misses waited",
            mshrs_.wait_cycles());
}

}  // namespace agx
