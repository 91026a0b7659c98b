// The bookkeeping of which simds a scheduler looks at: candidates come in
// circular order from the scan's start, timers fall due in time, and unit
// waiters wake together only when their unit is free.
#include <catch2/catch.hpp>

#include <vector>

#include "sim/timing/scheduler_wakeups.hpp"

using agx::Cycle;
using agx::kNever;
using agx::SchedulerWakeups;

namespace {

// The candidates in the order a scan would visit them, re-parking none.
std::vector<unsigned> candidates(SchedulerWakeups& w, unsigned start, bool unit_free = true) {
    std::vector<unsigned> seen;
    w.for_each_candidate(
        start, [&](unsigned) { return unit_free; },
        [&](unsigned slot) {
            seen.push_back(slot);
            return false;
        });
    return seen;
}

}  // namespace

TEST_CASE("wakeups: ready slots are visited in a circle from the start") {
    SchedulerWakeups w(100, 2);  // two words of slots
    for (unsigned s : {3u, 70u, 10u, 99u}) w.make_ready(s);
    CHECK(candidates(w, 0) == std::vector<unsigned>{3, 10, 70, 99});
    CHECK(candidates(w, 10) == std::vector<unsigned>{10, 70, 99, 3});
    CHECK(candidates(w, 71) == std::vector<unsigned>{99, 3, 10, 70});
    CHECK(candidates(w, 100) == std::vector<unsigned>{3, 10, 70, 99});  // past the end: from 0
}

TEST_CASE("wakeups: a visit that returns true stops the walk") {
    SchedulerWakeups w(8, 1);
    for (unsigned s = 0; s < 8; ++s) w.make_ready(s);
    std::vector<unsigned> seen;
    w.for_each_candidate(
        5, [](unsigned) { return true; },
        [&](unsigned slot) {
            seen.push_back(slot);
            return slot == 7;
        });
    CHECK(seen == std::vector<unsigned>{5, 6, 7});
}

TEST_CASE("wakeups: timers become candidates when due, earliest first") {
    SchedulerWakeups w(8, 1);
    w.sleep_until(2, 50);
    w.sleep_until(5, 20);
    Cycle when = 0;
    unsigned slot = 0;
    REQUIRE(w.next_timer(when, slot));
    CHECK(when == 20);
    CHECK(slot == 5);
    w.release_timers(19);
    CHECK(candidates(w, 0).empty());
    w.release_timers(20);
    CHECK(candidates(w, 0) == std::vector<unsigned>{5});
    REQUIRE(w.next_timer(when, slot));
    CHECK(when == 50);
}

TEST_CASE("wakeups: a slot parked again leaves its old timer behind") {
    SchedulerWakeups w(8, 1);
    w.sleep_until(3, 10);
    w.make_ready(3);  // woken early from outside
    w.sleep_until(3, 30);
    Cycle when = 0;
    unsigned slot = 0;
    REQUIRE(w.next_timer(when, slot));
    CHECK(when == 30);  // the timer at 10 no longer counts
    w.park_elsewhere(3);
    CHECK_FALSE(w.next_timer(when, slot));
    w.release_timers(kNever - 1);
    CHECK(candidates(w, 0).empty());
}

TEST_CASE("wakeups: unit waiters are candidates only while their unit is free") {
    SchedulerWakeups w(8, 3);
    w.wait_for(4, 1);
    w.wait_for(6, 1);
    w.make_ready(1);
    CHECK(w.waited_on() == 0b010u);
    CHECK(candidates(w, 0, false) == std::vector<unsigned>{1});
    CHECK(candidates(w, 0, true) == std::vector<unsigned>{1, 4, 6});
    // Not visited as candidates: still waiting, untouched.
    CHECK(w.waited_on() == 0b010u);
    w.sleep_until(4, 9);
    w.sleep_until(6, 9);
    CHECK(w.waited_on() == 0u);
}

TEST_CASE("wakeups: stale timers never grow the heap without bound") {
    SchedulerWakeups w(4, 1);
    // Each round leaves one stale timer behind; the heap is swept as it grows.
    for (Cycle t = 1; t < 100000; ++t) {
        w.sleep_until(0, t + 1000);
        w.make_ready(0);
    }
    w.sleep_until(0, 5);
    Cycle when = 0;
    unsigned slot = 0;
    REQUIRE(w.next_timer(when, slot));
    CHECK(when == 5);
    CHECK(w.timer_count() <= 4 * 4 + 16 + 1);
}
