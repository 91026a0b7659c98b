// A block that publishes statistics. Collection walks the SystemC object tree
// (stats_tree.cpp) and asks every StatsSource for its counters, so the JSON
// mirrors the chip's hierarchy without any registry to keep in sync; each
// block declares its statistics where it reports them (stats.hpp).
#pragma once

#include "sim/model/stats.hpp"

namespace agx {

class StatsSource {
  public:
    virtual ~StatsSource() = default;
    // Declares and writes this block's statistics (into an object named
    // after the block).
    virtual void report_stats(StatsWriter& out) const = 0;
};

}  // namespace agx
