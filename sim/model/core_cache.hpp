// A cache inside a core (the L1 data cache, the instruction cache). The core's
// timing logic calls it directly as a MemoryPort; its misses leave the core
// through a TLM-2.0 initiator socket towards the L2.
//
// A line being filled is present in the tags at once but usable only when its
// fill returns: later requests for it wait for that fill instead of issuing
// another (miss merging). With `prefetch_lines` > 0, each access also requests
// the next lines, as a sequential prefetcher does for straight-line code.
#pragma once

#include <cstdint>
#include <vector>

#include <boost/container/flat_map.hpp>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "sim/config/machine_config.hpp"
#include "sim/model/clock.hpp"
#include "sim/model/stats_source.hpp"
#include "sim/timing/cache_tags.hpp"
#include "sim/timing/memory_port.hpp"

namespace agx {

class CoreCache : public sc_core::sc_module, public StatsSource, public MemoryPort {
public:
    tlm_utils::simple_initiator_socket<CoreCache> downstream;

    CoreCache(sc_core::sc_module_name name, const CacheConfig& cfg, const CoreClock& clock);

    Cycle access(std::uint64_t address, std::uint32_t bytes, bool write, Cycle now) override;
    void report_stats(nlohmann::json& out) const override;

private:
    // Requests the line from below; returns when it is back.
    Cycle fetch(std::uint64_t line, bool write, Cycle now);
    void prefetch(std::uint64_t line, Cycle now);

    const CacheConfig& cfg_;
    const CoreClock& clock_;
    CacheTags tags_;
    boost::container::flat_map<std::uint64_t, Cycle> filling_;  // line -> cycle its fill returns
    tlm::tlm_generic_payload trans_;
    std::vector<unsigned char> line_;  // payload buffer: timing only, no data
    std::uint64_t reads_ = 0, writes_ = 0, merged_ = 0, prefetches_ = 0;
    std::uint64_t miss_cycles_ = 0;
};

}  // namespace agx
