#include "sim/model/gpu.hpp"

namespace agx {

Gpu::Gpu(sc_core::sc_module_name name, const MachineConfig& cfg, unsigned core_count, Workload& workload,
         const Residency& residency)
    : sc_module(name),
      clock(cfg.clock_ghz),
      groups(workload.launch().threadgroups),
      cores("core", core_count,
            [&](const char* n, std::size_t) { return new Core(n, cfg, clock, workload, groups, residency); }),
      l2("l2", cfg.memory.l2, clock),
      slc("slc", cfg.memory.slc, clock),
      dram("dram", cfg.memory.dram, cfg.clock_ghz, clock) {
    for (auto& core : cores) {
        core.l1d.downstream.bind(l2.upstream);
        core.icache.downstream.bind(l2.upstream);
    }
    l2.downstream.bind(slc.upstream);
    if (const std::uint64_t code = workload.code_resident_in_l2()) l2.preload(kCodeBaseAddress, code);
    slc.downstream.bind(dram.upstream);
}

}  // namespace agx
