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
