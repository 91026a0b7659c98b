#include "validation/lib/vec4_groups.hpp"

namespace agx::validation {

std::vector<std::pair<int, int>> vec4_group(std::uint32_t ilp) {
    std::vector<std::pair<int, int>> ops;
    auto at = [](int v, int k) { return 4 * v + k; };
    if (ilp >= 4) {
        // Whole-vector operations: a = a op b over three vectors, twice.
        const int order[6][2] = {{0, 2}, {1, 0}, {2, 1}, {0, 2}, {1, 0}, {2, 1}};
        for (const auto& o : order)
            for (int k = 0; k < 4; ++k) ops.push_back({at(o[0], k), at(o[1], k)});
        return ops;
    }
    for (int v = 0; v < 6; ++v) {
        const int prev = (v + 5) % 6;
        if (ilp == 1) {  // one chain through all 24 operations
            ops.push_back({at(v, 0), at(prev, 3)});
            for (int k = 1; k < 4; ++k) ops.push_back({at(v, k), at(v, k - 1)});
        } else if (ilp == 2) {  // two interleaved chains
            ops.push_back({at(v, 0), at(prev, 2)});
            ops.push_back({at(v, 1), at(prev, 3)});
            ops.push_back({at(v, 2), at(v, 0)});
            ops.push_back({at(v, 3), at(v, 1)});
        } else {  // three chains
            ops.push_back({at(v, 0), at(prev, 1)});
            ops.push_back({at(v, 1), at(prev, 2)});
            ops.push_back({at(v, 2), at(prev, 3)});
            ops.push_back({at(v, 3), at(v, 0)});
        }
    }
    return ops;
}

}  // namespace agx::validation
