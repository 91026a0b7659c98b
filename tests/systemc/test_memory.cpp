// The memory hierarchy end to end: L1, L2, SLC and DRAM on TLM sockets, with
// several cores sharing them. One simulation per test case, one test case per
// process (see sc_main.cpp); no SECTION.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "sim/common/errors.hpp"
#include "sim/config/config_loader.hpp"
#include "sim/model/clock.hpp"
#include "sim/model/simulation.hpp"
#include "sim/trace/program_workload.hpp"
#include "sim/trace/text_trace.hpp"
#include "validation/lib/memory_workload.hpp"

using namespace agx;
using namespace agx::validation;

namespace {

BenchmarkDefinition memory_benchmark(MemoryKind kind, std::uint64_t footprint, std::uint32_t reps,
                                     std::uint32_t simds = 1, std::uint32_t cores = 1) {
    BenchmarkDefinition d;
    d.name = "test";
    d.repetitions = reps;
    d.simds_per_core = simds;
    MemoryBenchmark m;
    m.kind = kind;
    m.footprint_bytes = footprint;
    m.cores = cores;
    if (kind == MemoryKind::PointerChase) m.access_bits = 64;
    if (kind == MemoryKind::ThreadgroupChase) m.stride_bytes = 64;
    if (kind == MemoryKind::Stream) m.access_bits = 128;
    d.memory = m;
    return d;
}

RunResult run(const MachineConfig& cfg, MemoryWorkload& w) {
    RunOptions options;
    options.cores = w.cores();
    return simulate(cfg, w, options);
}

double gb_per_s(const MachineConfig& cfg, double bytes, Cycle cycles) {
    return bytes / static_cast<double>(cycles) * cfg.clock_ghz;
}

Launch one_simd() {
    Launch l;
    l.threads_per_threadgroup = 32;
    l.threadgroups = 1;
    l.registers_halves = 16;
    return l;
}

}  // namespace

TEST_CASE("pointer chase: a cold pass from DRAM, then every step at the L2's latency") {
    const MachineConfig m = load_config("m1");
    const std::uint64_t n = (64 << 10) / 128;  // 64 KB: past the L1, within the L2
    const BenchmarkDefinition def = memory_benchmark(MemoryKind::PointerChase, 64 << 10, 2 * n);
    MemoryWorkload w(def, m, def.repetitions);
    const RunResult r = run(m, w);
    const auto& gpu = r.stats.at("gpu");
    CHECK(gpu.at("core_0").at("l1d").at("misses") ==
          2 * n);  // a random cycle of 512 lines: no L1 reuse
    CHECK(gpu.at("l2").at("hits").get<std::uint64_t>() >= n);  // the second pass
    // Steps: load (4) + L1 (51) + L2 (43) + the wait's issue cycle + the
    // address register's read from the register file (the simd left the
    // active pool at its wait, and its register-cache partition with it);
    // on the cold pass also the SLC's lookup and DRAM's access, which the
    // DRAM reports (rows reused within 64 KB open faster than a random access).
    // The shared levels keep their latency in ns: on the core clock, the
    // nearest whole cycles.
    const CoreClock clock(m.clock_ghz);
    const double l2_step = 4 + m.core.l1d.hit_latency_cycles +
                           clock.cycles_of_ns(m.memory.l2.hit_latency_ns) + 1 +
                           m.core.register_cache.file_read_latency;
    const auto& dram = gpu.at("dram");
    const double dram_cycles =
        dram.at("latency_cycles_mean").get<double>() * dram.at("reads").get<double>();
    const double expected =
        n * (2 * l2_step + clock.cycles_of_ns(m.memory.slc.hit_latency_ns)) + dram_cycles;
    CHECK(static_cast<double>(r.cycles) == Approx(expected).epsilon(0.01));
    CHECK(dram_cycles / n <= std::ceil(m.memory.dram.latency_ns * m.clock_ghz) + 1);
}

