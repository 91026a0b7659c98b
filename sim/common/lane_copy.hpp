// A lane's few bytes copied with a size the compiler knows: memory
// instructions move 1-16 bytes per lane, and a memcpy of a run-time size is
// a library call per lane (about 5% of agxsim_bench's sgemm_chip in the
// executor's loads and stores), where a fixed-size one is a move or two.
#pragma once

#include <cstring>

namespace agx {

inline void copy_lane_bytes(void* to, const void* from, unsigned n) {
    switch (n) {
        case 4:
            std::memcpy(to, from, 4);
            return;
        case 8:
            std::memcpy(to, from, 8);
            return;
        case 16:
            std::memcpy(to, from, 16);
            return;
        case 2:
            std::memcpy(to, from, 2);
            return;
        case 1:
            std::memcpy(to, from, 1);
            return;
        case 12:
            std::memcpy(to, from, 12);
            return;
        default:
            std::memcpy(to, from, n);
    }
}

}  // namespace agx
