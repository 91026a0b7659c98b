// The victim choice of the replacement policies the caches and the register
// cache share (the policy itself: sim/config/policies.hpp). Each way keeps one
// stamp; the policy says when the stamp moves and which way goes.
#pragma once

#include <cstdint>

#include "sim/config/policies.hpp"

namespace agx {

class VictimPicker {
  public:
    explicit VictimPicker(Replacement p) : policy_(p) {}
    bool stamp_on_hit() const { return policy_ == Replacement::Lru; }
    Replacement policy() const { return policy_; }
    // Index of the way to evict among `n` valid ways with stamps `stamp(i)`.
    // (CacheTags::lookup finds lru's and fifo's victim, the first oldest
    // stamp, in its own pass over the set; a new policy goes there too.)
    template <class Stamp>
    std::uint32_t pick(std::uint32_t n, Stamp stamp) {
        if (policy_ == Replacement::Random) {
            state_ ^= state_ << 13;
            state_ ^= state_ >> 7;
            state_ ^= state_ << 17;
            return static_cast<std::uint32_t>(state_ % n);
        }
        std::uint32_t victim = 0;
        for (std::uint32_t i = 1; i < n; ++i)
            if (stamp(i) < stamp(victim)) victim = i;
        return victim;
    }

  private:
    Replacement policy_;
    std::uint64_t state_ = 0x9E3779B97F4A7C15ull;
};

}  // namespace agx
