// Memory figures against footprint, as SVG (no plotting library): the
// pointer-chase staircase (latency against footprint, log x axis, simulated
// over measured), and the same kind of plot for bandwidth and code size.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace agx::validation {

struct ValidationReport;

struct FootprintPoint {
    double footprint_bytes;
    double value;
    bool exact = true;  // measured points: exact (filled) or approximate (hollow)
};

struct FootprintSeries {
    std::string name;
    bool simulated = true;  // simulated: a line through the points; measured: markers only
    std::vector<FootprintPoint> points;
};

void write_footprint_svg(std::ostream& out, const std::vector<FootprintSeries>& series,
                         const std::string& title, const std::string& x_label,
                         const std::string& y_label);

// Writes DIR/staircase.svg (memory_latency rows), DIR/bandwidth.svg
// (bandwidth rows) and DIR/code_size.svg (code_size rows), each only when the
// report has such rows. Returns the files written.
std::vector<std::string> write_memory_plots(const std::string& dir, const ValidationReport& report);

}  // namespace agx::validation
