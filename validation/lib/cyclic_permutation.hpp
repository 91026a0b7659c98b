// A seeded random cyclic order of the integers [0, n), generated on the fly in
// constant memory: the pointer chase's "next element" without storing a
// permutation of up to millions of elements.
//
// A counter runs over [0, 2^k), 2^k >= n; a bijection of [0, 2^k) built from
// steps that are each invertible modulo 2^k (xor with a seed, multiplication
// by an odd constant, xor with a right shift) maps it to an element, and
// values >= n are skipped (fewer than half). Every element therefore appears
// exactly once per 2^k counter steps, in an order that looks random to the
// caches: one cycle through all n elements.
#pragma once

#include <cstdint>

namespace agx::validation {

class CyclicPermutation {
  public:
    CyclicPermutation(std::uint64_t n, std::uint64_t seed) : n_(n ? n : 1) {
        while ((1ull << bits_) < n_) ++bits_;
        mask_ = bits_ >= 64 ? ~0ull : (1ull << bits_) - 1;
        seed_ = splitmix(seed);
        shift_ = bits_ / 2 + 1;
    }

    std::uint64_t size() const { return n_; }
    std::uint64_t period() const { return mask_ + 1; }

    // The first counter at or after `counter` (modulo the period) that maps
    // into [0, n).
    std::uint64_t settle(std::uint64_t counter) const {
        counter &= mask_;
        while (map(counter) >= n_) counter = (counter + 1) & mask_;
        return counter;
    }
    // The element a settled counter stands for.
    std::uint64_t element(std::uint64_t counter) const { return map(counter); }
    // The counter of the next element of the cycle.
    std::uint64_t next(std::uint64_t counter) const { return settle(counter + 1); }

  private:
    static std::uint64_t splitmix(std::uint64_t x) {
        x += 0x9E3779B97F4A7C15ull;
        x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
        x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
        return x ^ (x >> 31);
    }
    std::uint64_t map(std::uint64_t x) const {
        if (bits_ == 0) return 0;
        x = (x ^ seed_) & mask_;
        x = (x * 0x9E3779B97F4A7C15ull) & mask_;
        x ^= x >> shift_;
        x = (x * (seed_ | 1)) & mask_;
        x ^= x >> shift_;
        x = (x * 0xD6E8FEB86659FD93ull) & mask_;
        x ^= x >> shift_;
        return x;
    }

    std::uint64_t n_;
    unsigned bits_ = 0;
    unsigned shift_ = 1;
    std::uint64_t mask_ = 0;
    std::uint64_t seed_ = 0;
};

}  // namespace agx::validation
