// One core engine and the blocks it drives, built in code for the engine's
// unit tests: the plain C++ blocks, and memories the test provides.
#pragma once

#include <memory>
#include <vector>

#include "sim/timing/core_engine.hpp"
#include "sim/timing/occupancy.hpp"

namespace agx::test {

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
        b.fp32_int = &fp;
        b.int_complex = &ic;
        b.sfu = &sfu;
        b.shuffle = &sh;
        b.load_store = &ls;
        b.threadgroup = &tg;
        b.control = &ctl;
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
