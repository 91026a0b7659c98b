// A block that publishes statistics. Collection walks the SystemC object tree
// (stats_tree.cpp) and asks every StatsSource for its counters, so the JSON
// mirrors the chip's hierarchy without any registry to keep in sync.
#pragma once

#include <nlohmann/json.hpp>

namespace agx {

class StatsSource {
  public:
    virtual ~StatsSource() = default;
    // Adds this block's counters to `out` (an object named after the block).
    virtual void report_stats(nlohmann::json& out) const = 0;
};

}  // namespace agx
