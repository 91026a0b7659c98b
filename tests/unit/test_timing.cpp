// Unit tests of the core's timing logic, without SystemC: the engine is driven
// cycle by cycle with fixed-latency memory fakes.
#include <catch2/catch.hpp>

#include "isa/catalogue.hpp"
#include "sim/common/errors.hpp"
#include "sim/timing/cache_tags.hpp"
#include "sim/timing/core_engine.hpp"
#include "sim/timing/forwarding.hpp"
#include "sim/timing/occupancy.hpp"
#include "sim/timing/register_cache.hpp"
#include "sim/timing/scoreboard.hpp"
#include "sim/timing/shared_sfu.hpp"
#include "sim/trace/program_workload.hpp"
#include "tests/unit/engine_fixture.hpp"

using namespace agx;

namespace {

Launch launch(std::uint32_t threads, std::uint32_t groups, std::uint32_t halves = 16) {
    return Launch::of(threads, groups, halves);
}

// A 4-byte-per-lane coalesced load into r4 on wait slot 0, the wait, and an
// FP32 use of r4.
std::vector<Instruction> load_wait_use() {
    Instruction load = make_instruction("device_load", {reg32(4)});
    load.mem.bytes_per_lane = 4;
    load.mem.base = 0x1000;
    load.mem.stride = 4;
    load.wait_slot = 0;
    Instruction wait = make_instruction("wait", {});
    wait.wait_slot = 0;
    return {load, wait, make_instruction("fadd32", {reg32(5), reg32(4), reg32(4)})};
}

}  // namespace

TEST_CASE("scoreboard tracks 16-bit halves inside 32-bit registers") {
    Scoreboard sb;
    sb.write(reg16(11), 7);  // r5h
    CHECK(sb.ready_at(reg32(5)) == 7);
    CHECK(sb.ready_at(reg16(10)) == 0);  // r5l untouched
    CHECK(sb.ready_at(imm(3)) == 0);
}

TEST_CASE("shared SFU occupancy is fractional: RECIP takes 1.5 cycles of 32 lanes") {
    SharedSfu sfu(4, 32, 32);
    CHECK(sfu.issue(0, 6) == 0);              // lanes busy until 1.5
    CHECK(sfu.free_at() == 0);                // the queue in front takes one more at once
    CHECK(sfu.issue(0, 6) == 1);              // it starts at 1.5: one whole cycle late
    CHECK(sfu.free_at() == 2);                // busy until 3.0
    CHECK(sfu.issue(2, 6) == 1);              // starts at 3.0
    CHECK(sfu.busy_cycles() == Approx(4.5));  // three RECIPs, 1.5 cycles each
    SharedSfu narrow(4, 16, 32);              // half the lanes: an IMAD takes two cycles
    narrow.issue(0, 4);
    CHECK(narrow.free_at() == 1);
}

TEST_CASE("register cache: reuse hits, discard drops, misses beyond the read ports cost cycles") {
    RegisterCacheConfig cfg{RegisterCacheSharing::Scheduler,
                            4,
                            1,
                            0,
                            0,
                            HalfRegisters::ShareEntry,
                            Replacement::Lru};  // one 32-bit read per cycle
    RegisterCache rc(cfg);
    Instruction fma = make_instruction("fmadd32", {reg32(0), reg32(1), reg32(2), reg32(3)});
    CHECK(rc.fetch_operands(0, fma, 0) ==
          2);                        // three misses, one per cycle: done in cycle 3, 2 late
    CHECK(rc.ports_free_at() == 2);  // one cycle of reads may stay queued
    CHECK(rc.fetch_operands(0, fma, 10) == 0);  // all cached now
    Instruction discard =
        make_instruction("fadd32", {reg32(4), reg32(1, CacheHint::Discard), reg32(2)});
    CHECK(rc.fetch_operands(0, discard, 20) == 0);
    CHECK(rc.fetch_operands(0, discard, 30) == 0);  // r1 missed: one read fits the issue cycle
    CHECK(rc.misses() == 4);
}

