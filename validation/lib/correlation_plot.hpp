// The correlation plot simulator users know from Accel-Sim's correlator:
// simulated against measured on log-log axes, the y = x line and a +-10%
// band, one colour per kind of figure. Written as SVG (no plotting library).
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace agx::validation {

struct PlotPoint {
    double measured;
    double simulated;
    std::string series;  // legend entry
};

void write_correlation_svg(std::ostream& out, const std::vector<PlotPoint>& points,
                           const std::string& title);

}  // namespace agx::validation
