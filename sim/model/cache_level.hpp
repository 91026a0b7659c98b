// A GPU-wide cache level (L2, system-level cache) on TLM-2.0 sockets.
//
// Loosely timed: the request's time is the kernel's time plus the annotated
// delay; the level adds its lookup latency and, on a miss, forwards the
// request to the level below, which adds its own. This is the foundation's
// fixed-latency form: queueing and bandwidth limits come with the memory
// issue's refinement.
#pragma once

#include <cstdint>
#include <string>

#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_target_socket.h>
#include <tlm_utils/simple_initiator_socket.h>

#include "sim/config/machine_config.hpp"
#include "sim/model/clock.hpp"
#include "sim/model/stats_source.hpp"
#include "sim/timing/cache_tags.hpp"

namespace agx {

class CacheLevel : public sc_core::sc_module, public StatsSource {
public:
    tlm_utils::multi_passthrough_target_socket<CacheLevel> upstream;
    tlm_utils::simple_initiator_socket<CacheLevel> downstream;

    CacheLevel(sc_core::sc_module_name name, const CacheConfig& cfg, const CoreClock& clock);

    void report_stats(nlohmann::json& out) const override;
    // Installs [address, address + bytes) before the run, uncounted.
    void preload(std::uint64_t address, std::uint64_t bytes);

private:
    void b_transport(int id, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);

    const CacheConfig& cfg_;
    const CoreClock& clock_;
    CacheTags tags_;
    std::uint64_t reads_ = 0, writes_ = 0, bytes_ = 0;
};

}  // namespace agx