TEST_CASE("register cache: a partition per simd keeps each simd's registers from the others'") {
    RegisterCacheConfig cfg{
        RegisterCacheSharing::Simd, 2, 2, 0, 0, HalfRegisters::ShareEntry, Replacement::Lru};
    RegisterCache rc(cfg);
    Instruction add = make_instruction("fadd32", {reg32(0), reg32(0), reg32(1)});
    rc.fetch_operands(0, add, 0);  // simd 0: r0, r1
    for (std::uint32_t simd = 1; simd < 8; ++simd) rc.fetch_operands(simd, add, 1);
    const auto misses = rc.misses();
    CHECK(rc.fetch_operands(0, add, 2) == 0);  // seven other simds did not evict simd 0's
    CHECK(rc.misses() == misses);
    Instruction other = make_instruction("fadd32", {reg32(2), reg32(2), reg32(3)});
    rc.fetch_operands(0, other, 3);  // simd 0's two entries now hold r2, r3
    rc.fetch_operands(0, add, 4);
    CHECK(rc.misses() == misses + 4);

    RegisterCacheConfig shared{
        RegisterCacheSharing::Scheduler, 2, 2, 0, 0, HalfRegisters::ShareEntry, Replacement::Lru};
    RegisterCache one(shared);
    one.fetch_operands(0, add, 0);
    one.fetch_operands(1, add, 1);  // simd 1's r0, r1 evict simd 0's
    one.fetch_operands(0, add, 2);
    CHECK(one.misses() == 6);
}

TEST_CASE("register cache: a miss's operand arrives file_read_latency cycles after its read") {
    RegisterCacheConfig cfg{
        RegisterCacheSharing::Simd, 12, 2, 3, 3, HalfRegisters::ShareEntry, Replacement::Lru};
    RegisterCache rc(cfg);
    Instruction add = make_instruction("fadd32", {reg32(0), reg32(0), reg32(1)});
    CHECK(rc.fetch_operands(0, add, 0) == 3);   // two reads fit the issue cycle, then 3 cycles
    CHECK(rc.fetch_operands(0, add, 10) == 0);  // both cached: no read, no latency
    Instruction three = make_instruction("fmadd32", {reg32(2), reg32(2), reg32(3), reg32(4)});
    CHECK(rc.fetch_operands(0, three, 20) == 4);  // three reads take two cycles, then 3
}

TEST_CASE("register cache: a 16-bit register takes an entry of its own unless halves share") {
    // Four 16-bit registers, the halves of r0 and r1, in two entries.
    Instruction lo = make_instruction("fadd16", {reg16(0), reg16(0), reg16(2)});
    Instruction hi = make_instruction("fadd16", {reg16(1), reg16(1), reg16(3)});
    RegisterCacheConfig own{
        RegisterCacheSharing::Simd, 2, 2, 3, 1, HalfRegisters::OwnEntry, Replacement::Lru};
    RegisterCache a(own);
    CHECK(a.fetch_operands(0, lo, 0) == 1);   // two 16-bit misses: the 16-bit read latency
    CHECK(a.fetch_operands(0, hi, 10) == 1);  // h1, h3 evict h0, h2
    CHECK(a.fetch_operands(0, lo, 20) == 1);
    CHECK(a.misses() == 6);
    RegisterCacheConfig share{
        RegisterCacheSharing::Simd, 2, 2, 3, 1, HalfRegisters::ShareEntry, Replacement::Lru};
    RegisterCache b(share);
    b.fetch_operands(0, lo, 0);  // r0 and r1 now cached, both halves
    CHECK(b.fetch_operands(0, hi, 10) == 0);
    CHECK(b.fetch_operands(0, lo, 20) == 0);
    CHECK(b.misses() == 2);
    // A cached 32-bit register serves reads of its halves; a cached half
    // does not serve a read of the whole register.
    Instruction whole = make_instruction("fadd32", {reg32(6), reg32(0), reg32(1)});
    RegisterCache c(RegisterCacheConfig{RegisterCacheSharing::Simd, 4, 2, 3, 1,
                                        HalfRegisters::OwnEntry, Replacement::Lru});
    c.fetch_operands(0, whole, 0);  // r0, r1 (and the result r6) cached
    auto misses = c.misses();
    CHECK(c.fetch_operands(0, lo, 10) == 0);  // h0 (in r0), h2 (in r1): hits; writes into r0
    CHECK(c.misses() == misses);
    Instruction half = make_instruction("fadd16", {reg16(10), reg16(10), reg16(10)});
    RegisterCache d(RegisterCacheConfig{RegisterCacheSharing::Simd, 4, 2, 3, 1,
                                        HalfRegisters::OwnEntry, Replacement::Lru});
    d.fetch_operands(0, half, 0);  // h10 alone cached
    misses = d.misses();
    Instruction r5 = make_instruction("fadd32", {reg32(7), reg32(5), reg32(5)});
    CHECK(d.fetch_operands(0, r5, 10) == 3);  // r5 (h10, h11) misses
    CHECK(d.misses() == misses + 1);
    // A 32-bit operand among the misses: the 32-bit latency.
    Instruction mixed = make_instruction("fadd32", {reg32(4), reg32(4), reg32(5)});
    CHECK(a.fetch_operands(0, mixed, 30) == 3);
}

