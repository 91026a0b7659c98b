// The core engine's memory paths with fake memories: the deadlock detector,
// waits on empty slots, MSHR stalls in the stall breakdown, threadgroup bank
// conflicts, misaligned accesses.
#include <catch2/catch.hpp>

#include <string>

#include "isa/catalogue.hpp"
#include "sim/common/errors.hpp"
#include "sim/timing/core_engine.hpp"
#include "sim/timing/occupancy.hpp"
#include "sim/trace/program_workload.hpp"
#include "tests/unit/engine_fixture.hpp"

using namespace agx;

namespace {

Launch one_simd(std::uint32_t tg_bytes = 0) {
    Launch l;
    l.threads_per_threadgroup = 32;
    l.threadgroups = 1;
    l.registers_halves = 16;
    l.threadgroup_memory_bytes = tg_bytes;
    return l;
}

Instruction device_load(std::uint64_t base, unsigned dst = 4) {
    Instruction in = make_instruction("device_load", {reg32(dst)});
    in.mem.base = base;
    in.mem.stride = 4;
    in.mem.bytes_per_lane = 4;
    in.wait_slot = 0;
    in.source_line = 7;
    return in;
}

Instruction wait(unsigned slot) {
    Instruction w = make_instruction("wait", {imm(slot)});
    w.wait_slot = static_cast<std::uint8_t>(slot);
    return w;
}

}  // namespace

TEST_CASE("deadlock detector: a run that issues nothing for core.deadlock_cycles stops",
          "[memory]") {
    test::EngineFixture fx;
    fx.cfg.deadlock_cycles = 1000;
    fx.l1.latency = 50000;  // a load that takes far longer than the limit
    ProgramWorkload w("stuck", one_simd(), {device_load(0x1000), wait(0)}, 1);
    try {
        fx.run(w);
        FAIL("no deadlock reported");
    } catch (const InputError& e) {
        const std::string msg = e.what();
        INFO(msg);
        CHECK(msg.find("deadlock") != std::string::npos);
        CHECK(msg.find("core.deadlock_cycles = 1000") != std::string::npos);
        CHECK(msg.find("waits on wait_slot") != std::string::npos);
    }
}

TEST_CASE("a wait on a slot with nothing outstanding completes at once", "[memory]") {
    test::EngineFixture fx;
    Instruction add = make_instruction("fadd32", {reg32(1), reg32(1), reg32(2)});
    ProgramWorkload w("empty wait", one_simd(), {wait(1), add}, 1);
    CHECK(fx.run(w) <= 5);
    CHECK(fx.stalls(StallCause::WaitSlot) == 0);
}

TEST_CASE("full MSHRs hold the load/store unit: the stall shows as lsu_queue", "[memory]") {
    test::EngineFixture fx;
    fx.l1.full_until = 3000;
    std::vector<Instruction> body;
    for (unsigned i = 0; i < 4; ++i) body.push_back(device_load(0x1000 + 128 * i, 4 + i));
    ProgramWorkload w("mshr", one_simd(), body, 1);
    const Cycle end = fx.run(w);
    CHECK(end > 3000);
    CHECK(fx.stalls(StallCause::LsuQueue) > 2000);
    CHECK(fx.lsu->mshr_wait_cycles() > 2000);
}

TEST_CASE("threadgroup loads take the class latency plus their bank conflicts", "[memory]") {
    test::EngineFixture fx;
    fx.banks.emplace(32, 4);  // 32 banks of 4 bytes
    fx.cfg.timing["threadgroup_load"].latency = 55;
    fx.cfg.timing["f32_arith"].latency = 2;
    Instruction tg = make_instruction("threadgroup_load", {reg32(4)});
    tg.mem.base = 0;
    tg.mem.stride = 8;  // two lanes per bank: two passes
    tg.mem.bytes_per_lane = 4;
    Instruction use = make_instruction("fadd32", {reg32(5), reg32(4), reg32(4)});
    ProgramWorkload w("tg", one_simd(1024), {tg, use}, 1);
    const Cycle end = fx.run(w);
    // Issue at 0, last pass at 1, result 55 later; the add issues then and
    // its result lands after the FP32 latency (2).
    CHECK(end == 1 + 55 + 2);
    CHECK(fx.banks->conflict_cycles() == 1);
}

TEST_CASE("a misaligned lane access is an input error naming the workload and its line",
          "[memory]") {
    test::EngineFixture fx;
    ProgramWorkload w("misaligned", one_simd(), {device_load(0x1002)}, 1);
    try {
        fx.run(w);
        FAIL("no error");
    } catch (const InputError& e) {
        const std::string msg = e.what();
        INFO(msg);
        CHECK(msg.find("misaligned:7") != std::string::npos);
        CHECK(msg.find("not aligned") != std::string::npos);
    }
}
