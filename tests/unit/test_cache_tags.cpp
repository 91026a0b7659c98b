// The tag store of the core's caches.
#include <catch2/catch.hpp>

#include <cstdint>

#include "sim/timing/cache_tags.hpp"

using namespace agx;

TEST_CASE("cache tags: LRU within a set") {
    CacheConfig cfg{256, 128, 2, 1, 64, 1, 0, Replacement::Lru};  // one set, two ways
    CacheTags tags(cfg);
    // A read that allocates on a miss, as the caches look their lines up.
    auto read = [&](std::uint64_t address) { return tags.access(address, false, true).hit; };
    CHECK_FALSE(read(0));
    CHECK_FALSE(read(128));
    CHECK(read(0));
    CHECK_FALSE(read(256));  // evicts 128, the least recently used
    CHECK(read(0));
    CHECK_FALSE(read(128));
}

TEST_CASE("cache tags: a line still being filled is the victim only when all its set's are") {
    for (const Replacement policy : {Replacement::Lru, Replacement::Fifo}) {
        INFO((policy == Replacement::Lru ? "lru" : "fifo"));
        CacheConfig cfg{256, 128, 2, 1, 64, 1, 0, policy};  // one set, two ways
        CacheTags tags(cfg);
        // A miss at `now` whose fill is back at `ready`.
        auto miss = [&](std::uint64_t address, Cycle now, Cycle ready) {
            const TagResult t = tags.access(address, false, true, now);
            REQUIRE_FALSE(t.hit);
            *t.ready = ready;
        };
        miss(0, 10, 100);    // line 0, the oldest, in flight until 100
        miss(128, 11, 50);   // line 1, back at 50
        miss(256, 60, 200);  // at 60: line 1 has arrived and goes, not line 0
        CHECK(tags.contains(0));
        CHECK_FALSE(tags.contains(128));
        // At 70 both ways wait for fills: the oldest (line 0) goes.
        miss(384, 70, 300);
        CHECK_FALSE(tags.contains(0));
        CHECK(tags.contains(256));
        // Without a cycle (the shared levels), the oldest goes whatever its state.
        CacheTags plain(cfg);
        *plain.access(0, false, true).ready = 100;
        *plain.access(128, false, true).ready = 50;
        plain.access(256, false, true);
        CHECK_FALSE(plain.contains(0));
        CHECK(plain.contains(128));
    }
}

TEST_CASE("cache tags: random replacement takes no account of lines in flight") {
    // The same accesses with and without a cycle leave the same tags: the
    // random victim is drawn alike.
    CacheConfig cfg{512, 128, 4, 1, 64, 1, 0, Replacement::Random};  // one set, four ways
    CacheTags with(cfg), without(cfg);
    for (std::uint64_t i = 0; i < 64; ++i) {
        const std::uint64_t address = (i * 7 % 13) * 128;
        const TagResult a = with.access(address, false, true, i);
        if (a.ready && !a.hit) *a.ready = i + 100;  // every line long in flight
        const TagResult b = without.access(address, false, true);
        if (b.ready && !b.hit) *b.ready = i + 100;
        CHECK(a.hit == b.hit);
    }
    for (std::uint64_t line = 0; line < 13; ++line)
        CHECK(with.contains(line * 128) == without.contains(line * 128));
}