TEST_CASE("cache tags: LRU within a set") {
    CacheConfig cfg{256, 128, 2, 1, 64, 1, 0, Replacement::Lru};  // one set, two ways
    CacheTags tags(cfg);
    // A read that allocates on a miss, as the caches look their lines up.
    auto read = [&](std::uint64_t address) { return tags.access(address, false, true).hit; };
    CHECK_FALSE(read(0));
    CHECK_FALSE(read(128));
    CHECK(read(0));
    CHECK_FALSE(read(256));  // evicts 128, the least recently used
    CHECK(read(0));
    CHECK_FALSE(read(128));
}

TEST_CASE("occupancy rule limits residency by registers, threadgroup memory and simds") {
    CoreConfig c = test::small_core();
    // Mesa's occupancy table: {halves, threads}.
    c.register_file.occupancy = {{104, 1024}, {112, 896}, {128, 832}, {136, 768}, {144, 704},
                                 {160, 640},  {184, 576}, {208, 512}, {232, 448}, {256, 384}};
    // 208 KB holds 1024 threads at 104 halves: one threadgroup of 1024.
    Residency r = compute_residency(c, launch(1024, 10, 104), "t");
    CHECK(r.threadgroups_per_core == 1);
    // At 256 halves, 13 simds fit: one threadgroup of 384 threads (12 simds).
    r = compute_residency(c, launch(384, 10, 256), "t");
    CHECK(r.threadgroups_per_core == 1);
    CHECK(r.limited_by == "registers");
    r = compute_residency(c, launch(64, 100, 128), "t");  // 26 simds: 13 groups of 2
    CHECK(r.threadgroups_per_core == 13);
    r = compute_residency(c, launch(32, 200, 16), "t");
    CHECK(r.threadgroups_per_core == 96);
    CHECK(r.limited_by == "simds");
    Launch big = launch(64, 10, 16);
    big.threadgroup_memory_bytes = 20 * 1024;
    r = compute_residency(c, big, "t");
    CHECK(r.threadgroups_per_core == 3);
    CHECK(r.limited_by == "threadgroup_memory");
    CHECK_THROWS_AS(compute_residency(c, launch(512, 1, 256), "t"), InputError);
}

TEST_CASE("engine: a dependent chain issues once per latency") {
    test::EngineFixture fx;
    fx.cfg.timing["f32_arith"].latency = 3;
    ProgramWorkload w("chain", launch(32, 1),
                      {make_instruction("fmadd32", {reg32(0), reg32(0), reg32(1), reg32(2)})}, 100);
    const Cycle end = fx.run(w);
    const CoreEngine* e = fx.engine.get();
    // The first instruction misses r0, r1, r2 in the register cache: six
    // halves at two 32-bit reads per cycle take one extra cycle. After that
    // every operand hits and each instruction waits for the previous result.
    CHECK(end == 1 + 100 * 3);
    CHECK(e->simd_instructions() == 100);
    std::uint64_t total = 0;
    for (const auto& s : e->scheduler_counters()) {
        total += s.issued;
        for (auto v : s.stalls) total += v;
    }
    CHECK(total == 4 * end);  // every scheduler-cycle accounted once
}

TEST_CASE("engine: independent work from many simds saturates the schedulers") {
    test::EngineFixture fx;
    fx.cfg.timing["f16_arith"].latency = 3;  // four independent instructions cover it
    std::vector<Instruction> body;
    for (unsigned i = 0; i < 4; ++i)
        body.push_back(make_instruction("fadd16", {reg16(2 * i), reg16(2 * i), reg16(20)}));
    ProgramWorkload w("ilp4", launch(256, 11, 16), body, 100);  // 88 simds
    const Cycle end = fx.run(w);
    const double ipc = 88.0 * 400 / static_cast<double>(end);
    CHECK(ipc > 3.9);
    CHECK(ipc <= 4.0);
}

