// The thin SystemC modules for a core's blocks. Each owns the plain C++
// timing object that models it and publishes its counters; none has a process
// of its own: the core's stepping method drives them all.
#pragma once

#include <cstdint>
#include <string>

#include <systemc>

#include "sim/config/machine_config.hpp"
#include "sim/model/stats_source.hpp"
#include "sim/timing/engine_observer.hpp"
#include "sim/timing/load_store_unit.hpp"
#include "sim/timing/pipe_state.hpp"
#include "sim/timing/register_cache.hpp"
#include "sim/timing/shared_sfu.hpp"
#include "sim/timing/threadgroup_memory.hpp"

namespace agx {

class RegisterCacheBlock : public sc_core::sc_module, public StatsSource {
  public:
    RegisterCacheBlock(sc_core::sc_module_name name, const RegisterCacheConfig& cfg)
        : sc_module(name), cache(cfg) {}
    RegisterCache cache;
    void report_stats(StatsWriter& out) const override;
};

// A scheduler: picks a ready simd each cycle. Its counters (issues and the
// stall breakdown) live in the core's engine and are copied in at the end.
class SchedulerBlock : public sc_core::sc_module, public StatsSource {
  public:
    SchedulerBlock(sc_core::sc_module_name name, const RegisterCacheConfig& cfg)
        : sc_module(name), register_cache("register_cache", cfg) {}
    RegisterCacheBlock register_cache;
    SchedulerCounters counters;  // copied in by the core when the run ends
    void report_stats(StatsWriter& out) const override;
};

// A unit's pipeline, replicated per scheduler (sim/model/core_units.hpp; the
// load/store and threadgroup-memory blocks hold one each as well).
class PipelineBlock : public sc_core::sc_module, public StatsSource {
  public:
    PipelineBlock(sc_core::sc_module_name name, unsigned schedulers)
        : sc_module(name), pipe(schedulers) {}
    PipeState pipe;
    void report_stats(StatsWriter& out) const override;
};

class SfuBlock : public sc_core::sc_module, public StatsSource {
  public:
    SfuBlock(sc_core::sc_module_name name, const CoreConfig& cfg)
        : sc_module(name),
          sfu(cfg.schedulers, cfg.sfu_lanes, cfg.simd_width),
          lanes_(cfg.sfu_lanes) {}
    SharedSfu sfu;
    void report_stats(StatsWriter& out) const override;

  private:
    std::uint32_t lanes_;
};

// Threadgroup memory: the per-scheduler issue pipe and the core's banks.
class ThreadgroupMemoryBlock : public sc_core::sc_module, public StatsSource {
  public:
    ThreadgroupMemoryBlock(sc_core::sc_module_name name, const CoreConfig& cfg)
        : sc_module(name),
          pipe(cfg.schedulers),
          banks(cfg.threadgroup_memory_banks, cfg.threadgroup_memory_bank_bytes),
          size_bytes_(cfg.threadgroup_memory_bytes) {}
    PipeState pipe;
    ThreadgroupMemory banks;
    void report_stats(StatsWriter& out) const override;

  private:
    std::uint32_t size_bytes_;
};

class LoadStoreBlock : public sc_core::sc_module, public StatsSource {
  public:
    LoadStoreBlock(sc_core::sc_module_name name, const CoreConfig& cfg, MemoryPort& l1)
        : sc_module(name), pipe(cfg.schedulers), unit(cfg, l1) {}
    PipeState pipe;
    LoadStoreUnit unit;
    void report_stats(StatsWriter& out) const override;
};

}  // namespace agx
