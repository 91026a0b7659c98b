// The register cache in front of the register file: hits, misses, read
// ports and latencies, partitions, 16-bit halves.
#include <catch2/catch.hpp>

#include "sim/timing/register_cache.hpp"
#include "sim/trace/program_workload.hpp"

using namespace agx;

TEST_CASE("register cache: reuse hits, discard drops, misses beyond the read ports cost cycles") {
    RegisterCacheConfig cfg{RegisterCacheSharing::Scheduler,
                            4,
                            1,
                            0,
                            0,
                            HalfRegisters::ShareEntry,
                            Replacement::Lru};  // one 32-bit read per cycle
    RegisterCache rc(cfg);
    Instruction fma = make_instruction("fmadd32", {reg32(0), reg32(1), reg32(2), reg32(3)});
    CHECK(rc.fetch_operands(0, fma, 0) ==
          2);                        // three misses, one per cycle: done in cycle 3, 2 late
    CHECK(rc.ports_free_at() == 2);  // one cycle of reads may stay queued
    CHECK(rc.fetch_operands(0, fma, 10) == 0);  // all cached now
    Instruction discard =
        make_instruction("fadd32", {reg32(4), reg32(1, CacheHint::Discard), reg32(2)});
    CHECK(rc.fetch_operands(0, discard, 20) == 0);
    CHECK(rc.fetch_operands(0, discard, 30) == 0);  // r1 missed: one read fits the issue cycle
    CHECK(rc.misses() == 4);
}

TEST_CASE("register cache: a partition per simd keeps each simd's registers from the others'") {
    RegisterCacheConfig cfg{
        RegisterCacheSharing::Simd, 2, 2, 0, 0, HalfRegisters::ShareEntry, Replacement::Lru};
    RegisterCache rc(cfg);
    Instruction add = make_instruction("fadd32", {reg32(0), reg32(0), reg32(1)});
    rc.fetch_operands(0, add, 0);  // simd 0: r0, r1
    for (std::uint32_t simd = 1; simd < 8; ++simd) rc.fetch_operands(simd, add, 1);
    const auto misses = rc.misses();
    CHECK(rc.fetch_operands(0, add, 2) == 0);  // seven other simds did not evict simd 0's
    CHECK(rc.misses() == misses);
    Instruction other = make_instruction("fadd32", {reg32(2), reg32(2), reg32(3)});
    rc.fetch_operands(0, other, 3);  // simd 0's two entries now hold r2, r3
    rc.fetch_operands(0, add, 4);
    CHECK(rc.misses() == misses + 4);

    RegisterCacheConfig shared{
        RegisterCacheSharing::Scheduler, 2, 2, 0, 0, HalfRegisters::ShareEntry, Replacement::Lru};
    RegisterCache one(shared);
    one.fetch_operands(0, add, 0);
    one.fetch_operands(1, add, 1);  // simd 1's r0, r1 evict simd 0's
    one.fetch_operands(0, add, 2);
    CHECK(one.misses() == 6);
}

TEST_CASE("register cache: a miss's operand arrives file_read_latency cycles after its read") {
    RegisterCacheConfig cfg{
        RegisterCacheSharing::Simd, 12, 2, 3, 3, HalfRegisters::ShareEntry, Replacement::Lru};
    RegisterCache rc(cfg);
    Instruction add = make_instruction("fadd32", {reg32(0), reg32(0), reg32(1)});
    CHECK(rc.fetch_operands(0, add, 0) == 3);   // two reads fit the issue cycle, then 3 cycles
    CHECK(rc.fetch_operands(0, add, 10) == 0);  // both cached: no read, no latency
    Instruction three = make_instruction("fmadd32", {reg32(2), reg32(2), reg32(3), reg32(4)});
    CHECK(rc.fetch_operands(0, three, 20) == 4);  // three reads take two cycles, then 3
}

TEST_CASE("register cache: a 16-bit register takes an entry of its own unless halves share") {
    // Four 16-bit registers, the halves of r0 and r1, in two entries.
    Instruction lo = make_instruction("fadd16", {reg16(0), reg16(0), reg16(2)});
    Instruction hi = make_instruction("fadd16", {reg16(1), reg16(1), reg16(3)});
    RegisterCacheConfig own{
        RegisterCacheSharing::Simd, 2, 2, 3, 1, HalfRegisters::OwnEntry, Replacement::Lru};
    RegisterCache a(own);
    CHECK(a.fetch_operands(0, lo, 0) == 1);   // two 16-bit misses: the 16-bit read latency
    CHECK(a.fetch_operands(0, hi, 10) == 1);  // h1, h3 evict h0, h2
    CHECK(a.fetch_operands(0, lo, 20) == 1);
    CHECK(a.misses() == 6);
    RegisterCacheConfig share{
        RegisterCacheSharing::Simd, 2, 2, 3, 1, HalfRegisters::ShareEntry, Replacement::Lru};
    RegisterCache b(share);
    b.fetch_operands(0, lo, 0);  // r0 and r1 now cached, both halves
    CHECK(b.fetch_operands(0, hi, 10) == 0);
    CHECK(b.fetch_operands(0, lo, 20) == 0);
    CHECK(b.misses() == 2);
    // A cached 32-bit register serves reads of its halves; a cached half
    // does not serve a read of the whole register.
    Instruction whole = make_instruction("fadd32", {reg32(6), reg32(0), reg32(1)});
    RegisterCache c(RegisterCacheConfig{RegisterCacheSharing::Simd, 4, 2, 3, 1,
                                        HalfRegisters::OwnEntry, Replacement::Lru});
    c.fetch_operands(0, whole, 0);  // r0, r1 (and the result r6) cached
    auto misses = c.misses();
    CHECK(c.fetch_operands(0, lo, 10) == 0);  // h0 (in r0), h2 (in r1): hits; writes into r0
    CHECK(c.misses() == misses);
    Instruction half = make_instruction("fadd16", {reg16(10), reg16(10), reg16(10)});
    RegisterCache d(RegisterCacheConfig{RegisterCacheSharing::Simd, 4, 2, 3, 1,
                                        HalfRegisters::OwnEntry, Replacement::Lru});
    d.fetch_operands(0, half, 0);  // h10 alone cached
    misses = d.misses();
    Instruction r5 = make_instruction("fadd32", {reg32(7), reg32(5), reg32(5)});
    CHECK(d.fetch_operands(0, r5, 10) == 3);  // r5 (h10, h11) misses
    CHECK(d.misses() == misses + 1);
    // A 32-bit operand among the misses: the 32-bit latency.
    Instruction mixed = make_instruction("fadd32", {reg32(4), reg32(4), reg32(5)});
    CHECK(a.fetch_operands(0, mixed, 30) == 3);
}
