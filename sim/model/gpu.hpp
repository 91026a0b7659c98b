// The chip: cores sharing the L2, the system-level cache and DRAM, joined by
// TLM-2.0 sockets (core L1/I-cache -> L2 -> SLC -> DRAM).
#pragma once

#include <systemc>

#include "sim/config/machine_config.hpp"
#include "sim/model/cache_level.hpp"
#include "sim/model/clock.hpp"
#include "sim/model/core.hpp"
#include "sim/model/dram.hpp"

namespace agx {

class Gpu : public sc_core::sc_module {
  public:
    Gpu(sc_core::sc_module_name name, const MachineConfig& cfg, unsigned cores, Workload& workload,
        const Residency& residency);

    const CoreClock clock;
    ThreadgroupSource groups;
    sc_core::sc_vector<Core> cores;
    CacheLevel l2;
    CacheLevel slc;
    Dram dram;

    // Functional warming of the shared levels for a device access the cores
    // did not simulate (a sampled run's skipped threadgroups): the L2 and SLC
    // tags, their write-backs included, end as the access would leave them.
    // The cores' L1s (refilled within a sample) and DRAM's open rows are
    // left alone.
    void warm(std::uint64_t address, bool write) {
        const CacheLevel::WarmResult a = l2.warm(address, write);
        if (a.write_back) slc.warm(a.write_back_address, true);
        if (a.read_below) slc.warm(address, false);
    }

    // Tells `o` of every request the memory hierarchy serves (null: none).
    void observe_memory(MemoryObserver* o) {
        for (auto& c : cores) {
            c.l1d.observe_memory(o);
            c.icache.observe_memory(o);
        }
        l2.observe_memory(o);
        slc.observe_memory(o);
        dram.observe_memory(o);
    }
};

}  // namespace agx
