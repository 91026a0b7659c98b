// Main memory on a TLM-2.0 target socket: a fixed access latency plus the
// time to move the data over the chip's bus. Channels serve requests in order
// of arrival at their data rate; lines interleave over channels by address.
#pragma once

#include <cstdint>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "sim/config/machine_config.hpp"
#include "sim/model/clock.hpp"
#include "sim/model/stats_source.hpp"

namespace agx {

class Dram : public sc_core::sc_module, public StatsSource {
public:
    tlm_utils::simple_target_socket<Dram> upstream;

    Dram(sc_core::sc_module_name name, const DramConfig& cfg, double clock_ghz, const CoreClock& clock);

    void report_stats(nlohmann::json& out) const override;

private:
    void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);

    const DramConfig& cfg_;
    const CoreClock& clock_;
    Cycle latency_cycles_;
    double bytes_per_cycle_per_channel_;
    std::vector<double> channel_free_;  // in cycles, fractional
    std::uint64_t reads_ = 0, writes_ = 0, bytes_ = 0;
    double queue_cycles_ = 0;
};

}  // namespace agx
