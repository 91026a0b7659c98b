// A GPU-wide cache level (L2, system-level cache) on TLM-2.0 sockets.
//
// Loosely timed: the request's time is the kernel's time plus the annotated
// delay. The level adds its lookup latency; on a miss it forwards a request
// for its line to the level below, which adds its own (the configured
// latencies add up level by level). Write-back, write-allocate with per-byte
// valid bits (assumption, as GPU L2s have): a write allocates without reading
// the line, and an evicted dirty line is written to the level below.
//
// Clock domain: the level's latency (`hit_latency_ns`) and bandwidth
// (`bytes_per_ns`) are its own, in time, not in GPU core cycles; the level
// turns them into core cycles once, so a GPU clock change leaves them be.
//
// Bandwidth and queueing: the level's upstream ports are "links". The L2 has
// one per core (`bytes_per_ns` each, as metal-benchmarks gives it per core)
// and a shared array whose rate is the sum over the chip's cores (so it binds
// only on runs with more cores than the chip has); the SLC has one link from
// the L2 at `bytes_per_ns` x the chip's cores, shared by all. Data
// crosses its link (and the shared array) on the way up; an idle port adds
// no latency, a busy one its queueing delay. Misses in flight hold MSHRs
// (`mshrs` per link, per core for the SLC); a miss that finds none free
// waits. A line still being filled is not requested again: later requests
// wait for the fill (miss merging, which is how cores reading the same data
// share one fill).
#pragma once

#include "sim/timing/memory_observer.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <tlm_utils/multi_passthrough_target_socket.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <systemc>
#include <tlm>

#include "sim/config/machine_config.hpp"
#include "sim/model/clock.hpp"
#include "sim/model/stats_source.hpp"
#include "sim/timing/bandwidth_timeline.hpp"
#include "sim/timing/cache_tags.hpp"
#include "sim/timing/miss_tracker.hpp"

namespace agx {

class CacheLevel : public sc_core::sc_module, public StatsSource {
  public:
    tlm_utils::multi_passthrough_target_socket<CacheLevel> upstream;
    tlm_utils::simple_initiator_socket<CacheLevel> downstream;

    // `chip_cores`: the chip's core count (config `cores`), which sizes the
    // level's total bandwidth and MSHRs. `per_core_links`: one link per core
    // (the L2) rather than one link for everything above (the SLC).
    CacheLevel(sc_core::sc_module_name name, const CacheConfig& cfg, const CoreClock& clock,
               unsigned chip_cores, bool per_core_links);

    // Binds an upstream initiator socket as core `core`'s (for a level with
    // per-core links; else every socket shares the one link).
    template <class Socket>
    void attach(Socket& socket, unsigned core) {
        socket.bind(upstream);
        link_of_socket_.push_back(per_core_links_ ? core : 0);
        while (links_.size() <= link_of_socket_.back()) add_link();
    }

    void report_stats(StatsWriter& out) const override;
    void observe_memory(MemoryObserver* o) { memory_observer_ = o; }
    // Installs [address, address + bytes) before the run, uncounted.
    void preload(std::uint64_t address, std::uint64_t bytes);
    // Functional warming: the line at `address` read or written with no
    // timing and no statistics, the tags left as a timed access leaves them.
    // Returns what the level below would see: a read of the line on a read
    // miss, and the write-back of a dirty victim.
    struct WarmResult {
        bool read_below = false;
        bool write_back = false;
        std::uint64_t write_back_address = 0;
    };
    WarmResult warm(std::uint64_t address, bool write) {
        const TagResult t = tags_.warm(address, write);
        return {!t.hit && !write, t.evicted_dirty, t.evicted_address};
    }

  private:
    struct Link {
        BandwidthTimeline port;
        MissTracker mshrs;
    };
    void add_link();
    void b_transport(int id, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
    // A request of ours to the level below at cycle `at`; returns when done.
    Cycle forward(tlm::tlm_command cmd, std::uint64_t address, Cycle at);

    const CacheConfig& cfg_;
    const CoreClock& clock_;
    unsigned chip_cores_;
    bool per_core_links_;
    // The level's latency and link rate, kept in its own time by the config,
    // on the core clock.
    Cycle hit_latency_;
    double bytes_per_cycle_;
    CacheTags tags_;
    std::vector<std::unique_ptr<Link>> links_;
    std::vector<unsigned> link_of_socket_;
    std::unique_ptr<BandwidthTimeline> shared_;  // the L2's array (when it can bind)
    tlm::tlm_generic_payload below_;
    std::vector<unsigned char> line_;
    std::uint64_t reads_ = 0, writes_ = 0, bytes_ = 0, merged_ = 0, joined_ = 0, writebacks_ = 0;
    std::uint64_t miss_cycles_ = 0;
    MemoryObserver* memory_observer_ = nullptr;
};

}  // namespace agx