TEST_CASE("engine: IMAD32 is limited by its 4-cycle issue interval") {
    test::EngineFixture fx;
    fx.cfg.timing["imad32"].issue_interval = 4;
    fx.cfg.timing["imad32"].latency = 4;
    std::vector<Instruction> body;
    for (unsigned i = 0; i < 4; ++i)
        body.push_back(make_instruction("imadd32", {reg32(i), reg32(i), reg32(8), reg32(9)}));
    ProgramWorkload w("imad", launch(32 * 24, 1, 32), body, 50);  // 24 simds
    const Cycle end = fx.run(w);
    const double cycles_per_inst_per_sched = static_cast<double>(end) / (24.0 * 200 / 4);
    CHECK(cycles_per_inst_per_sched == Approx(4.0).epsilon(0.02));
}

namespace {
// Cycles per body per scheduler of FRACT32's shape, at ILP 4 and 88 simds:
// four integer/complex instructions (a 4-cycle interval, two dispatch
// cycles) and four FP32 instructions that each depend on one of them.
double complex_then_dependent(SchedulerPolicy policy) {
    test::EngineFixture fx;
    fx.cfg.scheduler_policy = policy;
    fx.cfg.timing["imad32"].issue_interval = 4;
    fx.cfg.timing["imad32"].dispatch_cycles = 2;
    fx.cfg.timing["imad32"].latency = 4;
    fx.cfg.timing["f32_arith"].latency = 3;
    std::vector<Instruction> body;
    for (unsigned i = 0; i < 4; ++i)
        body.push_back(make_instruction("imadd32", {reg32(i), reg32(i + 4), reg32(8), reg32(9)}));
    for (unsigned i = 0; i < 4; ++i)
        body.push_back(make_instruction("fadd32", {reg32(i + 4), reg32(i), reg32(10)}));
    ProgramWorkload w("complex_then_dependent", launch(256, 11, 32), body, 40);  // 88 simds
    const Cycle end = fx.run(w);
    return static_cast<double>(end) / (88.0 * 40 * 4 / 4);  // per complex instruction
}
}  // namespace

TEST_CASE("engine: complex_first keeps the integer/complex pipe busy where greedy lets it idle") {
    // The pipe's interval bounds the rate at 4 cycles per complex instruction
    // (the FP32 work fits in the free dispatch cycles between).
    const double greedy = complex_then_dependent(SchedulerPolicy::Greedy);
    const double complex_first = complex_then_dependent(SchedulerPolicy::ComplexFirst);
    CHECK(complex_first == Approx(4.0).epsilon(0.03));
    CHECK(greedy > complex_first + 0.2);  // a simd with FP32 work kept the turn
}

TEST_CASE("engine: wait blocks until the slot's loads are back") {
    test::EngineFixture fx;
    fx.cfg.timing["device_load"].latency = 2;
    fx.cfg.timing["f32_arith"].latency = 3;
    fx.l1.latency = 100;
    ProgramWorkload w("load", launch(32, 1), load_wait_use(), 1);
    const Cycle end = fx.run(w);
    // The load issues at 0; its line leaves the unit after the unit's latency
    // (2) and is back 100 cycles later, at 102. The wait issues at 102, the
    // add at 103, and its result is written after the FP32 latency of 3.
    CHECK(end == 2 + 100 + 1 + 3);
    CHECK(fx.l1.requests == 1);
}

TEST_CASE("engine: a barrier holds a threadgroup's simds until all arrive") {
    test::EngineFixture fx;
    Instruction barrier = make_instruction("threadgroup_barrier", {});
    Instruction add = make_instruction("fadd32", {reg32(1), reg32(1), reg32(2)});
    ProgramWorkload w("barrier", launch(128, 2), {add, barrier, add}, 3);
    fx.run(w);
    const CoreEngine* e = fx.engine.get();
    CHECK(e->simd_instructions() == 2 * 4 * 9);
    CHECK(e->threadgroups_done() == 2);
}

namespace {
// Cycles per instruction per scheduler of one-instruction dependent chains
// (the FP32 latency, 3), 200 long, `per_scheduler` simds on each scheduler
// of fx's core.
double chains_on(test::EngineFixture& fx, unsigned per_scheduler) {
    fx.cfg.timing["f32_arith"].latency = 3;
    ProgramWorkload w("chains", launch(32 * 4 * per_scheduler, 1),
                      {make_instruction("fadd32", {reg32(0), reg32(0), reg32(1)})}, 200);
    const Cycle end = fx.run(w);
    return static_cast<double>(end) / (per_scheduler * 200.0);
}

// The chains in 24 simds, 6 per scheduler (a whole number of pools of 1, 2
// or 3), with a pool of `active` simds.
double chain_rate(std::uint32_t active) {
    test::EngineFixture fx;
    fx.cfg.active_simds = active;
    return chains_on(fx, 6);
}
}  // namespace

