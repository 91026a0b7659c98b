// One GPU core: its blocks as child modules, and the one stepping method that
// drives them. The method computes the next cycle at which anything can
// happen and sleeps until then: no clock, no per-block processes, no signals.
#pragma once

#include <exception>

#include <systemc>

#include "sim/config/machine_config.hpp"
#include "sim/model/clock.hpp"
#include "sim/model/core_blocks.hpp"
#include "sim/model/core_cache.hpp"
#include "sim/model/core_units.hpp"
#include "sim/model/stats_source.hpp"
#include "sim/timing/core_engine.hpp"

namespace agx {

class Core : public sc_core::sc_module, public StatsSource {
  public:
    SC_HAS_PROCESS(Core);
    Core(sc_core::sc_module_name name, const MachineConfig& cfg, const CoreClock& clock,
         Workload& workload, ThreadgroupSource& groups, const Residency& residency,
         Cycle quantum = 1);

    sc_core::sc_vector<SchedulerBlock> schedulers;
    // The units whose block is a pipe and nothing else (kCoreUnits, by row).
    sc_core::sc_vector<PipelineBlock> pipelines;
    SfuBlock sfu;
    CoreCache l1d;
    CoreCache icache;
    LoadStoreBlock load_store_unit;
    ThreadgroupMemoryBlock threadgroup_memory;

    // The block holding `unit`'s pipe.
    PipeState& pipe(isa::Unit unit);

    const CoreEngine& engine() const { return engine_; }
    // Attaches a hook to the core's engine (before the simulation starts).
    void observe(EngineObserver* observer, unsigned core_index) {
        engine_.observe(observer, core_index);
    }
    // An exception raised inside the stepping method, kept for the caller of
    // sc_start (the kernel would otherwise turn it into a generic report).
    std::exception_ptr failure() const { return failure_; }
    // Closes the books at the run's last cycle: charges the tail and publishes
    // the schedulers' counters.
    void finish(Cycle run_end);
    void report_stats(StatsWriter& out) const override;

  private:
    void step();
    static CoreBlocks wire(Core& c);

    const CoreClock& clock_;
    // How far past the kernel's time one activation may simulate: the core
    // steps every cycle with work before `now + quantum_` in one go
    // (temporal decoupling, as TLM's loosely timed models do; requests carry
    // their own time in the annotated delay).
    Cycle quantum_;
    CoreEngine engine_;
    std::exception_ptr failure_;
};

}  // namespace agx
