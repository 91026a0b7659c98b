// The dependency pattern of the ilp_occupancy.csv kernel (OperandShape::
// Vec4Groups): one group of 24 scalar operations over six 4-wide vectors,
// shared by the simulator's workload and the probe's kernel generator so
// both run the same kernel.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace agx::validation {

// (destination = own value, other source) per operation of a group; scalar k
// of vector v is 4 * v + k. `ilp` 1, 2 or 3 chains through the components,
// 4 (or more) whole-vector operations over three vectors.
std::vector<std::pair<int, int>> vec4_group(std::uint32_t ilp);

}  // namespace agx::validation
