// Result forwarding: which results reach their consumers at once and which
// come from the register cache later.
#include <catch2/catch.hpp>

#include "sim/timing/forwarding.hpp"
#include "sim/timing/scoreboard.hpp"
#include "sim/trace/program_workload.hpp"

using namespace agx;

TEST_CASE(
    "forwarding: a result reaches the same simd's next instruction, others wait for the cache") {
    Forwarding f(true, 2);
    Scoreboard a, b;
    const Operand r0 = reg32(0);
    Instruction use = make_instruction("fadd32", {reg32(1), reg32(0), reg32(0)});
    // Simd a issues its producer at cycle 10 (its first issue), ready at 13.
    a.write(r0, 13, f.stamp(0));
    f.count_issue();
    // Back to back from a: forwarded, nothing late.
    CHECK(f.late_sources(a, 1, use, 13) == 0);
    // Simd b issues in between: a's consumer at 13 waits until 13 + 2.
    b.write(r0, 14, f.stamp(0));
    f.count_issue();
    CHECK(f.late_sources(a, 1, use, 13) == 2);
    CHECK(f.late_sources(a, 1, use, 14) == 1);
    CHECK(f.late_sources(a, 1, use, 15) == 0);  // in the register cache by then
    // Every result forwarded: never late.
    Forwarding always(false, 2);
    CHECK(always.late_sources(a, 1, use, 13) == 0);
}

TEST_CASE("forwarding: each half of an operand is on the path or not by its own writer") {
    Forwarding f(true, 2);
    Scoreboard sb;
    // r0l written by another simd's turn (stamp 0 is not the consumer's 5),
    // ready at 100; r0h written back to back (stamp 5), ready at 103.
    sb.write(reg16(0), 100, 0);
    sb.write(reg16(1), 103, 5);
    for (int i = 0; i < 5; ++i) f.count_issue();  // the consumer's stamp is 5
    Instruction use32 = make_instruction("fadd32", {reg32(2), reg32(0), reg32(0)});
    // The low half is off the path: in the cache at 102.
    CHECK(f.late_sources(sb, 0, use32, 101) == 1);
    CHECK(f.late_sources(sb, 0, use32, 102) == 0);
    // The other way round: only the high half off the path, ready at 103.
    Scoreboard sb2;
    sb2.write(reg16(0), 103, 5);
    sb2.write(reg16(1), 100, 0);
    CHECK(f.late_sources(sb2, 0, use32, 101) == 1);
    Instruction use_lo = make_instruction("fadd16", {reg16(4), reg16(0), reg16(0)});
    CHECK(f.late_sources(sb2, 0, use_lo, 101) == 0);  // its own half is forwarded
}
