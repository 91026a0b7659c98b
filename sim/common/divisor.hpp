// Division by a divisor fixed at construction that is nearly always a power
// of two (read ports x 2, schedulers x SFU lanes): a shift then. A 64-bit
// divide takes tens of cycles, and the issue path of an integer/complex
// instruction had three of them in a row.
#pragma once

#include <cstdint>

namespace agx {

class Divisor {
  public:
    explicit Divisor(std::uint64_t d)
        : d_(d), shift_(d != 0 && (d & (d - 1)) == 0 ? __builtin_ctzll(d) : kDivide) {}
    std::uint64_t value() const { return d_; }
    std::uint64_t divide(std::uint64_t x) const { return shift_ != kDivide ? x >> shift_ : x / d_; }
    std::uint64_t remainder(std::uint64_t x) const {
        return shift_ != kDivide ? x & (d_ - 1) : x % d_;
    }

  private:
    static constexpr int kDivide = -1;  // not a power of two
    std::uint64_t d_;
    int shift_;
};

}  // namespace agx
