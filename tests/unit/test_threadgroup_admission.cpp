// ThreadgroupAdmission: one threadgroup per cycle, slots freed by finish(),
// and the two simd placements.
#include <catch2/catch.hpp>

#include <vector>

#include "sim/timing/threadgroup_admission.hpp"

using namespace agx;

namespace {
CoreConfig four_schedulers(SimdPlacement placement) {
    CoreConfig c;
    c.schedulers = 4;
    c.max_resident_simds = 8;
    c.simd_placement = placement;
    return c;
}
Residency two_by_two() {
    Residency r;
    r.threadgroups_per_core = 2;
    r.simds_per_threadgroup = 2;
    return r;
}
}  // namespace

TEST_CASE("threadgroup admission: one threadgroup per cycle while a slot is free") {
    const CoreConfig cfg = four_schedulers(SimdPlacement::Fill);
    ThreadgroupSource source(3);
    ThreadgroupAdmission a(cfg, two_by_two(), source);
    a.new_cycle();
    REQUIRE(a.admit(0) == 0u);
    CHECK(a.pending());       // the second slot is free: come back next cycle
    CHECK_FALSE(a.admit(0));  // not twice in one cycle
    a.new_cycle();
    REQUIRE(a.admit(0) == 1u);
    CHECK(a.group(1).threadgroup == 1);
    a.new_cycle();
    CHECK_FALSE(a.admit(0));  // both slots taken
    CHECK_FALSE(a.pending());
    for (std::uint32_t id : a.group(0).simds) a.release_simd(id);
    a.finish(0, 0);
    CHECK(a.threadgroups_done() == 1);
    CHECK(a.pending());
    REQUIRE(a.admit(0) == 0u);
    CHECK(a.group(0).threadgroup == 2);
    CHECK(a.source_exhausted());
    CHECK_FALSE(a.drained());
}

TEST_CASE(
    "threadgroup admission: fill takes the lowest free simd slots, rotate starts each "
    "threadgroup one scheduler on") {
    for (SimdPlacement p : {SimdPlacement::Fill, SimdPlacement::Rotate}) {
        const CoreConfig cfg = four_schedulers(p);
        ThreadgroupSource source(2);
        ThreadgroupAdmission a(cfg, two_by_two(), source);
        a.new_cycle();
        a.admit(0);
        a.new_cycle();
        a.admit(0);
        CHECK(a.group(0).simds == std::vector<std::uint32_t>{0, 1});
        // Slot id runs on scheduler id mod 4: fill goes on from slot 2, rotate
        // puts the second threadgroup's simds on schedulers 1 and 2.
        if (p == SimdPlacement::Fill)
            CHECK(a.group(1).simds == std::vector<std::uint32_t>{2, 3});
        else
            CHECK(a.group(1).simds == std::vector<std::uint32_t>{5, 2});
    }
}