TEST_CASE("engine: a two-level scheduler issues only from its active pool") {
    // Latency 3: one simd issues every third cycle, two two in three, three
    // or more every cycle.
    CHECK(chain_rate(1) == Approx(3.0).epsilon(0.02));
    CHECK(chain_rate(2) == Approx(1.5).epsilon(0.02));
    CHECK(chain_rate(3) == Approx(1.0).epsilon(0.02));
    CHECK(chain_rate(0) == Approx(1.0).epsilon(0.02));  // 0: every resident simd
}

TEST_CASE("engine: simds at a barrier leave the pool, so a group larger than it gets through") {
    test::EngineFixture fx;
    fx.cfg.active_simds = 1;
    Instruction barrier = make_instruction("threadgroup_barrier", {});
    Instruction add = make_instruction("fadd32", {reg32(1), reg32(1), reg32(2)});
    ProgramWorkload w("barrier", launch(512, 2), {add, barrier, add}, 3);  // 4 simds/scheduler
    fx.run(w);
    const CoreEngine* e = fx.engine.get();
    CHECK(e->simd_instructions() == 2 * 16 * 9);
    CHECK(e->threadgroups_done() == 2);
}

TEST_CASE("engine: a simd waiting on memory leaves the pool for another") {
    // One pool place per scheduler, 100-cycle loads: with the waiting simd
    // out of the pool, the other simds' loads overlap with its wait.
    test::EngineFixture fx;
    fx.cfg.active_simds = 1;
    fx.l1.latency = 100;
    ProgramWorkload w("loads", launch(32 * 16, 1), load_wait_use(), 1);  // 4 simds/scheduler
    const Cycle end = fx.run(w);
    CHECK(end < 2 * 100);  // four back-to-back waits would take over 400
}

namespace {
// Four simds per threadgroup (one per scheduler), each issuing 200 cycles of
// independent FP32 work, `groups` threadgroups of which `resident` fit at
// once, each paying a 1000-cycle launch overhead.
Cycle overhead_run(std::uint32_t groups, std::uint32_t resident) {
    test::EngineFixture fx;
    fx.cfg.timing["f32_arith"].latency = 3;  // four independent instructions cover it
    std::vector<Instruction> body;
    for (unsigned i = 0; i < 4; ++i)
        body.push_back(make_instruction("fadd32", {reg32(i), reg32(i), reg32(8)}));
    Launch l = launch(4 * 32, groups);
    l.overhead_cycles = 1000;
    l.threadgroup_memory_bytes = fx.cfg.threadgroup_memory_bytes / resident;
    ProgramWorkload w("overhead", l, body, 50);
    return fx.run(w);
}
}  // namespace

TEST_CASE("engine: each threadgroup pays the launch overhead, which other threadgroups hide") {
    // One resident threadgroup: every wave waits out its own overhead.
    const Cycle alone = overhead_run(4, 1);
    CHECK(alone >= 4 * (1000 + 200));
    CHECK(alone <= 4 * (1000 + 200) + 40);
    // Two resident: greedy issue finishes one before the other, so the third
    // threadgroup's launch overlaps the second's body, and the fourth's the
    // third's: 1000 + 200 + 1000 + 2 x 200 cycles, against 4 x 1200.
    const Cycle shared = overhead_run(4, 2);
    CHECK(shared >= 2 * 1000 + 3 * 200);
    CHECK(shared <= 2 * 1000 + 3 * 200 + 40);
    // Resident threadgroups that all start together: one overhead for all.
    CHECK(overhead_run(2, 2) <= 1000 + 2 * 200 + 40);
}

namespace {
// Instructions each scheduler issued for two threadgroups of two simds.
std::vector<std::uint64_t> issued_per_scheduler(SimdPlacement placement) {
    test::EngineFixture fx;
    fx.cfg.simd_placement = placement;
    ProgramWorkload w("placed", launch(2 * 32, 2),
                      {make_instruction("fadd32", {reg32(0), reg32(0), reg32(1)})}, 10);
    fx.run(w);
    std::vector<std::uint64_t> issued;
    for (const auto& s : fx.engine->scheduler_counters()) issued.push_back(s.issued);
    return issued;
}
}  // namespace

