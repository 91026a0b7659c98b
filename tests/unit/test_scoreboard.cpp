// The scoreboard: when each register, or half of one, is written.
#include <catch2/catch.hpp>

#include "sim/timing/scoreboard.hpp"
#include "sim/trace/program_workload.hpp"

using namespace agx;

TEST_CASE("scoreboard tracks 16-bit halves inside 32-bit registers") {
    Scoreboard sb;
    sb.write(reg16(11), 7);  // r5h
    CHECK(sb.ready_at(reg32(5)) == 7);
    CHECK(sb.ready_at(reg16(10)) == 0);  // r5l untouched
    CHECK(sb.ready_at(imm(3)) == 0);
}
