// Memory figures against footprint, as SVG (no plotting library): the
// pointer-chase staircase (latency against footprint, log x axis, simulated
// over measured), and the same kind of plot for bandwidth and code size.
#pragma once

#include <ostream>
#include <string>
#include <utility>
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

// The memory plots of a report, as (file name, SVG text): staircase.svg
// (memory_latency rows), bandwidth.svg (bandwidth rows) and code_size.svg
// (code_size rows), each only when the report has such rows.
std::vector<std::pair<std::string, std::string>> memory_plots(const ValidationReport& report);

}  // namespace agx::validation
