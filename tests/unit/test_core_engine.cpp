// The core engine, driven cycle by cycle without SystemC with fixed-latency
// memory fakes: issue rates, waits, barriers, the two-level scheduler, launch
// overheads, simd placement, register-cache forwarding.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "sim/timing/core_engine.hpp"
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

namespace {
// 100 repetitions of r2 = r3 + r4 and then an FMA whose third source is that
// r2, the FMA's first source read from the register file (discarded from the
// cache after each read) or not, with file_third_source_delay `delay`.
Cycle third_source_run(std::uint32_t delay, bool fma_misses) {
    test::EngineFixture fx;
    fx.cfg.register_cache.file_read_latency = 3;
    fx.cfg.register_cache.file_third_source_delay = delay;
    const CacheHint hint = fma_misses ? CacheHint::Discard : CacheHint::None;
    ProgramWorkload w("third source", launch(32, 1),
                      {make_instruction("fadd32", {reg32(2), reg32(3), reg32(4)}),
                       make_instruction("fmadd32", {reg32(5), reg32(6, hint), reg32(7), reg32(2)})},
                      100);
    return fx.run(w);
}
}  // namespace

TEST_CASE("engine: an instruction reading the register file waits for its third source there") {
    // Without the wait each FMA that misses costs its 3-cycle read: the add
    // (1 cycle), the FMA waiting for its result (1 more), then the read.
    const Cycle plain = third_source_run(0, true);
    CHECK(plain == Approx(100 * 6).margin(10));
    // With a 10-cycle write-back to the file the FMA's third source, ready as
    // it issues, arrives 10 cycles later instead of the read's 3.
    CHECK(third_source_run(10, true) == Approx(100 * 13).margin(10));
    // A delay shorter than the read costs nothing.
    CHECK(third_source_run(2, true) == plain);
    // An FMA whose sources are all cached takes its third source from the
    // cache: only the first, whose sources all miss the cold cache, waits
    // (10 cycles instead of its 3-cycle read).
    CHECK(third_source_run(10, false) == third_source_run(0, false) + 7);
}
