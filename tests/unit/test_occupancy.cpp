// The occupancy rule: how many threadgroups a core holds at once.
#include <catch2/catch.hpp>

#include "sim/common/errors.hpp"
#include "sim/timing/occupancy.hpp"
#include "tests/unit/engine_fixture.hpp"

using namespace agx;

namespace {

Launch launch(std::uint32_t threads, std::uint32_t groups, std::uint32_t halves = 16) {
    return Launch::of(threads, groups, halves);
}

}  // namespace

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
