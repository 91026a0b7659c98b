// Main memory on a TLM-2.0 target socket: channels of banks with open rows
// behind per-channel buses (sim/timing/dram_timing.hpp has the timing).
#pragma once

#include "sim/timing/memory_observer.hpp"

#include <cstdint>

#include <tlm_utils/simple_target_socket.h>
#include <systemc>
#include <tlm>

#include "sim/config/machine_config.hpp"
#include "sim/model/clock.hpp"
#include "sim/model/stats_source.hpp"
#include "sim/timing/dram_timing.hpp"

namespace agx {

class Dram : public sc_core::sc_module, public StatsSource {
  public:
    tlm_utils::simple_target_socket<Dram> upstream;

    // `line_bytes`: the interleave granule over the channels (the SLC's line).
    Dram(sc_core::sc_module_name name, const DramConfig& cfg, double clock_ghz,
         const CoreClock& clock, std::uint32_t line_bytes);

    void report_stats(StatsWriter& out) const override;
    void observe_memory(MemoryObserver* o) { memory_observer_ = o; }

  private:
    void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);

    const DramConfig& cfg_;
    const CoreClock& clock_;
    double clock_ghz_;
    DramTiming timing_;
    std::uint64_t reads_ = 0, writes_ = 0, bytes_ = 0;
    MemoryObserver* memory_observer_ = nullptr;
    Cycle latency_total_ = 0;
};

}  // namespace agx