TEST_CASE("threadgroup memory pointer chase: the class latency per step") {
    const MachineConfig m = load_config("m1");
    const BenchmarkDefinition def = memory_benchmark(MemoryKind::ThreadgroupChase, 32 << 10, 400);
    MemoryWorkload w(def, m, def.repetitions);
    const RunResult r = run(m, w);
    const double per_step = static_cast<double>(r.cycles) / 400;
    CHECK(per_step == Approx(m.core.timing.at("threadgroup_load").latency).epsilon(0.03));
    CHECK(r.stats.at("gpu").at("core_0").at("threadgroup_memory").at("accesses") == 400);
}

TEST_CASE(
    "eight cores streaming from DRAM share its channels: queueing, and no more than the sustained "
    "rate") {
    const MachineConfig m = load_config("m1");
    const std::uint64_t footprint = 16 << 20;  // twice the SLC
    const BenchmarkDefinition def = memory_benchmark(MemoryKind::Stream, footprint, 1, 4, 0);
    MemoryWorkload w(def, m, 1);
    REQUIRE(w.cores() == 8);
    const RunResult r = run(m, w);
    const auto& dram = r.stats.at("gpu").at("dram");
    const double sustained = m.memory.dram.bus_width_bits / 8.0 * m.memory.dram.data_rate_mtps *
                             1e-3 * m.memory.dram.efficiency;  // GB/s
    const double achieved = gb_per_s(m, static_cast<double>(footprint), r.cycles);
    CHECK(achieved <= sustained);
    CHECK(achieved >= 0.75 * sustained);  // the cold start and the tail cost the rest
    CHECK(dram.at("queue_cycles_mean").get<double>() > 10.0);  // the cores contend
    CHECK(dram.at("row_hits").get<std::uint64_t>() > 0);
    for (int c = 0; c < 8; ++c)
        CHECK(r.stats.at("gpu").at("core_" + std::to_string(c)).at("load_store_unit").at("lines") ==
              footprint / 128 / 8);
}

TEST_CASE("a full MSHR file holds the load/store unit, and the stall breakdown shows it") {
    MachineConfig m = load_config("m1", {"core.l1d.mshrs=2"});
    const BenchmarkDefinition def = memory_benchmark(MemoryKind::Stream, 1 << 20, 1, 8, 1);
    MemoryWorkload w(def, m, 1);
    const RunResult r = run(m, w);
    const auto& l1 = r.stats.at("gpu").at("core_0").at("l1d");
    CHECK(l1.at("mshr_full_waits").get<std::uint64_t>() > 1000);
    CHECK(r.stall_cycles[static_cast<std::size_t>(StallCause::LsuQueue)] >
          r.cycles);  // over 4 schedulers
    // Two lines in flight at a time: bandwidth is at most 2 lines per DRAM round trip.
    const double lines = (1 << 20) / 128.0;
    CHECK(static_cast<double>(r.cycles) > lines / 2 * 300);
}

namespace {

// `lines` coalesced 4-byte-per-lane stores, one to each of that many
// consecutive 128-byte lines.
std::vector<Instruction> line_stores(unsigned lines) {
    std::vector<Instruction> body;
    for (unsigned i = 0; i < lines; ++i) {
        Instruction st = make_instruction("device_store", {reg32(4)});
        st.mem.base = 0x100000 + 128ull * i;
        st.mem.stride = 4;
        st.mem.bytes_per_lane = 4;
        st.wait_slot = 0;
        body.push_back(st);
    }
    return body;
}

}  // namespace

