// The special-function unit the core's schedulers share, occupied by
// fractions of a cycle.
#include <catch2/catch.hpp>

#include "sim/timing/shared_sfu.hpp"

using namespace agx;

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
