#include "sim/timing/cache_tags.hpp"

#include <algorithm>

namespace agx {

CacheTags::CacheTags(const CacheConfig& cfg)
    : line_bytes_(std::max<std::uint32_t>(1, cfg.line_bytes)),
      ways_(std::max<std::uint32_t>(1, cfg.associativity)),
      sets_(std::max<std::uint64_t>(1, cfg.size_bytes / line_bytes_ / ways_)),
      ways_store_(sets_ * ways_),
      victims_(replacement_from_name(cfg.replacement.empty() ? "lru" : cfg.replacement)) {}

bool CacheTags::access(std::uint64_t address) { return lookup(address, true); }

void CacheTags::fill(std::uint64_t address) { lookup(address, false); }

bool CacheTags::contains(std::uint64_t address) const {
    const std::uint64_t line = address / line_bytes_;
    const Way* base = &ways_store_[(line % sets_) * ways_];
    for (std::uint32_t w = 0; w < ways_; ++w)
        if (base[w].valid && base[w].tag == line / sets_) return true;
    return false;
}

bool CacheTags::lookup(std::uint64_t address, bool count) {
    const std::uint64_t line = address / line_bytes_;
    const std::uint64_t set = line % sets_;
    const std::uint64_t tag = line / sets_;
    Way* base = &ways_store_[set * ways_];
    Way* empty = nullptr;
    for (std::uint32_t w = 0; w < ways_; ++w) {
        Way& way = base[w];
        if (way.valid && way.tag == tag) {
            if (victims_.stamp_on_hit()) way.last_use = ++tick_;
            if (count) ++hits_;
            return true;
        }
        if (!way.valid && !empty) empty = &way;
    }
    Way* victim = empty ? empty : &base[victims_.pick(ways_, [base](std::uint32_t i) { return base[i].last_use; })];
    *victim = Way{tag, ++tick_, true};
    if (count) ++misses_;
    return false;
}

}  // namespace agx
