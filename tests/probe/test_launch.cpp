// How a benchmark's occupancy becomes a dispatch, and what a run assumes
// about the device (chip, cores, clock) when options do not say.
#include <catch2/catch.hpp>

#include "sim/common/errors.hpp"
#include "validation/probe/launch_plan.hpp"
#include "validation/probe/probe_run.hpp"

using namespace agx::probe;

TEST_CASE(
    "launch plan: threadgroup memory shares fix the groups per core, groups x simds = occupancy") {
    DeviceInfo dev;  // 32 KB per group at most, 60 KB per core
    SECTION("4 simds per core: two groups of two (one group could not claim a whole core)") {
        const auto p = plan_launch(4, dev, 32, 1024, 250);
        CHECK(p.groups_per_core == 2);
        CHECK(p.active_simds == 2);
        CHECK(p.threads_per_threadgroup == 64);
        CHECK(p.threadgroup_memory_bytes == 30720);
        CHECK(p.threadgroups == 32 * 2 * 250);
        CHECK(p.simd_work_per_core() == 4.0 * 250);
    }
    SECTION("88 simds per core: four groups of 22") {
        const auto p = plan_launch(88, dev, 32, 1024, 250);
        CHECK(p.groups_per_core == 4);
        CHECK(p.active_simds == 22);
        CHECK(p.threadgroup_memory_bytes == 15360);
        // Exactly four fit: a fifth would need more than the core has.
        CHECK(4 * p.threadgroup_memory_bytes <= dev.threadgroup_memory_per_core);
        CHECK(5 * p.threadgroup_memory_bytes > dev.threadgroup_memory_per_core);
    }
    SECTION("a benchmark that names its threadgroups gets exactly that many") {
        const auto p = plan_launch(8, dev, 32, 1024, 100, 4);
        CHECK(p.groups_per_core == 4);
        CHECK(p.active_simds == 2);
        CHECK(p.threadgroup_memory_bytes == 15360);
        CHECK(p.threadgroups == 32 * 4 * 100);
        CHECK_THROWS_AS(plan_launch(6, dev, 32, 1024, 100, 4), std::invalid_argument);
    }
    SECTION("a pipeline limited to 512 threads gets smaller groups") {
        const auto p = plan_launch(88, dev, 32, 512, 250);
        CHECK(p.active_simds <= 16);
        CHECK(p.groups_per_core * p.active_simds == 88);
    }
    SECTION("a prime occupancy above 32 simds: groups of one simd") {
        const auto p = plan_launch(37, dev, 32, 1024, 250);
        CHECK(p.groups_per_core == 37);
        CHECK(p.active_simds == 1);
        CHECK(38 * p.threadgroup_memory_bytes > dev.threadgroup_memory_per_core);
    }
    SECTION("one simd per core cannot be enforced: a group may not claim a whole core's memory") {
        CHECK_THROWS_AS(plan_launch(1, dev, 32, 1024, 250), std::invalid_argument);
    }
    SECTION("the dispatch carries the loop count and the active simds") {
        Kernel k;
        k.loops = 6;
        const auto p = plan_launch(8, dev, 10, 1024, 250);
        const auto d = dispatch_of(p, k);
        CHECK(d.params.loops == 6);
        CHECK(d.params.active_simds == p.active_simds);
        CHECK(d.threadgroups == 10 * p.groups_per_core * 250);
    }
}

TEST_CASE("run context: the chip table's clock unless --clock-ghz, unknown chips are measured") {
    DeviceInfo dev;
    dev.name = "Apple M2 Pro";
    dev.chip = "m2-pro";
    dev.cores = 19;
    RunOptions o;
    auto c = resolve_context(dev, o);
    CHECK(c.clock_ghz == 1.398);
    CHECK(c.clock_source == "chip table");
    CHECK(c.cores == 19);
    o.clock_ghz = 1.5;
    c = resolve_context(dev, o);
    CHECK(c.clock_ghz == 1.5);
    CHECK(c.clock_source == "--clock-ghz option");

    // A chip the table does not know: the run measures its clock.
    dev.chip = "m3-max";
    c = resolve_context(dev, RunOptions{});
    CHECK(c.clock_ghz == 0);
    CHECK(c.clock_source == "measured");
    CHECK_FALSE(c.table_clock_ghz);
    dev.cores = 0;
    o.chip = "m1-max";
    CHECK_THROWS_AS(resolve_context(dev, o), agx::InputError);
    o.cores = 32;
    CHECK(resolve_context(dev, o).chip == "m1-max");
}