TEST_CASE("engine: simd placement fills slots in order or rotates each threadgroup's start") {
    // fill: the second threadgroup goes on where the first stopped.
    CHECK(issued_per_scheduler(SimdPlacement::Fill) == std::vector<std::uint64_t>{10, 10, 10, 10});
    // rotate: the second threadgroup starts one scheduler after the first.
    CHECK(issued_per_scheduler(SimdPlacement::Rotate) == std::vector<std::uint64_t>{10, 20, 10, 0});
}

TEST_CASE(
    "forwarding: a result reaches the same simd's next instruction, others wait for the cache") {
    Forwarding f(true, 2);
    Scoreboard a, b;
    const Operand r0 = reg32(0);
    Instruction use = make_instruction("fadd32", {reg32(1), reg32(0), reg32(0)});
    // Simd a issues its producer at cycle 10 (its first issue), ready at 13.
    a.write(r0, 13, f.stamp(0));
    f.count_issue();
    // Back to back from a: forwarded, nothing late.
    CHECK(f.late_sources(a, 1, use, 13) == 0);
    // Simd b issues in between: a's consumer at 13 waits until 13 + 2.
    b.write(r0, 14, f.stamp(0));
    f.count_issue();
    CHECK(f.late_sources(a, 1, use, 13) == 2);
    CHECK(f.late_sources(a, 1, use, 14) == 1);
    CHECK(f.late_sources(a, 1, use, 15) == 0);  // in the register cache by then
    // Every result forwarded: never late.
    Forwarding always(false, 2);
    CHECK(always.late_sources(a, 1, use, 13) == 0);
}

namespace {
// The chains with the given forwarding and a 2-cycle register-cache write.
double chains_rate(unsigned per_scheduler, ForwardingPolicy forwarding) {
    test::EngineFixture fx;
    fx.cfg.register_cache.forwarding = forwarding;
    fx.cfg.register_cache.write_latency = 2;
    return chains_on(fx, per_scheduler);
}
}  // namespace

TEST_CASE("engine: chains taking turns on a scheduler wait for the register cache") {
    // Alone, a chain is forwarded its own results: 3 cycles per instruction.
    CHECK(chains_rate(1, ForwardingPolicy::SameSimd) == Approx(3.0).epsilon(0.02));
    // Two chains take turns: each result comes from the cache, 3 + 2 cycles
    // after the previous instruction, two instructions per 5 cycles.
    CHECK(chains_rate(2, ForwardingPolicy::Always) == Approx(1.5).epsilon(0.02));
    CHECK(chains_rate(2, ForwardingPolicy::SameSimd) == Approx(2.5).epsilon(0.02));
}

TEST_CASE("engine: a launch overhead longer than the deadlock limit is waited out") {
    test::EngineFixture fx;
    fx.cfg.deadlock_cycles = 1000;
    fx.cfg.timing["f32_arith"].latency = 3;
    Launch l = launch(4 * 32, 1);
    l.overhead_cycles = 5000;
    ProgramWorkload w("slow start", l, {make_instruction("fadd32", {reg32(0), reg32(0), reg32(1)})},
                      10);
    Cycle end = 0;
    REQUIRE_NOTHROW(end = fx.run(w));
    CHECK(end >= 5000 + 10 * 3);
    CHECK(end <= 5000 + 10 * 3 + 10);
}

TEST_CASE("forwarding: each half of an operand is on the path or not by its own writer") {
    Forwarding f(true, 2);
    Scoreboard sb;
    // r0l written by another simd's turn (stamp 0 is not the consumer's 5),
    // ready at 100; r0h written back to back (stamp 5), ready at 103.
    sb.write(reg16(0), 100, 0);
    sb.write(reg16(1), 103, 5);
    for (int i = 0; i < 5; ++i) f.count_issue();  // the consumer's stamp is 5
    Instruction use32 = make_instruction("fadd32", {reg32(2), reg32(0), reg32(0)});
    // The low half is off the path: in the cache at 102.
    CHECK(f.late_sources(sb, 0, use32, 101) == 1);
    CHECK(f.late_sources(sb, 0, use32, 102) == 0);
    // The other way round: only the high half off the path, ready at 103.
    Scoreboard sb2;
    sb2.write(reg16(0), 103, 5);
    sb2.write(reg16(1), 100, 0);
    CHECK(f.late_sources(sb2, 0, use32, 101) == 1);
    Instruction use_lo = make_instruction("fadd16", {reg16(4), reg16(0), reg16(0)});
    CHECK(f.late_sources(sb2, 0, use_lo, 101) == 0);  // its own half is forwarded
}
