// One core engine and the blocks it drives, built in code for the engine's
// unit tests: the plain C++ blocks, and memories the test provides.
#pragma once

#include <memory>
#include <vector>

#include "isa/catalogue.hpp"
#include "sim/timing/core_engine.hpp"
#include "sim/timing/occupancy.hpp"

namespace agx::test {

// A small Apple-7-like core built in code, so the engine's tests do not
// depend on the shipped JSON configs (tests/unit/test_config.cpp covers
// those): 4 schedulers, 96 simds, 208 KB of registers, a 6-entry register
// cache with 2 read ports, greedy issue, and every timing class issuing each
// cycle with a latency of 2.
inline CoreConfig small_core() {
    CoreConfig c;
    c.schedulers = 4;
    c.simd_width = 32;
    c.max_resident_simds = 96;
    c.max_threads_per_threadgroup = 1024;
    c.threadgroup_memory_bytes = 60 * 1024;
    c.max_outstanding_per_slot = 8;
    c.sfu_lanes = 32;
    c.register_file = {208 * 1024, 256, 8, {{104, 1024}, {256, 384}}};
    c.register_cache = {
        RegisterCacheSharing::Scheduler, 6, 2, 0, 0, HalfRegisters::ShareEntry, Replacement::Lru};
    c.scheduler_policy = SchedulerPolicy::Greedy;
    c.l1d = {8192, 128, 4, 4, 64, 16, 0, Replacement::Lru, WritePolicy::WriteThrough};
    c.icache = {12288, 128, 4, 1, 64, 4, 0, Replacement::Lru, WritePolicy::WriteThrough};
    for (auto name : isa::Catalogue::instance().timing_classes())
        c.timing[std::string(name)] = {1, 1, 2};
    return c;
}

struct EngineRig {
    CoreConfig cfg;
    std::vector<std::unique_ptr<RegisterCache>> rcs;
    PipeState fp{4}, ic{4}, sh{4}, ls{4}, tg{4}, ctl{4};
    SharedSfu sfu{4, 32, 32};
    std::unique_ptr<LoadStoreUnit> lsu;
    std::unique_ptr<CoreEngine> engine;

    explicit EngineRig(CoreConfig c) : cfg(std::move(c)) {}

    // Runs `w` to completion with `l1` behind the load/store unit, `icache`
    // for instruction fetch and `banks` (none: threadgroup accesses take their
    // class latency only) for threadgroup memory; returns the end cycle.
    Cycle run(Workload& w, MemoryPort& l1, MemoryPort& icache, ThreadgroupMemory* banks = nullptr) {
        CoreBlocks b;
        rcs.clear();
        for (unsigned i = 0; i < cfg.schedulers; ++i) {
            rcs.push_back(std::make_unique<RegisterCache>(cfg.register_cache));
            b.register_caches.push_back(rcs.back().get());
        }
        lsu = std::make_unique<LoadStoreUnit>(cfg, l1);
        b.pipes = {&fp, &ic, &sh, &ls, &tg, &ctl};  // in isa::Unit order
        b.sfu = &sfu;
        b.lsu = lsu.get();
        b.icache = &icache;
        b.tgmem = banks;
        const Residency res = compute_residency(cfg, w.launch(), "test");
        ThreadgroupSource groups(w.launch().threadgroups);
        engine = std::make_unique<CoreEngine>(cfg, b, w, groups, res);
        Cycle now = 0;
        while (now != kNever) now = engine->step(now);
        engine->account_until(engine->end_cycle());
        return engine->end_cycle();
    }

    // Scheduler-cycles charged to `c`, over all schedulers.
    std::uint64_t stalls(StallCause c) const {
        std::uint64_t n = 0;
        for (const auto& s : engine->scheduler_counters())
            n += s.stalls[static_cast<std::size_t>(c)];
        return n;
    }
};

}  // namespace agx::test
