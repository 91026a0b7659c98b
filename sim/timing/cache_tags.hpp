// Tag store of a set-associative cache (replacement policy from the config:
// lru, fifo, random). Pure bookkeeping:
// timing belongs to the block that owns it.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/config/machine_config.hpp"
#include "sim/timing/replacement.hpp"

namespace agx {

class CacheTags {
public:
    explicit CacheTags(const CacheConfig& cfg);

    // Looks the line holding `address` up; on a miss, allocates it (evicting
    // the least recently used way). Returns true on a hit.
    bool access(std::uint64_t address);
    // Whether the line is present, without touching statistics or LRU order.
    bool contains(std::uint64_t address) const;
    // Installs the line (a prefetch or a pre-load) without counting an access.
    void fill(std::uint64_t address);

    std::uint64_t hits() const { return hits_; }
    std::uint64_t misses() const { return misses_; }
    std::uint32_t line_bytes() const { return line_bytes_; }

private:
    bool lookup(std::uint64_t address, bool count);

    struct Way {
        std::uint64_t tag = 0;
        std::uint64_t last_use = 0;
        bool valid = false;
    };
    std::uint32_t line_bytes_;
    std::uint32_t ways_;
    std::uint64_t sets_;
    std::vector<Way> ways_store_;
    VictimPicker victims_;
    std::uint64_t tick_ = 0;
    std::uint64_t hits_ = 0, misses_ = 0;
};

}  // namespace agx
