// A cache inside a core (the L1 data cache, the instruction cache). The core's
// timing logic calls it directly as a MemoryPort; its misses leave the core
// through a TLM-2.0 initiator socket towards the L2.
//
// A line being filled is present in the tags at once but usable only when its
// fill returns: later requests for it wait for that fill instead of issuing
// another (miss merging). If other misses to its set take its way before the
// fill is back, a request for it still finds its MSHR and joins that fill.
// Misses in flight hold miss status registers (`mshrs`, 0: unlimited); a
// miss that finds them all taken waits for the first to free, and the
// load/store unit waits with it. A fill's data is
// usable when its first beat arrives (critical word first), but its MSHR is
// held until the last beat is in and the line is written into the array:
// line / (link bytes per cycle) - 1 + line / bytes_per_cycle cycles later. So
// a cache draws at most mshrs x line / (latency + those cycles) from below,
// which is what limits instruction fetch from the L2 when code outgrows the
// instruction cache. With `prefetch_lines` > 0, each access also requests the next lines, as a
// sequential prefetcher does for straight-line code; a prefetch that finds no
// free MSHR is dropped, so demand misses keep priority.
//
// Stores follow `write_policy` (the L1 data cache): write_through sends them
// to the L2 without allocating (the L2 acknowledges them); write_back
// allocates the line (filling it from the L2) and writes dirty lines back
// when they are evicted. Atomics execute at the L2 (assumption, as on other
// GPUs whose L1s are not coherent): they go down like an uncached load and
// drop the L1's copy of the line.
#pragma once

#include <cstdint>
#include <vector>

#include <tlm_utils/simple_initiator_socket.h>
#include <systemc>
#include <tlm>

#include "sim/config/machine_config.hpp"
#include "sim/model/clock.hpp"
#include "sim/model/stats_source.hpp"
#include "sim/timing/cache_tags.hpp"
#include "sim/timing/memory_observer.hpp"
#include "sim/timing/memory_port.hpp"
#include "sim/timing/miss_tracker.hpp"

namespace agx {

class CoreCache : public sc_core::sc_module, public StatsSource, public MemoryPort {
  public:
    tlm_utils::simple_initiator_socket<CoreCache> downstream;

    // `link_bytes_per_cycle`: the rate of the core's link from the L2, at which
    // a fill's beats arrive.
    CoreCache(sc_core::sc_module_name name, const CacheConfig& cfg, const CoreClock& clock,
              double link_bytes_per_cycle);

    Cycle access(std::uint64_t address, std::uint32_t bytes, bool write, Cycle now) override;
    Cycle atomic(std::uint64_t address, std::uint32_t bytes, Cycle now) override;
    Cycle last_accepted() const override { return accepted_; }
    std::uint64_t hits() const override { return tags_.hits(); }
    std::uint64_t misses() const override { return tags_.misses(); }
    void report_stats(StatsWriter& out) const override;
    void observe_memory(MemoryObserver* o) { memory_observer_ = o; }

  private:
    Cycle load(std::uint64_t address, Cycle now);
    Cycle store(std::uint64_t address, std::uint32_t bytes, Cycle now);
    // A demand miss for `line`: joins the fill an MSHR has in flight for it,
    // else waits for an MSHR and requests the line from below; returns when
    // it is back.
    Cycle fill(std::uint64_t line, Cycle at, const TagResult& tags);
    void prefetch(std::uint64_t line, Cycle now);
    // One TLM request at cycle `at` (ahead of the kernel's time); returns when
    // it is done.
    Cycle transport(tlm::tlm_command cmd, std::uint64_t address, std::uint32_t bytes, Cycle at);

    const CacheConfig& cfg_;
    const CoreClock& clock_;
    CacheTags tags_;
    MissTracker mshrs_;
    Cycle beats_after_first_;  // cycles from a fill's first beat until its MSHR frees
    bool write_back_;
    tlm::tlm_generic_payload trans_;
    std::vector<unsigned char> line_;  // payload buffer: timing only, no data
    Cycle accepted_ = 0;
    std::uint64_t reads_ = 0, writes_ = 0, atomics_ = 0, merged_ = 0, joined_ = 0, prefetches_ = 0,
                  prefetches_dropped_ = 0;
    std::uint64_t writebacks_ = 0, write_hits_ = 0;
    std::uint64_t miss_cycles_ = 0;
    MemoryObserver* memory_observer_ = nullptr;
};

}  // namespace agx
