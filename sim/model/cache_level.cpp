#include "sim/model/cache_level.hpp"

#include "sim/model/cache_stats.hpp"

#include <algorithm>

#include "sim/model/timed_request.hpp"

namespace agx {

CacheLevel::CacheLevel(sc_core::sc_module_name name, const CacheConfig& cfg, const CoreClock& clock,
                       unsigned chip_cores, bool per_core_links)
    : sc_module(name),
      upstream("upstream"),
      downstream("downstream"),
      cfg_(cfg),
      clock_(clock),
      chip_cores_(std::max(1u, chip_cores)),
      per_core_links_(per_core_links),
      hit_latency_(clock.cycles_of_ns(cfg.hit_latency_ns)),
      bytes_per_cycle_(clock.bytes_per_cycle_of(cfg.bytes_per_ns)),
      tags_(cfg),
      line_(cfg.line_bytes) {
    upstream.register_b_transport(this, &CacheLevel::b_transport);
    if (!per_core_links_) add_link();
}

void CacheLevel::add_link() {
    // The array's rate is the sum of the chip's links: it can bind only when a
    // run simulates more cores than the chip has, so only then is it timed.
    if (per_core_links_ && links_.size() >= chip_cores_ && !shared_)
        shared_ = std::make_unique<BandwidthTimeline>(bytes_per_cycle_ * chip_cores_);
    // Per-core links carry one core's share; a single link carries the chip's.
    const unsigned scale = per_core_links_ ? 1 : chip_cores_;
    links_.push_back(std::make_unique<Link>(
        Link{BandwidthTimeline(bytes_per_cycle_ * scale), MissTracker(cfg_.mshrs * scale)}));
}

Cycle CacheLevel::forward(tlm::tlm_command cmd, std::uint64_t address, Cycle at) {
    return timed_request(downstream, below_, clock_, cmd, address, line_.data(), cfg_.line_bytes,
                         at, name(), "memory request failed below this level");
}

void CacheLevel::b_transport(int id, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
    Link& link = *links_[id >= 0 && static_cast<std::size_t>(id) < link_of_socket_.size()
                             ? link_of_socket_[id]
                             : 0];
    const bool write = trans.get_command() == tlm::TLM_WRITE_COMMAND;
    const std::uint32_t bytes = trans.get_data_length();
    (write ? writes_ : reads_) += 1;
    bytes_ += bytes;
    const Cycle kernel_now = clock_.now();
    const Cycle arrival = clock_.cycles(sc_core::sc_time_stamp() + delay);
    const Cycle lookup_done = arrival + hit_latency_;
    const std::uint64_t line = trans.get_address() / cfg_.line_bytes;

    const TagResult t = tags_.access(trans.get_address(), write, true);
    if (t.evicted_dirty) {
        ++writebacks_;
        forward(tlm::TLM_WRITE_COMMAND, t.evicted_address, lookup_done);
    }
    Cycle ready = lookup_done;
    if (t.hit) {
        if (*t.ready > lookup_done) {  // on its way for someone else
            ready = *t.ready;
            ++merged_;
        }
    } else if (write) {
        // A write allocates without reading: per-byte valid bits.
    } else if (const auto joined = link.mshrs.in_flight(line, lookup_done)) {
        // Its tag lost its way meanwhile, but the link's fill of it is on the way.
        ready = std::max(lookup_done, *joined);
        *t.ready = ready;
        ++joined_;
    } else {
        Cycle* line_ready = t.ready;  // forward() leaves these tags alone
        const Cycle start = link.mshrs.acquire(lookup_done);
        ready = forward(tlm::TLM_READ_COMMAND, line * cfg_.line_bytes, start);
        link.mshrs.hold(ready, line);
        *line_ready = ready;
        miss_cycles_ += ready - lookup_done;
    }
    // The data crosses the level's array and the requester's link.
    Cycle done = ready;
    if (shared_) done = shared_->pass(done, bytes);
    done = link.port.pass(done, bytes);
    delay = clock_.time(done - kernel_now);  // the kernel's time is on a whole cycle
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
    if (memory_observer_)
        memory_observer_->memory_request(name(), trans.get_address(), write, arrival, done, t.hit);
}

void CacheLevel::preload(std::uint64_t address, std::uint64_t bytes) {
    for (std::uint64_t a = address / cfg_.line_bytes * cfg_.line_bytes; a < address + bytes;
         a += cfg_.line_bytes)
        tags_.fill(a);
}

void CacheLevel::report_stats(StatsWriter& out) const {
    report_request_stats(out, cfg_.size_bytes, reads_, writes_);
    out.add("bytes", StatUnit::Bytes, "bytes requested", bytes_);
    report_lookup_stats(out, tags_, merged_, writebacks_, miss_cycles_);
    report_joined_misses(out, joined_);

    // Bandwidth and queueing, summed over the links (and the shared array).
    double queue = shared_ ? shared_->queue_cycles() : 0.0;
    std::uint64_t waits = 0, wait_cycles = 0, requests = 0;
    Cycle first = shared_ ? shared_->first_arrival() : kNever,
          last = shared_ ? shared_->last_done() : 0;
    double link_rate = 0;
    for (const auto& l : links_) {
        queue += l->port.queue_cycles();
        waits += l->mshrs.full_waits();
        wait_cycles += l->mshrs.wait_cycles();
        requests += l->port.requests();
        first = std::min(first, l->port.first_arrival());
        last = std::max(last, l->port.last_done());
        link_rate = l->port.bytes_per_cycle();
    }
    out.add("links", StatUnit::Count, "ports to the level above (one per core, or one shared)",
            links_.size());
    out.add("link_bytes_per_cycle", StatUnit::BytesPerCycle, "bandwidth of one link", link_rate);
    out.add("total_bytes_per_cycle", StatUnit::BytesPerCycle, "bandwidth of all links together",
            per_core_links_ ? bytes_per_cycle_ * chip_cores_ : link_rate);
    out.add("queue_cycles_total", StatUnit::Cycles,
            "cycles requests waited for a port beyond the transfer itself, summed", queue);
    out.add("queue_cycles_mean", StatUnit::Cycles, "queue_cycles_total / requests",
            ratio(queue, requests));
    out.add("mshr_full_waits", StatUnit::Count, "misses that waited for a free MSHR", waits);
    out.add("mshr_wait_cycles", StatUnit::Cycles, "cycles those misses waited", wait_cycles);
    out.add("bytes_per_cycle_used", StatUnit::BytesPerCycle,
            "bytes over the span from the first request to the last byte",
            bytes_per_cycle_over(bytes_, first, last));
}

}  // namespace agx
