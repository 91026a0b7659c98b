// A lane's few bytes copied with a size the compiler knows: memory
// instructions move 1-16 bytes per lane, and a memcpy of a run-time size is
// a library call per lane (about 5% of agxsim_bench's sgemm_chip in the
// executor's loads and stores), where a fixed-size one is a move or two.
#pragma once

#include <cstring>

namespace agx {

// The first of `Sizes` that equals n copies with its size fixed; no match: a
// plain memcpy.
template <unsigned... Sizes>
inline void copy_fixed_sizes(void* to, const void* from, unsigned n) {
    const bool fixed = ((n == Sizes && (std::memcpy(to, from, Sizes), true)) || ...);
    if (!fixed) std::memcpy(to, from, n);
}

inline void copy_lane_bytes(void* to, const void* from, unsigned n) {
    copy_fixed_sizes<4, 8, 16, 2, 1, 12>(to, from, n);
}

}  // namespace agx