TEST_CASE("a write-back L1 writes its dirty lines back when they are evicted") {
    const MachineConfig m = load_config("m1", {"core.l1d.write_policy=write_back"});
    ProgramWorkload w("stores", one_simd(), line_stores(256), 1);  // 32 KB: four times the L1
    const RunResult r = simulate(m, w, {});
    const auto& gpu = r.stats.at("gpu");
    const auto writebacks = gpu.at("core_0").at("l1d").at("writebacks").get<std::uint64_t>();
    CHECK(writebacks == 256 - 64);  // all but the 64 lines the L1 still holds
    CHECK(gpu.at("l2").at("writes").get<std::uint64_t>() == writebacks);
    CHECK(gpu.at("core_0").at("l1d").at("misses") == 256);  // write-allocate
}

TEST_CASE("a write-through L1 sends every store to the L2 and keeps nothing dirty") {
    const MachineConfig m = load_config("m1");
    REQUIRE(m.core.l1d.write_policy == WritePolicy::WriteThrough);
    ProgramWorkload w("stores", one_simd(), line_stores(256), 1);
    const RunResult r = simulate(m, w, {});
    const auto& gpu = r.stats.at("gpu");
    CHECK(gpu.at("core_0").at("l1d").at("writebacks") == 0);
    CHECK(gpu.at("l2").at("writes") == 256);
    CHECK(gpu.at("core_0").at("l1d").at("misses") == 0);  // no allocation, no lookups counted
}

TEST_CASE("the deadlock detector stops a run that issues nothing for core.deadlock_cycles") {
    const MachineConfig m =
        load_config("m1", {"core.deadlock_cycles=1000", "memory.slc.hit_latency_ns=4000"});
    auto trace =
        open_text_trace(std::string(AGX_SOURCE_DIR) + "/traces/examples/load_wait_use.trace");
    try {
        simulate(m, *trace, {});
        FAIL("no deadlock reported");
    } catch (const InputError& e) {
        const std::string msg = e.what();
        INFO(msg);
        CHECK(msg.find("load_wait_use.trace") != std::string::npos);
        CHECK(msg.find("core.deadlock_cycles = 1000") != std::string::npos);
        CHECK(msg.find("instruction_fetch") != std::string::npos);  // the cold fetch goes to DRAM
    }
}

namespace {

// One simd loads the 128-byte lines at `addresses`, one instruction each, with
// no wait between them, then waits for all.
std::vector<Instruction> line_loads(const std::vector<std::uint64_t>& addresses) {
    std::vector<Instruction> body;
    unsigned reg = 4;
    for (const std::uint64_t a : addresses) {
        Instruction ld = make_instruction("device_load", {reg32(reg++)});
        ld.mem.base = a;
        ld.mem.stride = 4;
        ld.mem.bytes_per_lane = 4;
        ld.wait_slot = 0;
        body.push_back(ld);
    }
    Instruction wait = make_instruction("wait", {imm(0)});
    wait.wait_slot = 0;
    body.push_back(wait);
    return body;
}

}  // namespace

TEST_CASE("a miss for a line whose tag was taken while its fill was in flight joins that fill") {
    // Direct-mapped, low bits: lines 64 apart share a set, so B's miss takes
    // A's way while A's fill is still on its way from DRAM.
    const MachineConfig m =
        load_config("m1", {"core.l1d.associativity=1", "core.l1d.set_index=low_bits"});
    const std::uint64_t a = 0x100000, b = a + 64 * 128;
    ProgramWorkload again("A B A", one_simd(), line_loads({a, b, a}), 1);
    const RunResult r = simulate(m, again, {});
    const auto& l1 = r.stats.at("gpu").at("core_0").at("l1d");
    CHECK(l1.at("misses") == 3);  // the tags lost A
    CHECK(l1.at("misses_joining_a_fill") == 1);
    // Two data lines reach the L2 (beside the code's), not three.
    const auto& icache = r.stats.at("gpu").at("core_0").at("icache");
    CHECK(r.stats.at("gpu").at("l2").at("reads").get<std::uint64_t>() ==
          icache.at("misses").get<std::uint64_t>() + icache.at("prefetches").get<std::uint64_t>() +
              2);
}
