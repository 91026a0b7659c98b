// Unit tests of the memory side's plain C++ logic: bandwidth time lines,
// MSHR files, cache tags with dirty lines and fill times, DRAM banks and rows,
// threadgroup bank conflicts, the load/store unit's coalescing, and the
// pointer chase's cyclic permutation.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>

#include "sim/timing/bandwidth_timeline.hpp"
#include "sim/timing/cache_tags.hpp"
#include "sim/timing/dram_timing.hpp"
#include "sim/timing/load_store_unit.hpp"
#include "sim/timing/miss_tracker.hpp"
#include "sim/timing/threadgroup_memory.hpp"
#include "sim/trace/memory_fault.hpp"
#include "sim/trace/program_workload.hpp"
#include "validation/lib/cyclic_permutation.hpp"

using namespace agx;

namespace {

// An L1 that answers at a fixed latency and records what it was asked.
struct RecordingMemory : MemoryPort {
    Cycle latency = 10;
    Cycle hold_until = 0;  // pretend the MSHRs are full until then
    std::vector<std::pair<std::uint64_t, std::uint32_t>> requests;
    std::vector<Cycle> times;
    Cycle accepted = 0;
    Cycle access(std::uint64_t address, std::uint32_t bytes, bool, Cycle now) override {
        requests.push_back({address, bytes});
        times.push_back(now);
        accepted = std::max(now, hold_until);
        return accepted + latency;
    }
    Cycle last_accepted() const override { return accepted; }
};

CoreConfig lsu_core() {
    CoreConfig c;
    c.l1d = {8192, 128, 4, 4, 64, 16, 0, Replacement::Lru, WritePolicy::WriteThrough};
    return c;
}

Instruction load(std::uint64_t base, std::int64_t stride, unsigned bytes,
                 std::uint32_t mask = kFullMask) {
    Instruction in = make_instruction("device_load", {reg32(0)});
    in.mem.base = base;
    in.mem.stride = stride;
    in.mem.bytes_per_lane = static_cast<std::uint8_t>(bytes);
    in.active_mask = mask;
    return in;
}

}  // namespace

TEST_CASE("bandwidth time line: a path moves at most its rate, and idle adds no latency",
          "[memory]") {
    BandwidthTimeline t(32.0);          // 32 B per cycle
    CHECK(t.reserve(100, 128) == 104);  // 4 cycles for a line
    CHECK(t.reserve(100, 128) == 108);  // queued behind the first
    CHECK(t.pass(500, 128) == 500);     // idle: the transfer ends when the data is ready
    // A thousand lines at once take 4000 cycles, whatever their order of arrival.
    BandwidthTimeline busy(32.0);
    Cycle last = 0;
    for (int i = 999; i >= 0; --i)
        last = std::max(last, busy.reserve(static_cast<Cycle>(i % 7), 128));
    CHECK(last >= 4000);
    CHECK(last <= 4000 + 8);
    CHECK(busy.bytes() == 128000);
    CHECK(busy.queue_cycles() > 0);
    // An early request simulated late still finds the gap before a later one.
    BandwidthTimeline gaps(32.0);
    gaps.reserve(1000, 128);
    CHECK(gaps.reserve(10, 128) == 14);
}

