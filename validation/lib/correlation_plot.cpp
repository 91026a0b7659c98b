#include "validation/lib/correlation_plot.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace agx::validation {

namespace {
constexpr double kW = 640, kH = 640, kLeft = 70, kRight = 20, kTop = 50, kBottom = 60;
const char* kColours[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"};
}  // namespace

void write_correlation_svg(std::ostream& out, const std::vector<PlotPoint>& points,
                           const std::string& title) {
    double lo = 1e300, hi = 0;
    for (const auto& p : points) {
        for (double v : {p.measured, p.simulated})
            if (v > 0) {
                lo = std::min(lo, v);
                hi = std::max(hi, v);
            }
    }
    if (hi <= 0) lo = 1, hi = 10;
    const double l0 = std::floor(std::log10(lo)), l1 = std::ceil(std::log10(hi * 1.1));
    const double span = std::max(1.0, l1 - l0);
    auto x = [&](double v) { return kLeft + (std::log10(v) - l0) / span * (kW - kLeft - kRight); };
    auto y = [&](double v) {
        return kH - kBottom - (std::log10(v) - l0) / span * (kH - kTop - kBottom);
    };
    const double vmin = std::pow(10.0, l0), vmax = std::pow(10.0, l0 + span);

    out << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << kW << "\" height=\"" << kH
        << "\" font-family=\"sans-serif\" font-size=\"12\">\n";
    out << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
    out << "<text x=\"" << kW / 2 << "\" y=\"25\" text-anchor=\"middle\" font-size=\"14\">" << title
        << "</text>\n";
    // The +-10% band and y = x.
    out << "<polygon fill=\"#e8e8e8\" points=\"" << x(vmin) << "," << y(vmin * 1.1) << " "
        << x(vmax / 1.1) << "," << y(vmax) << " " << x(vmax) << "," << y(vmax) << " " << x(vmax)
        << "," << y(vmax * 0.9) << " " << x(vmin) << "," << y(vmin * 0.9) << "\"/>\n";
    out << "<line x1=\"" << x(vmin) << "\" y1=\"" << y(vmin) << "\" x2=\"" << x(vmax) << "\" y2=\""
        << y(vmax) << "\" stroke=\"#888\"/>\n";
    // Axes with decade ticks.
    out << "<rect x=\"" << kLeft << "\" y=\"" << kTop << "\" width=\"" << kW - kLeft - kRight
        << "\" height=\"" << kH - kTop - kBottom << "\" fill=\"none\" stroke=\"black\"/>\n";
    for (double d = l0; d <= l0 + span + 1e-9; d += 1) {
        const double v = std::pow(10.0, d);
        out << "<text x=\"" << x(v) << "\" y=\"" << kH - kBottom + 18
            << "\" text-anchor=\"middle\">" << v << "</text>\n";
        out << "<text x=\"" << kLeft - 8 << "\" y=\"" << y(v) + 4 << "\" text-anchor=\"end\">" << v
            << "</text>\n";
    }
    out << "<text x=\"" << kW / 2 << "\" y=\"" << kH - 15
        << "\" text-anchor=\"middle\">measured (cycles)</text>\n";
    out << "<text x=\"18\" y=\"" << kH / 2 << "\" text-anchor=\"middle\" transform=\"rotate(-90 18 "
        << kH / 2 << ")\">simulated (cycles)</text>\n";

    std::map<std::string, const char*> colour;
    for (const auto& p : points)
        if (!colour.count(p.series)) colour[p.series] = kColours[colour.size() % 6];
    for (const auto& p : points) {
        if (p.measured <= 0 || p.simulated <= 0) continue;
        out << "<circle cx=\"" << x(p.measured) << "\" cy=\"" << y(p.simulated)
            << "\" r=\"3\" fill=\"" << colour[p.series] << "\" fill-opacity=\"0.7\"/>\n";
    }
    double ly = kTop + 15;
    for (const auto& [name, c] : colour) {
        out << "<circle cx=\"" << kLeft + 15 << "\" cy=\"" << ly - 4 << "\" r=\"4\" fill=\"" << c
            << "\"/>\n";
        out << "<text x=\"" << kLeft + 25 << "\" y=\"" << ly << "\">" << name << "</text>\n";
        ly += 16;
    }
    out << "<text x=\"" << kLeft + 15 << "\" y=\"" << ly
        << "\" fill=\"#666\">grey band: within 10%</text>\n";
    out << "</svg>\n";
}

}  // namespace agx::validation
