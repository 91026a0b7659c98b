// Replacement policies shared by the caches and the register cache, chosen
// by name in the config. Each way keeps one stamp; the policy says when the
// stamp moves and which way goes.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace agx {

enum class Replacement : std::uint8_t {
    Lru,     // stamp on every use; evict the oldest stamp
    Fifo,    // stamp on fill only; evict the oldest fill
    Random,  // evict a pseudo-random way (xorshift, fixed seed: runs repeat bit for bit)
};

inline Replacement replacement_from_name(const std::string& name) {
    if (name == "lru") return Replacement::Lru;
    if (name == "fifo") return Replacement::Fifo;
    if (name == "random") return Replacement::Random;
    throw std::invalid_argument("unknown replacement policy '" + name +
                                "'");  // configs are validated first
}

class VictimPicker {
  public:
    explicit VictimPicker(Replacement p) : policy_(p) {}
    bool stamp_on_hit() const { return policy_ == Replacement::Lru; }
    Replacement policy() const { return policy_; }
    // Index of the way to evict among `n` valid ways with stamps `stamp(i)`.
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
