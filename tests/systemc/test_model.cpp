// Tests of the SystemC model: the chip elaborated from a shipped config runs a
// workload end to end. One simulation per test case, one test case per
// process (see sc_main.cpp); no SECTION.
#include <catch2/catch.hpp>

#include <string>

#include "sim/config/config_loader.hpp"
#include "sim/model/simulation.hpp"
#include "sim/trace/program_workload.hpp"
#include "sim/trace/text_trace.hpp"

using namespace agx;

namespace {

Launch launch(std::uint32_t threads, std::uint32_t groups, std::uint32_t halves = 16) {
    return Launch::of(threads, groups, halves);
}

}  // namespace

TEST_CASE("the dependent FFMA32 example takes exactly the cycles its config's latency implies") {
    const MachineConfig m = load_config("m1");
    auto trace = open_text_trace(std::string(AGX_SOURCE_DIR) + "/traces/examples/ffma_chain.trace");
    const RunResult r = simulate(m, *trace, {});
    const Cycle latency = m.core.timing.at("f32_arith").latency;
    // 1000 fmadd32 r0, r0, r1, r2, each depending on the one before. The first
    // waits for its instruction line, a cold miss whose time the memory below
    // decides (the I-cache reports it); it then reads three 32-bit registers
    // that all miss the register cache: 6 halves at 2 halves per read port and
    // cycle take ceil(6 / (2 * ports)) cycles, one more than the issue cycle,
    // and the operands arrive file_read_latency cycles after their reads, so
    // its result is that much late. Every later instruction waits exactly
    // the FP32 latency for the one before.
    const auto& icache = r.stats.at("gpu").at("core_0").at("icache");
    REQUIRE(icache.at("misses") == 1);
    const Cycle cold_fetch =
        m.core.icache.hit_latency_cycles + icache.at("miss_latency_cycles_total").get<Cycle>();
    const Cycle ports_halves = 2 * m.core.register_cache.file_read_ports;
    const Cycle first_fetch_extra =
        (6 + ports_halves - 1) / ports_halves - 1 + m.core.register_cache.file_read_latency;
    CHECK(r.simd_instructions == 1000);
    CHECK(r.cycles == cold_fetch + first_fetch_extra + 1000 * latency);
}

TEST_CASE("every scheduler-cycle is an issue or exactly one stall cause") {
    const MachineConfig m = load_config("m1");
    std::vector<Instruction> body = {
        make_instruction("imadd32", {reg32(0), reg32(0), reg32(1), reg32(2)}),
        make_instruction("fadd32", {reg32(3), reg32(3), reg32(0)}),
        make_instruction("rsqrt32", {reg32(4), reg32(3)}),
    };
    ProgramWorkload w("mix", launch(256, 4), body, 200);
    const RunResult r = simulate(m, w, {});
    std::uint64_t total = r.simd_instructions;
    for (auto v : r.stall_cycles) total += v;
    CHECK(total == r.cycles * m.core.schedulers);
    const auto& core = r.stats.at("gpu").at("core_0");
    for (const char* block :
         {"fp32_int_pipe", "int_complex_pipe", "sfu", "shuffle_unit", "l1d", "icache",
          "load_store_unit", "threadgroup_memory", "control", "scheduler_3"})
        CHECK(core.contains(block));
    CHECK(core.at("sfu").at("issued").get<std::uint64_t>() == 2 * 200 * 32);
    CHECK(core.at("scheduler_0").at("register_cache").contains("hits"));
}

TEST_CASE("FADD16 at ILP 4 and 88 simds per core reaches the schedulers' peak") {
    const MachineConfig m = load_config("m1");
    std::vector<Instruction> body;
    for (unsigned i = 0; i < 4; ++i)
        body.push_back(make_instruction("fadd16", {reg16(2 * i), reg16(2 * i), reg16(20)}));
    ProgramWorkload w("fadd16", launch(256, 11), body, 500);
    const RunResult r = simulate(m, w, {});
    CHECK(r.residency.threadgroups_per_core == 11);
    CHECK(r.issue_slot_share() > 0.97);
}

TEST_CASE("a load travels L1 -> L2 -> SLC -> DRAM over TLM, and hits the L1 the second time") {
    const MachineConfig m = load_config("m1");
    Instruction load = make_instruction("device_load", {reg32(4)});
    load.mem.bytes_per_lane = 4;
    load.mem.base = 0x10000;
    load.mem.stride = 4;  // 32 lanes x 4 B: one 128-byte line
    load.wait_slot = 0;
    Instruction wait = make_instruction("wait", {imm(0)});
    wait.wait_slot = 0;
    ProgramWorkload w("load", launch(32, 1), {load, wait}, 2);
    const RunResult r = simulate(m, w, {});
    const auto& gpu = r.stats.at("gpu");
    CHECK(gpu.at("core_0").at("l1d").at("misses") == 1);
    CHECK(gpu.at("core_0").at("l1d").at("hits") == 1);
    CHECK(gpu.at("l2").at("reads").get<int>() >= 2);  // the data line and the instruction line
    CHECK(gpu.at("dram").at("reads").get<int>() >= 2);
    CHECK(r.cycles > m.memory.dram.latency_ns);  // the DRAM trip is in the run's time
}

TEST_CASE("several cores share the launch's threadgroups and the memory below them") {
    const MachineConfig m = load_config("m1");
    std::vector<Instruction> body = {
        make_instruction("fmadd32", {reg32(0), reg32(0), reg32(1), reg32(2)})};
    ProgramWorkload w("chains", launch(1024, 8, 32), body, 100);
    RunOptions opt;
    opt.cores = 4;
    const RunResult r = simulate(m, w, opt);
    const auto& gpu = r.stats.at("gpu");
    for (const char* core : {"core_0", "core_1", "core_2", "core_3"})
        CHECK(gpu.at(core).at("threadgroups") == 2);
    CHECK(r.simd_instructions == 8 * 32 * 100);
}
