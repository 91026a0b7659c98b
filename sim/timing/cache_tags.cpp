#include "sim/timing/cache_tags.hpp"

#include <algorithm>

namespace agx {

CacheTags::CacheTags(const CacheConfig& cfg)
    : line_bytes_(std::max<std::uint32_t>(1, cfg.line_bytes)),
      ways_(std::max<std::uint32_t>(1, cfg.associativity)),
      sets_(std::max<std::uint64_t>(1, cfg.size_bytes / line_bytes_ / ways_)),
      ways_store_(sets_ * ways_) {}

bool CacheTags::access(std::uint64_t address) {
    const std::uint64_t line = address / line_bytes_;
    const std::uint64_t set = line % sets_;
    const std::uint64_t tag = line / sets_;
    Way* base = &ways_store_[set * ways_];
    Way* victim = base;
    for (std::uint32_t w = 0; w < ways_; ++w) {
        Way& way = base[w];
        if (way.valid && way.tag == tag) {
            way.last_use = ++tick_;
            ++hits_;
            return true;
        }
        if (!way.valid || (victim->valid && way.last_use < victim->last_use)) victim = &way;
    }
    *victim = Way{tag, ++tick_, true};
    ++misses_;
    return false;
}

}  // namespace agx
