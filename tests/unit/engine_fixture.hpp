// One core engine and the blocks it drives, for the engine's unit tests: the
// plain C++ blocks and fake memories. A test changes the named fields it
// depends on (fx.cfg.timing["f32_arith"].latency = 3; fx.l1.latency = 50;)
// and then runs a workload.
#pragma once

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "isa/catalogue.hpp"
#include "sim/timing/core_engine.hpp"
#include "sim/timing/occupancy.hpp"

namespace agx::test {

// A small Apple-7-like core built in code rather than read from a shipped
// config: the engine's tests expect exact cycle counts, which must not move
// when a shipped config is recalibrated (tests/unit/test_config.cpp covers
// those). 4 schedulers, 96 simds, 208 KB of registers, a 6-entry register
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

    c.register_file.size_bytes = 208 * 1024;
    c.register_file.max_halves_per_thread = 256;
    c.register_file.allocation_granule_halves = 8;
    c.register_file.occupancy = {{104, 1024}, {256, 384}};  // {halves, threads}

    c.register_cache.sharing = RegisterCacheSharing::Scheduler;
    c.register_cache.entries = 6;
    c.register_cache.file_read_ports = 2;
    c.register_cache.file_read_latency = 0;
    c.register_cache.file_read_latency_16bit = 0;
    c.register_cache.half_registers = HalfRegisters::ShareEntry;
    c.register_cache.replacement = Replacement::Lru;

    c.scheduler_policy = SchedulerPolicy::Greedy;

    c.l1d.size_bytes = 8192;
    c.l1d.line_bytes = 128;
    c.l1d.associativity = 4;
    c.l1d.hit_latency_cycles = 4;
    c.l1d.bytes_per_cycle = 64;
    c.l1d.mshrs = 16;
    c.l1d.replacement = Replacement::Lru;
    c.l1d.write_policy = WritePolicy::WriteThrough;

    c.icache.size_bytes = 12288;
    c.icache.line_bytes = 128;
    c.icache.associativity = 4;
    c.icache.hit_latency_cycles = 1;
    c.icache.bytes_per_cycle = 64;
    c.icache.mshrs = 4;
    c.icache.replacement = Replacement::Lru;
    c.icache.write_policy = WritePolicy::WriteThrough;

    for (auto name : isa::Catalogue::instance().timing_classes()) {
        TimingClassConfig& t = c.timing[std::string(name)];
        t.issue_interval = 1;
        t.dispatch_cycles = 1;
        t.latency = 2;
    }
    return c;
}

// A memory at a fixed latency. As an L1: its MSHRs, when `full_until` is
// set, free only then.
struct FakeMemory : MemoryPort {
    Cycle latency;
    Cycle full_until = 0;
    Cycle accepted = 0;
    std::uint64_t requests = 0;
    explicit FakeMemory(Cycle l) : latency(l) {}
    Cycle access(std::uint64_t, std::uint32_t, bool, Cycle now) override {
        ++requests;
        accepted = std::max(now, full_until);
        return accepted + latency;
    }
    Cycle last_accepted() const override { return accepted; }
};

// The engine on `cfg` (small_core() until a test changes it), its L1 at a
// fixed 100 cycles, instructions fetched at once, and threadgroup accesses
// taking their class latency only unless a test gives it `banks`.
struct EngineFixture {
    CoreConfig cfg = small_core();
    FakeMemory l1{100};
    FakeMemory icache{0};
    std::optional<ThreadgroupMemory> banks;

    std::vector<std::unique_ptr<RegisterCache>> rcs;
    PipeState fp{4}, ic{4}, sh{4}, ls{4}, tg{4}, ctl{4};
    SharedSfu sfu{4, 32, 32};
    std::unique_ptr<LoadStoreUnit> lsu;
    std::unique_ptr<CoreEngine> engine;  // the last run's

    // Builds the engine on `cfg` and runs `w` to completion; returns the end
    // cycle.
    Cycle run(Workload& w) {
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
        b.tgmem = banks ? &*banks : nullptr;
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
