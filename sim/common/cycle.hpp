// Simulated time is counted in integer core-clock cycles.
#pragma once

#include <cstdint>
#include <limits>

namespace agx {

using Cycle = std::uint64_t;
inline constexpr Cycle kNever = std::numeric_limits<Cycle>::max();

}  // namespace agx
