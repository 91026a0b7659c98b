#include "sim/timing/cache_tags.hpp"

#include <algorithm>

namespace agx {

CacheTags::CacheTags(const CacheConfig& cfg)
    : line_bytes_(std::max<std::uint32_t>(1, cfg.line_bytes)),
      ways_(std::max<std::uint32_t>(1, cfg.associativity)),
      sets_(std::max<std::uint64_t>(1, cfg.size_bytes / line_bytes_ / ways_)),
      tag_(sets_ * ways_, kInvalid),
      last_use_(sets_ * ways_, 0),
      ready_(sets_ * ways_, 0),
      dirty_(sets_ * ways_, false),
      victims_(cfg.replacement) {
    if (is_pow2(line_bytes_) && line_bytes_ > 1) line_shift_ = log2_of(line_bytes_);
    if (is_pow2(sets_)) {
        pow2_sets_ = true;
        index_ = IndexHash(cfg.set_index, log2_of(sets_), cfg.set_hash_bits);
    }
}

TagResult CacheTags::access(std::uint64_t address, bool dirty, bool allocate, Cycle now) {
    return lookup(address, true, dirty, allocate, now);
}

void CacheTags::fill(std::uint64_t address, Cycle ready, Cycle now) {
    const TagResult r = lookup(address, false, false, true, now);
    if (r.ready) *r.ready = ready;
}

void CacheTags::invalidate(std::uint64_t address) {
    const std::uint64_t line = line_of(address);
    const std::uint64_t base = set_of(line) * ways_, tag = tag_of(line);
    for (std::uint32_t w = 0; w < ways_; ++w)
        if (tag_[base + w] == tag) {
            tag_[base + w] = kInvalid;
            last_use_[base + w] = 0;
            ready_[base + w] = 0;
            dirty_[base + w] = false;
        }
}

bool CacheTags::contains(std::uint64_t address) const {
    const std::uint64_t line = line_of(address);
    const std::uint64_t* tags = &tag_[set_of(line) * ways_];
    const std::uint64_t tag = tag_of(line);
    for (std::uint32_t w = 0; w < ways_; ++w)
        if (tags[w] == tag) return true;
    return false;
}

// The oldest way whose data is there by `now` (a second pass, only when
// the oldest of all is still being filled), else `fallback`.
std::uint32_t CacheTags::oldest_arrived(std::uint64_t base, const std::uint64_t* stamps, Cycle now,
                                        std::uint32_t fallback) const {
    std::uint32_t found = ways_;
    for (std::uint32_t w = 0; w < ways_; ++w)
        if (ready_[base + w] <= now && (found == ways_ || stamps[w] < stamps[found])) found = w;
    return found < ways_ ? found : fallback;
}

TagResult CacheTags::lookup(std::uint64_t address, bool count, bool dirty, bool allocate,
                            Cycle now) {
    const std::uint64_t line = line_of(address);
    const std::uint64_t set = set_of(line);
    const std::uint64_t tag = tag_of(line);
    const std::uint64_t base = set * ways_;
    const std::uint64_t* tags = &tag_[base];
    const std::uint64_t* stamps = &last_use_[base];
    // One pass finds the line, the first empty way and the oldest stamp (the
    // victim of lru and fifo: the first way with the smallest stamp), so a
    // miss, the common case of a streaming level, reads the set once.
    std::uint32_t empty = ways_, oldest = 0;
    for (std::uint32_t w = 0; w < ways_; ++w) {
        if (tags[w] == tag) {
            const std::uint64_t i = base + w;
            if (victims_.stamp_on_hit()) last_use_[i] = ++tick_;
            if (dirty) dirty_[i] = true;
            if (count) ++hits_;
            TagResult r;
            r.hit = true;
            r.ready = &ready_[i];
            return r;
        }
        if (tags[w] == kInvalid && empty == ways_) empty = w;
        if (stamps[w] < stamps[oldest]) oldest = w;
    }
    if (count) ++misses_;
    if (!allocate) return {};
    std::uint32_t way = empty;
    if (way == ways_) {
        switch (victims_.policy()) {
            case Replacement::Lru:
            case Replacement::Fifo:  // VictimPicker::pick's rule, found by the pass above
                way = oldest;
                if (ready_[base + way] > now) way = oldest_arrived(base, stamps, now, way);
                break;
            case Replacement::Random:
                way = victims_.pick(ways_, [stamps](std::uint32_t k) { return stamps[k]; });
                break;
        }
    }
    const std::uint64_t i = base + way;
    TagResult r;
    if (tag_[i] != kInvalid && dirty_[i]) {
        r.evicted_dirty = true;
        r.evicted_address = line_at(set, tag_[i]) * line_bytes_;
        ++writebacks_;
    }
    tag_[i] = tag;
    last_use_[i] = ++tick_;
    ready_[i] = 0;
    dirty_[i] = dirty;
    r.ready = &ready_[i];
    return r;
}

}  // namespace agx
