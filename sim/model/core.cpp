#include "sim/model/core.hpp"

#include <algorithm>

namespace agx {

Core::Core(sc_core::sc_module_name name, const MachineConfig& cfg, const CoreClock& clock,
           Workload& workload, ThreadgroupSource& groups, const Residency& residency, Cycle quantum)
    : sc_module(name),
      schedulers("scheduler", cfg.core.schedulers,
                 [&cfg](const char* n, std::size_t) {
                     return new SchedulerBlock(n, cfg.core.register_cache);
                 }),
      pipelines("pipeline", plain_units().size(),
                [&cfg](const char*, std::size_t i) {
                    return new PipelineBlock(plain_units()[i]->block, cfg.core.schedulers);
                }),
      sfu("sfu", cfg.core),
      l1d("l1d", cfg.core.l1d, clock, clock.bytes_per_cycle_of(cfg.memory.l2.bytes_per_ns)),
      icache("icache", cfg.core.icache, clock,
             clock.bytes_per_cycle_of(cfg.memory.l2.bytes_per_ns)),
      load_store_unit("load_store_unit", cfg.core, l1d),
      threadgroup_memory("threadgroup_memory", cfg.core),
      clock_(clock),
      quantum_(std::max<Cycle>(1, quantum)),
      engine_(cfg.core, wire(*this), workload, groups, residency) {
    SC_METHOD(step);
}

PipeState& Core::pipe(isa::Unit unit) {
    const CoreUnit& u = core_unit(unit);
    switch (u.kind) {
        case CoreUnit::Kind::Pipeline: {
            const auto& plain = plain_units();
            const auto at = std::find(plain.begin(), plain.end(), &u) - plain.begin();
            return pipelines[static_cast<std::size_t>(at)].pipe;
        }
        case CoreUnit::Kind::LoadStore:
            return load_store_unit.pipe;
        case CoreUnit::Kind::Threadgroup:
            return threadgroup_memory.pipe;
    }
    throw std::logic_error("a core unit of no kind");
}

CoreBlocks Core::wire(Core& c) {
    CoreBlocks b;
    for (auto& s : c.schedulers) b.register_caches.push_back(&s.register_cache.cache);
    for (const CoreUnit& u : kCoreUnits) b.pipes[isa::unit_index(u.unit)] = &c.pipe(u.unit);
    b.sfu = &c.sfu.sfu;
    b.tgmem = &c.threadgroup_memory.banks;
    b.lsu = &c.load_store_unit.unit;
    b.icache = &c.icache;
    return b;
}

void Core::step() {
    try {
        const Cycle now = clock_.now();
        Cycle next = engine_.step(now);
        while (next != kNever && next < now + quantum_) next = engine_.step(next);
        if (next != kNever) next_trigger(clock_.time(next - now));
    } catch (...) {
        failure_ = std::current_exception();
        // The error is reported once by the caller; SystemC's own note that
        // the simulation was stopped would be a second line.
        sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO,
                                                sc_core::SC_DO_NOTHING);
        // Other cores may fail in the same delta cycle (a shared workload's
        // limit trips for each of them): their stops add nothing either.
        sc_core::sc_report_handler::set_actions(sc_core::SC_ID_SIMULATION_STOP_CALLED_TWICE_,
                                                sc_core::SC_DO_NOTHING);
        sc_core::sc_stop();
    }
}

void Core::finish(Cycle run_end) {
    engine_.account_until(run_end);
    const auto& counters = engine_.scheduler_counters();
    for (std::size_t i = 0; i < schedulers.size(); ++i) schedulers[i].counters = counters[i];
}

void Core::report_stats(StatsWriter& out) const {
    out.add("simd_instructions", StatUnit::Count, "SIMD-instructions this core issued",
            engine_.simd_instructions());
    out.add("threadgroups", StatUnit::Count, "threadgroups this core completed",
            engine_.threadgroups_done());
    out.add("end_cycle", StatUnit::Cycles, "cycle this core's last result was written",
            engine_.end_cycle());
}

}  // namespace agx