TEST_CASE("bandwidth time line: a very slow path costs a request no more steps than a fast one",
          "[memory]") {
    // 1e-12 B per cycle: a bucket holds less than the time line's epsilon,
    // and one line spans ~10^13 buckets. Walking them one by one would
    // (nearly) never end; placing it finishes at once, at the right time.
    BandwidthTimeline slow(1e-12);
    const Cycle first = slow.reserve(0, 128);
    CHECK(static_cast<double>(first) == Approx(1.28e14).epsilon(1e-9));
    const Cycle second = slow.reserve(0, 128);  // queued behind the first
    CHECK(static_cast<double>(second) == Approx(2.56e14).epsilon(1e-9));
    CHECK(static_cast<double>(slow.pass(second, 64)) == Approx(3.2e14).epsilon(1e-9));
    // A fast path that a large request overruns by more than its look-ahead.
    BandwidthTimeline fast(1.0);
    CHECK(fast.reserve(0, 4'000'000'000u) == 4'000'000'000u);
    CHECK(fast.reserve(0, 8) == 4'000'000'008u);
}

TEST_CASE(
    "bandwidth time line: out-of-order requests on a saturated path land where a plain "
    "bucket walk puts them",
    "[memory]") {
    // The time line skips runs of full buckets by links; a walk over every
    // bucket (the definition, with no ring: the test's requests stay within
    // it) must place every request at the same cycle.
    struct PlainWalk {
        double rate, capacity;
        std::vector<double> used = std::vector<double>(1 << 18, 0.0);
        Cycle reserve(Cycle arrival, std::uint32_t bytes) {
            double remaining = bytes, start = -1.0, done = 0.0;
            for (std::uint64_t b = arrival / 4;; ++b) {
                double& u = used[b];
                const double free = capacity - u;
                if (free <= 1e-9) continue;
                if (start < 0) start = std::max<double>(arrival, b * 4.0 + u / rate);
                const double take = std::min(free, remaining);
                u += take;
                remaining -= take;
                if (remaining <= 1e-9) {
                    done = b * 4.0 + u / rate;
                    break;
                }
            }
            done = std::max(done, start + bytes / rate);
            return static_cast<Cycle>(std::ceil(done - 1e-9));
        }
    };
    for (double rate : {32.0, 12.5, 3.0}) {
        BandwidthTimeline line(rate);
        PlainWalk plain{rate, rate * 4};
        std::uint64_t seed = 12345;
        for (int i = 0; i < 5000; ++i) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            // Arrivals drift forward with jitter back in time, as the cores'
            // requests reach a shared level, asking 5% more than the rate
            // (120 B per request on average: a sector to two lines), so the
            // queue grows but stays within the time line's look-ahead.
            const Cycle arrival =
                static_cast<Cycle>(i * 120.0 / (1.05 * rate)) + (seed >> 40) % 200;
            const std::uint32_t bytes = 32u << ((seed >> 20) % 4);
            INFO("rate " << rate << " request " << i);
            REQUIRE(line.reserve(arrival, bytes) == plain.reserve(arrival, bytes));
        }
    }
}

TEST_CASE("MSHR file: a miss that finds every entry taken waits for the first to free",
          "[memory]") {
    MissTracker m(2);
    CHECK(m.acquire(0) == 0);
    m.hold(100);
    CHECK(m.acquire(1) == 1);
    m.hold(50);
    CHECK_FALSE(m.available(2));
    CHECK(m.acquire(2) == 50);  // the earlier of the two fills
    m.hold(150);
    CHECK(m.full_waits() == 1);
    CHECK(m.wait_cycles() == 48);
    CHECK(m.available(150));  // both gone by then
    MissTracker unlimited(0);
    for (int i = 0; i < 100; ++i) unlimited.hold(1000);
    CHECK(unlimited.acquire(5) == 5);
}

TEST_CASE("MSHR file: a miss finds the entry fetching its line until the entry frees", "[memory]") {
    MissTracker m(4);
    m.hold(120, 7, 100);  // line 7: data at 100, entry held to 120
    m.hold(90);           // an atomic: no line to join
    CHECK(m.in_flight(7, 50) == std::optional<Cycle>(100));
    CHECK(m.in_flight(7, 110) == std::optional<Cycle>(100));  // data in, entry still held
    CHECK_FALSE(m.in_flight(8, 50).has_value());
    CHECK_FALSE(m.in_flight(MissTracker::kNoLine, 50).has_value());
    CHECK_FALSE(m.in_flight(7, 120).has_value());  // freed
    MissTracker unlimited(0);                      // unlimited entries are still looked up
    for (std::uint64_t line = 0; line < 100; ++line) unlimited.hold(1000 + line, line);
    CHECK(unlimited.in_flight(99, 0) == std::optional<Cycle>(1099));
    CHECK_FALSE(unlimited.in_flight(0, 1000).has_value());
}

TEST_CASE("MSHR file: lines that share a lookup bucket are told apart, and freed entries leave it",
          "[memory]") {
    // The file counts its entries per bucket of line numbers (line mod
    // 1024) to answer most lookups without a scan: lines 1024 apart share
    // one.
    MissTracker m(3);
    m.hold(100, 5, 90);
    m.hold(200, 5 + 1024, 180);
    CHECK_FALSE(m.in_flight(5 + 2048, 0).has_value());  // same bucket, no entry for it
    CHECK(m.in_flight(5, 0) == std::optional<Cycle>(90));
    CHECK(m.in_flight(5 + 1024, 0) == std::optional<Cycle>(180));
    CHECK_FALSE(m.in_flight(5, 150).has_value());  // its entry freed at 100
    CHECK(m.in_flight(5 + 1024, 150) == std::optional<Cycle>(180));
    // A miss that finds the file full takes the entry that frees first.
    MissTracker one(1);
    CHECK(one.acquire(0) == 0);
    one.hold(100, 1, 100);
    CHECK(one.acquire(10) == 100);  // line 1's entry goes to it
    one.hold(300, 1 + 1024, 300);
    CHECK_FALSE(one.in_flight(1, 20).has_value());
    CHECK(one.in_flight(1 + 1024, 20) == std::optional<Cycle>(300));
    CHECK_FALSE(one.in_flight(1 + 1024, 300).has_value());
}

TEST_CASE("cache tags: dirty lines report their write-back, and lines keep their fill time",
          "[memory]") {
    CacheConfig cfg{256,
                    128,
                    1,
                    1,
                    64,
                    1,
                    0,
                    Replacement::Lru,
                    WritePolicy::WriteThrough};  // 2 sets, direct-mapped
    CacheTags tags(cfg);
    TagResult a = tags.access(0, true, true);  // a write miss allocates a dirty line
    CHECK_FALSE(a.hit);
    REQUIRE(a.ready);
    *a.ready = 77;
    TagResult again = tags.access(0, false, true);
    CHECK(again.hit);
    CHECK(*again.ready == 77);
    TagResult evict = tags.access(256, false, true);  // same set: evicts the dirty line
    CHECK(evict.evicted_dirty);
    CHECK(evict.evicted_address == 0);
    CHECK(tags.writebacks() == 1);
    TagResult clean = tags.access(0, false, true);  // evicts 256, which is clean
    CHECK_FALSE(clean.evicted_dirty);
    CHECK_FALSE(tags.access(512, false, false).ready);  // no allocation: nothing to time
    tags.invalidate(0);
    CHECK_FALSE(tags.contains(0));
}

TEST_CASE("DRAM: an idle random access takes the configured latency, a row hit less", "[memory]") {
    DramConfig d;
    d.channels = 8;
    d.bus_width_bits = 128;
    d.data_rate_mtps = 4266;
    d.latency_ns = 45;
    d.banks_per_channel = 8;
    d.row_bytes = 2048;
    d.row_miss_ns = 18;
    d.efficiency = 0.75;
    DramTiming dram(d, 1.278, 128);
    const Cycle latency = static_cast<Cycle>(std::ceil(45 * 1.278));
    const Cycle first = dram.access(0, 128, false, 1000);
    CHECK(first - 1000 >= latency - 1);
    CHECK(first - 1000 <= latency + 1);
    // The next line of the same channel is in the same row: faster.
    const Cycle hit = dram.access(8 * 128, 128, false, 5000);
    CHECK(hit - 5000 < first - 1000);
    CHECK(dram.row_hits() == 1);
    CHECK(dram.row_misses() == 1);
    // Streaming: the bus sustains peak x efficiency, never more.
    DramTiming stream(d, 1.278, 128);
    Cycle end = 0;
    const int lines = 20000;
    for (int i = 0; i < lines; ++i)
        end = std::max(end, stream.access(static_cast<std::uint64_t>(i) * 128, 128, false, 0));
    const double bytes_per_cycle = lines * 128.0 / static_cast<double>(end);
    CHECK(bytes_per_cycle <= stream.sustained_bytes_per_cycle() * 1.001);
    CHECK(bytes_per_cycle >= stream.sustained_bytes_per_cycle() * 0.95);
    CHECK(stream.sustained_bytes_per_cycle() == Approx(68.256 / 1.278 * 0.75).epsilon(0.001));
}

TEST_CASE("threadgroup memory: bank conflicts, broadcast, atomics and wide lanes", "[memory]") {
    ThreadgroupMemory tg(32, 4);
    CHECK(tg.passes(load(0, 4, 4), false) == 1);     // one word per bank
    CHECK(tg.passes(load(0, 8, 4), false) == 2);     // two lanes per bank
    CHECK(tg.passes(load(0, 128, 4), false) == 32);  // every lane in bank 0
    CHECK(tg.passes(load(64, 0, 4), false) == 1);    // all lanes on one word: broadcast
    CHECK(tg.passes(load(64, 0, 4), true) == 32);    // atomics on one word serialise
    CHECK(tg.passes(load(0, 16, 16), false) == 4);   // 512 bytes over 128 bytes per pass
    CHECK(tg.passes(load(0, 4, 4, 0x0000ffff), false) == 1);
    ThreadgroupMemory older(16, 4);  // the older 16 x 4 B estimate
    CHECK(older.passes(load(0, 4, 4), false) == 2);
    CHECK_THROWS_AS(tg.passes(load(2, 4, 4), false), MemoryFault);
    // One access at a time: a second waits for the banks.
    CHECK(tg.access(load(0, 8, 4), false, 10) == 11);
    CHECK(tg.free_at() == 12);
    CHECK(tg.access(load(0, 4, 4), false, 10) == 12);
    CHECK(tg.conflict_cycles() == 1);
}

TEST_CASE(
    "threadgroup memory: passes are the busiest bank's distinct words, for any lane addresses",
    "[memory]") {
    // The definition: every (bank, word) the active lanes touch, sorted; per
    // bank the distinct words (atomics: every one). Random lane addresses
    // over a few words, so that lanes share words and banks, at every size,
    // on banks of both kinds (a power of two or not), with a misaligned
    // access in between that must leave nothing behind.
    auto defined = [](const Instruction& in, bool atomic, std::uint32_t banks,
                      std::uint32_t bank_bytes) {
        std::vector<std::pair<std::uint64_t, std::uint64_t>> touched;
        const unsigned size = in.mem.bytes_per_lane;
        for (unsigned lane = 0; lane < 32; ++lane) {
            if (!(in.active_mask >> lane & 1u)) continue;
            const std::uint64_t a = in.mem.address(lane);
            for (std::uint64_t w = a / bank_bytes; w <= (a + size - 1) / bank_bytes; ++w)
                touched.push_back({w % banks, w});
        }
        std::sort(touched.begin(), touched.end());
        std::uint32_t worst = 1, run = 0;
        for (std::size_t i = 0; i < touched.size(); ++i) {
            if (i == 0 || touched[i].first != touched[i - 1].first)
                run = 1;
            else if (atomic || touched[i] != touched[i - 1])
                ++run;
            worst = std::max(worst, run);
        }
        return worst;
    };
    std::uint64_t seed = 99;
    auto next = [&seed] {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        return seed >> 33;
    };
    for (auto [banks, bank_bytes] : {std::pair{32u, 4u}, std::pair{24u, 4u}, std::pair{16u, 8u}}) {
        ThreadgroupMemory tg(banks, bank_bytes);
        for (int i = 0; i < 4000; ++i) {
            const unsigned size = 1u << (next() % 5);  // 1 to 16 bytes
            Instruction in = load(0, 0, size, static_cast<std::uint32_t>(next()) | 1u);
            in.mem.explicit_lanes = true;
            for (unsigned lane = 0; lane < 32; ++lane)
                in.mem.lane[lane] = (next() % (8 * banks)) * size;
            const bool atomic = next() % 4 == 0;
            INFO("banks " << banks << " x " << bank_bytes << " access " << i);
            REQUIRE(tg.passes(in, atomic) == defined(in, atomic, banks, bank_bytes));
            if (i % 100 == 0 && size > 1) {
                in.mem.lane[31] += 1;
                in.active_mask |= 1u << 31;
                REQUIRE_THROWS_AS(tg.passes(in, atomic), MemoryFault);
            }
        }
    }
}

TEST_CASE("load/store unit: sizes, masks, straddling lanes and misaligned ones", "[memory]") {
    const CoreConfig core = lsu_core();
    RecordingMemory l1;
    LoadStoreUnit lsu(core, l1);
    // 32 lanes x 4 B, contiguous: one line, 128 bytes.
    MemoryIssue m = lsu.issue(load(0x1000, 4, 4), AccessKind::Load, 0);
    CHECK(m.lines == 1);
    CHECK(l1.requests.back().second == 128);
    CHECK(m.busy_cycles == 2);  // 128 B at 64 B per cycle
    // 16 B per lane: four lines, eight cycles of the data path.
    l1.requests.clear();
    m = lsu.issue(load(0x2000, 16, 16), AccessKind::Load, 100);
    CHECK(m.lines == 4);
    CHECK(m.busy_cycles == 8);
    CHECK(lsu.accept_at() == 108);
    // 1-byte lanes, half the simd active: 16 bytes of one line, one cycle.
    m = lsu.issue(load(0x3000, 1, 1, 0x0000ffff), AccessKind::Load, 200);
    CHECK(m.lines == 1);
    CHECK(l1.requests.back().second == 16);
    // A stride of a line: one line per lane.
    m = lsu.issue(load(0x10000, 128, 8), AccessKind::Load, 300);
    CHECK(m.lines == 32);
    // A 12-byte lane (4-byte aligned) across a line boundary is split in two.
    Instruction vec3 = load(0x4000 + 120, 12, 12, 0x1);
    m = lsu.issue(vec3, AccessKind::Load, 400);
    CHECK(m.lines == 2);
    // Misaligned: a MemoryFault naming the lane.
    try {
        lsu.issue(load(0x5002, 4, 4), AccessKind::Load, 500);
        FAIL("no fault");
    } catch (const MemoryFault& f) {
        CHECK(std::string(f.what()).find("lane 0") != std::string::npos);
    }
    // Explicit lanes on few lines coalesce; duplicates count their bytes once.
    Instruction gather = load(0, 0, 4);
    gather.mem.explicit_lanes = true;
    for (unsigned i = 0; i < 32; ++i) gather.mem.lane[i] = 0x6000 + (i % 2) * 128;
    l1.requests.clear();
    m = lsu.issue(gather, AccessKind::Load, 600);
    CHECK(m.lines == 2);
    CHECK(l1.requests[0].second == 4);
}

TEST_CASE("load/store unit: atomics serialise per address, a full MSHR file holds the path",
          "[memory]") {
    const CoreConfig core = lsu_core();
    RecordingMemory l1;
    LoadStoreUnit lsu(core, l1);
    Instruction same = load(0x100, 0, 4);  // every lane on one word
    const Cycle one_address = lsu.issue(same, AccessKind::Atomic, 0).complete;
    Instruction spread = load(0x1000, 4, 4);
    const Cycle distinct = lsu.issue(spread, AccessKind::Atomic, 1000).complete - 1000;
    CHECK(one_address == distinct + 31);  // 32 read-modify-writes in a row

    l1.hold_until = 5000;  // the L1's MSHRs stay full until then
    lsu.issue(load(0x8000, 4, 4), AccessKind::Load, 2000);
    CHECK(lsu.accept_at() == 5002);
    CHECK(lsu.mshr_wait_cycles() == 3000);
}

TEST_CASE("cyclic permutation: every element once per cycle, seeded, in constant memory",
          "[memory]") {
    for (std::uint64_t n : {1ull, 2ull, 8ull, 1000ull, 4096ull}) {
        validation::CyclicPermutation p(n, 7);
        std::set<std::uint64_t> seen;
        std::uint64_t c = p.settle(0);
        for (std::uint64_t i = 0; i < n; ++i) {
            seen.insert(p.element(c));
            c = p.next(c);
        }
        CHECK(seen.size() == n);
        CHECK(*seen.rbegin() == n - 1);
        CHECK(p.element(c) == p.element(p.settle(0)));  // back at the start: one cycle
    }
    validation::CyclicPermutation a(1 << 20, 1), b(1 << 20, 2);
    std::uint64_t ca = a.settle(0), cb = b.settle(0);
    int same = 0, adjacent = 0;
    for (int i = 0; i < 1000; ++i) {
        const std::uint64_t next = a.element(a.next(ca));
        same += a.element(ca) == b.element(cb);
        adjacent += next == a.element(ca) + 1;  // a sequential walk would prefetch itself
        ca = a.next(ca);
        cb = b.next(cb);
    }
    CHECK(same < 5);
    CHECK(adjacent < 5);
}
