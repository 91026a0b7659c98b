// Address mapping: the hashed indexes of caches and DRAM (the XOR fold and
// IPOLY) against the plain low bits, on the power-of-two strides that GEMM
// rows and matrix-vector products walk, and on the strides a fold collapses.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <random>
#include <set>

#include "sim/timing/cache_tags.hpp"
#include "sim/timing/dram_timing.hpp"
#include "sim/timing/index_hash.hpp"

using namespace agx;

namespace {

// The shipped L1 data cache's shape: 8 KB of 128 B lines, 4-way: 16 sets.
CacheConfig l1(AddressHash index) {
    CacheConfig c;
    c.size_bytes = 8192;
    c.line_bytes = 128;
    c.associativity = 4;
    c.set_index = index;
    c.set_hash_bits = 24;
    return c;
}

// m1-max's DRAM: 32 channels of 16 banks, 2 KB rows, LPDDR5-6400.
DramConfig m1_max_dram(AddressHash mapping) {
    DramConfig d;
    d.channels = 32;
    d.bus_width_bits = 512;
    d.data_rate_mtps = 6400;
    d.latency_ns = 45;
    d.banks_per_channel = 16;
    d.row_bytes = 2048;
    d.row_miss_ns = 18;
    d.efficiency = 0.75;
    d.address_mapping = mapping;
    d.hash_bits = 24;
    return d;
}

// Bytes per cycle of a stream of `lines` line reads `stride` bytes apart,
// all arriving at once (the controller's queues sort them out).
double stream_rate(const DramConfig& d, std::uint64_t stride, int lines) {
    DramTiming dram(d, 1.296, 128);
    Cycle end = 0;
    for (int i = 0; i < lines; ++i)
        end = std::max(end, dram.access(static_cast<std::uint64_t>(i) * stride, 128, false, 0));
    return lines * 128.0 / static_cast<double>(end);
}

// a mod b for polynomials over GF(2) (bit i: the coefficient of x^i), by
// long division.
std::uint64_t mod(std::uint64_t a, std::uint64_t b) {
    const int db = 63 - __builtin_clzll(b);
    for (int d = 63 - __builtin_clzll(a | 1); a && d >= db; d = 63 - __builtin_clzll(a | 1))
        a ^= b << (d - db);
    return a;
}

}  // namespace

TEST_CASE("index hash: low bits are the plain index, the XOR fold is a bijection", "[memory]") {
    const IndexHash plain(AddressHash::LowBits, 4, 24);
    CHECK(plain.index(0x1234) == 0x4);
    CHECK(plain.upper(0x1234) == 0x123);
    const IndexHash hashed(AddressHash::Xor, 4, 24);
    // 0x123 folds to 1 ^ 2 ^ 3 = 0, so the index stays 4; 0x124 folds to 7.
    CHECK(hashed.index(0x1234) == (0x4 ^ 0x1 ^ 0x2 ^ 0x3));
    CHECK(hashed.index(0x1244) == (0x4 ^ 0x1 ^ 0x2 ^ 0x4));
    std::mt19937_64 rng(7);
    for (int i = 0; i < 10000; ++i) {
        const std::uint64_t v = rng() >> 20;
        const std::uint64_t idx = hashed.index(v);
        CHECK(idx < 16);
        CHECK(hashed.value(idx, hashed.upper(v)) == v);
    }
    // Only `hash_bits` bits above the index fold in.
    const IndexHash narrow(AddressHash::Xor, 4, 4);
    CHECK(narrow.index(0x10) == 1);
    CHECK(narrow.index(0x100) == 0);
}

TEST_CASE("cache tags: a power-of-two-stride tile uses every L1 set with a hashed index",
          "[memory]") {
    // 64 rows of a 1024-float matrix: one line every 4 KB.
    for (AddressHash index : {AddressHash::LowBits, AddressHash::Xor, AddressHash::Ipoly}) {
        CacheTags tags(l1(index));
        std::set<std::uint64_t> sets;
        for (std::uint64_t row = 0; row < 64; ++row) sets.insert(tags.set_index(row * 4096));
        INFO(policy_name(index));
        if (index == AddressHash::LowBits)
            CHECK(sets.size() == 1);  // every row in one set: 4 ways for 64 lines
        else
            CHECK(sets.size() == tags.sets());
    }
    // The tile's 64 lines fit the 64-line cache only when hashed: a second
    // pass over them hits.
    CacheTags hashed(l1(AddressHash::Ipoly)), plain(l1(AddressHash::LowBits));
    for (int pass = 0; pass < 2; ++pass)
        for (std::uint64_t row = 0; row < 64; ++row) {
            hashed.access(row * 4096, false, true);
            plain.access(row * 4096, false, true);
        }
    CHECK(hashed.hits() == 64);
    CHECK(plain.hits() == 0);
}

