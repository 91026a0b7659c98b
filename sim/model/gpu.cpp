#include "sim/model/gpu.hpp"

namespace agx {

Gpu::Gpu(sc_core::sc_module_name name, const MachineConfig& cfg, unsigned core_count,
         Workload& workload, const Residency& residency)
    : sc_module(name),
      clock(cfg.clock_ghz),
      groups(workload.launch().threadgroups),
      cores("core", core_count,
            [&](const char* n, std::size_t) {
                // A core alone may run ahead of the kernel's time: nothing
                // else in the chip runs (the shared levels answer its TLM
                // calls by the time each request carries), so the result is
                // the same and a thousand cycles cost one kernel activation.
                // Several cores step in lock-step, so that they reach the
                // shared levels and take threadgroups in cycle order.
                const Cycle quantum = core_count == 1 ? 1024 : 1;
                return new Core(n, cfg, clock, workload, groups, residency, quantum);
            }),
      // The shared levels are sized for the chip's cores, whatever number of
      // them the run simulates.
      l2("l2", cfg.memory.l2, clock, cfg.cores, true),
      slc("slc", cfg.memory.slc, clock, cfg.cores, false),
      dram("dram", cfg.memory.dram, cfg.clock_ghz, clock, cfg.memory.slc.line_bytes) {
    for (unsigned i = 0; i < cores.size(); ++i) {
        l2.attach(cores[i].l1d.downstream, i);
        l2.attach(cores[i].icache.downstream, i);
    }
    slc.attach(l2.downstream, 0);
    if (const std::uint64_t code = workload.code_resident_in_l2())
        l2.preload(kCodeBaseAddress, code);
    slc.downstream.bind(dram.upstream);
}

}  // namespace agx
