// Tag store of a set-associative cache (replacement policy from the config:
// lru, fifo, random; set index from the config: low bits, xor or ipoly). Pure bookkeeping: timing
// belongs to the block that owns it, which may keep one cycle per line in the tags (when the line's
// data is there: a line being filled is present but not yet usable).
#pragma once

#include <cstdint>
#include <vector>

#include "sim/common/cycle.hpp"
#include "sim/config/machine_config.hpp"
#include "sim/timing/index_hash.hpp"
#include "sim/timing/replacement.hpp"

namespace agx {

// What one lookup found and did.
struct TagResult {
    bool hit = false;
    bool evicted_dirty = false;         // a dirty line left to make room: write it back
    std::uint64_t evicted_address = 0;  // its address
    // The line's ready cycle (hit or newly allocated line; null when nothing
    // was allocated). Valid until the next call on the tags.
    Cycle* ready = nullptr;
};

class CacheTags {
  public:
    explicit CacheTags(const CacheConfig& cfg);

    // The lookup: a hit or, with `allocate`, a fill of the line; a
    // write (`dirty`) leaves the line dirty, so that its eviction reports a
    // write-back. A newly allocated line is ready at cycle 0 until the owner
    // sets *ready. With `now` (lru and fifo), a line whose data is not there
    // yet (ready after `now`) is the victim only when every way of the set
    // is such a line. GPU caches that allocate a line on a miss reserve it
    // until its fill returns (GPGPU-Sim's reserved lines, which no other
    // miss may take); here a set whose every way is reserved still gives up
    // its oldest, whose later requests join its fill through the MSHR,
    // rather than stalling the miss.
    TagResult access(std::uint64_t address, bool dirty, bool allocate, Cycle now = kNever);
    // Drops the line if present (its data is not written back).
    void invalidate(std::uint64_t address);
    // Whether the line is present, without touching statistics or LRU order.
    bool contains(std::uint64_t address) const;
    // Installs the line (a prefetch or a pre-load) without counting an access;
    // its data is there from `ready`. `now` as for access().
    void fill(std::uint64_t address, Cycle ready = 0, Cycle now = kNever);
    // The lookup with allocation, uncounted: functional warming (a sampled
    // run's skipped accesses leave the tags as a timed run would).
    TagResult warm(std::uint64_t address, bool dirty) {
        return lookup(address, false, dirty, true);
    }

    // The set `address` maps to (the config's set index).
    std::uint64_t set_index(std::uint64_t address) const { return set_of(line_of(address)); }
    std::uint64_t sets() const { return sets_; }

    std::uint64_t hits() const { return hits_; }
    std::uint64_t misses() const { return misses_; }
    std::uint64_t writebacks() const { return writebacks_; }
    std::uint32_t line_bytes() const { return line_bytes_; }

  private:
    TagResult lookup(std::uint64_t address, bool count, bool dirty, bool allocate,
                     Cycle now = kNever);
    std::uint32_t oldest_arrived(std::uint64_t base, const std::uint64_t* stamps, Cycle now,
                                 std::uint32_t fallback) const;
    std::uint64_t set_of(std::uint64_t line) const {
        return pow2_sets_ ? index_.index(line) : line % sets_;
    }
    std::uint64_t tag_of(std::uint64_t line) const {
        return pow2_sets_ ? index_.upper(line) : line / sets_;
    }
    std::uint64_t line_at(std::uint64_t set, std::uint64_t tag) const {
        return pow2_sets_ ? index_.value(set, tag) : tag * sets_ + set;
    }
    std::uint64_t line_of(std::uint64_t address) const {
        return line_shift_ ? address >> line_shift_ : address / line_bytes_;
    }

    // Way state in separate arrays, so that a lookup reads a set's tags from
    // one or two host cache lines. An invalid way holds kInvalid as its tag.
    static constexpr std::uint64_t kInvalid = ~0ull;
    std::uint32_t line_bytes_;
    std::uint32_t ways_;
    std::uint64_t sets_;
    unsigned line_shift_ = 0;  // log2(line_bytes) when a power of two (else 0: divide)
    // With a power-of-two set count the index is address bits, hashed or not;
    // else (tests' odd shapes only: configs need a power of two) a division.
    bool pow2_sets_ = false;
    IndexHash index_;
    std::vector<std::uint64_t> tag_;
    std::vector<std::uint64_t> last_use_;
    std::vector<Cycle> ready_;
    std::vector<std::uint8_t> dirty_;  // bytes, not vector<bool>'s bit arithmetic
    VictimPicker victims_;
    std::uint64_t tick_ = 0;
    std::uint64_t hits_ = 0, misses_ = 0, writebacks_ = 0;
};

}  // namespace agx