TEST_CASE("cache tags: a hashed set still writes back the evicted line's own address", "[memory]") {
    CacheTags tags(l1(AddressHash::Xor));
    std::set<std::uint64_t> written, evicted;
    // Far more dirty lines than the cache holds, at scattered addresses.
    std::mt19937_64 rng(3);
    for (int i = 0; i < 2000; ++i) {
        const std::uint64_t a = (rng() % (1u << 22)) * 128;
        written.insert(a);
        const TagResult r = tags.access(a, true, true);
        if (r.evicted_dirty) evicted.insert(r.evicted_address);
    }
    REQUIRE(!evicted.empty());
    for (std::uint64_t a : evicted) CHECK(written.count(a) == 1);
}

TEST_CASE("DRAM: a 4 KB-stride stream spreads over every channel with a hashed mapping",
          "[memory]") {
    for (AddressHash mapping : {AddressHash::LowBits, AddressHash::Xor, AddressHash::Ipoly}) {
        const DramTiming dram(m1_max_dram(mapping), 1.296, 128);
        std::set<std::uint32_t> channels, banks;
        for (std::uint64_t i = 0; i < 1024; ++i) {
            channels.insert(dram.channel_of(i * 4096));
            banks.insert(dram.bank_of(i * 4096));
        }
        INFO("mapping " << policy_name(mapping));
        if (mapping == AddressHash::LowBits) {
            CHECK(channels.size() == 1);  // 4 KB is 32 lines: always channel 0
        } else {
            CHECK(channels.size() == 32);
            CHECK(banks.size() == 16);
        }
    }
    // Its bandwidth is the sequential stream's within 10% (every line opens a
    // row, but 16 banks per channel hide the activations); the plain mapping
    // serialises it on one channel. (The kernel-level comparison with a 4.5 KB
    // stride: tests/cli/test_address_mapping.cpp.)
    const DramConfig hashed = m1_max_dram(AddressHash::Ipoly);
    const double sequential = stream_rate(hashed, 128, 16384);
    CHECK(stream_rate(hashed, 4096, 16384) == Approx(sequential).epsilon(0.10));
    const DramConfig plain = m1_max_dram(AddressHash::LowBits);
    CHECK(stream_rate(plain, 4096, 16384) < stream_rate(plain, 128, 16384) / 4);
}

TEST_CASE("DRAM: IPOLY keeps matrix-row strides near the sequential rate, the fold loses one",
          "[memory]") {
    // Rows 4,224 bytes apart (a 1024-float matrix padded by 32) are 33 lines:
    // the fold of 5-bit chunks cancels k against k and puts each run of 32
    // rows on one channel; the polynomial modulus does not (Rau, ISCA 1991).
    const DramConfig ipoly = m1_max_dram(AddressHash::Ipoly), fold = m1_max_dram(AddressHash::Xor);
    const double sequential = stream_rate(ipoly, 128, 16384);
    for (std::uint64_t stride : {256u, 1024u, 4096u, 4224u, 4608u, 8192u, 8320u, 135168u}) {
        INFO("stride " << stride);
        CHECK(stream_rate(ipoly, stride, 16384) > 0.9 * sequential);
    }
    CHECK(stream_rate(fold, 4224, 16384) < sequential / 4);
}

TEST_CASE("index hash: IPOLY's moduli are irreducible, power-of-two strides use every place",
          "[memory]") {
    // Each index width's polynomial has no factor of lower degree (trial
    // division over GF(2)); 2^w values at any power-of-two stride then take
    // every index once.
    for (unsigned w = 1; w <= 24; ++w) {
        const IndexHash h(AddressHash::Ipoly, w, 24);
        // The modulus, read back: x^w mod p = p - x^w, so p = x^w ^ index(1 << w).
        const std::uint64_t p = (1ull << w) ^ h.index(1ull << w);
        for (std::uint64_t f = 2; f < (1ull << (w / 2 + 1)); ++f) {
            if (mod(p, f) == 0) FAIL("width " << w << ": modulus divisible by " << f);
        }
        if (w <= 12) {
            for (std::uint64_t stride : {1ull, 2ull, 1ull << w, 1ull << (w + 3)}) {
                std::set<std::uint64_t> seen;
                for (std::uint64_t k = 0; k < (1ull << w); ++k) seen.insert(h.index(k * stride));
                INFO("width " << w << " stride " << stride);
                CHECK(seen.size() == (1ull << w));
            }
        }
    }
}

TEST_CASE("index hash: IPOLY's index is the bits above times x^w modulo the polynomial",
          "[memory]") {
    // The definition, computed here by long division over GF(2), against
    // the hash's tabulated form, at every width and at hash widths that end
    // inside a byte and on one.
    std::mt19937_64 rng(11);
    for (unsigned w = 1; w <= 24; ++w)
        for (unsigned bits : {5u, 16u, 24u, 30u}) {
            const IndexHash h(AddressHash::Ipoly, w, bits);
            const std::uint64_t p = (1ull << w) ^ h.index(1ull << w);
            for (int i = 0; i < 200; ++i) {
                const std::uint64_t v = rng() >> 8;
                const std::uint64_t above = (v >> w) & ((1ull << bits) - 1);
                INFO("width " << w << " hash bits " << bits << " value " << v);
                CHECK(h.index(v) == ((v & ((1ull << w) - 1)) ^ mod(above << w, p)));
            }
        }
}
