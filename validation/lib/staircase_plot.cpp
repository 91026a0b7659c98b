#include "validation/lib/staircase_plot.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

#include "sim/common/errors.hpp"
#include "sim/common/output_file.hpp"
#include "validation/lib/report.hpp"

namespace agx::validation {

namespace {

constexpr double kStairW = 760, kStairH = 480, kStairLeft = 70, kStairRight = 20, kStairTop = 50,
                 kStairBottom = 60;
const char* kStairColours[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"};

std::string bytes_label(double b) {
    const char* units[] = {"B", "K", "M", "G"};
    int u = 0;
    while (b >= 1024 && u < 3) b /= 1024, ++u;
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g%s", b, units[u]);
    return buf;
}

// A round step for about `n` ticks over [0, hi].
double tick_step(double hi, int n) {
    const double raw = hi / n;
    const double p = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (m * p >= raw) return m * p;
    return 10 * p;
}

}  // namespace

void write_footprint_svg(std::ostream& out, const std::vector<FootprintSeries>& series,
                         const std::string& title, const std::string& x_label,
                         const std::string& y_label) {
    double x_lo = 1e300, x_hi = 0, y_hi = 0;
    for (const auto& s : series)
        for (const auto& p : s.points) {
            if (p.footprint_bytes <= 0) continue;
            x_lo = std::min(x_lo, p.footprint_bytes);
            x_hi = std::max(x_hi, p.footprint_bytes);
            y_hi = std::max(y_hi, p.value);
        }
    if (x_hi <= 0) x_lo = 1024, x_hi = 1 << 20;
    if (y_hi <= 0) y_hi = 1;
    const double l0 = std::floor(std::log2(x_lo)),
                 l1 = std::max(l0 + 1, std::ceil(std::log2(x_hi)));
    const double step = tick_step(y_hi * 1.1, 8);
    const double y_top = std::ceil(y_hi * 1.1 / step) * step;
    auto x = [&](double v) {
        return kStairLeft + (std::log2(v) - l0) / (l1 - l0) * (kStairW - kStairLeft - kStairRight);
    };
    auto y = [&](double v) {
        return kStairH - kStairBottom - v / y_top * (kStairH - kStairTop - kStairBottom);
    };

    out << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << kStairW << "\" height=\""
        << kStairH << "\" font-family=\"sans-serif\" font-size=\"12\">\n";
    out << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
    out << "<text x=\"" << kStairW / 2 << "\" y=\"25\" text-anchor=\"middle\" font-size=\"14\">"
        << title << "</text>\n";
    out << "<rect x=\"" << kStairLeft << "\" y=\"" << kStairTop << "\" width=\""
        << kStairW - kStairLeft - kStairRight << "\" height=\""
        << kStairH - kStairTop - kStairBottom << "\" fill=\"none\" stroke=\"black\"/>\n";
    // x: powers of two, labelled every other one; y: round steps.
    for (double e = l0; e <= l1 + 1e-9; e += 1) {
        const double v = std::pow(2.0, e);
        out << "<line x1=\"" << x(v) << "\" y1=\"" << kStairTop << "\" x2=\"" << x(v) << "\" y2=\""
            << kStairH - kStairBottom << "\" stroke=\"#eee\"/>\n";
        if (static_cast<long>(e - l0) % 2 == 0)
            out << "<text x=\"" << x(v) << "\" y=\"" << kStairH - kStairBottom + 18
                << "\" text-anchor=\"middle\">" << bytes_label(v) << "</text>\n";
    }
    for (double v = 0; v <= y_top + 1e-9; v += step) {
        out << "<line x1=\"" << kStairLeft << "\" y1=\"" << y(v) << "\" x2=\""
            << kStairW - kStairRight << "\" y2=\"" << y(v) << "\" stroke=\"#eee\"/>\n";
        out << "<text x=\"" << kStairLeft - 8 << "\" y=\"" << y(v) + 4 << "\" text-anchor=\"end\">"
            << v << "</text>\n";
    }
    out << "<text x=\"" << kStairW / 2 << "\" y=\"" << kStairH - 15 << "\" text-anchor=\"middle\">"
        << x_label << " (log scale)</text>\n";
    out << "<text x=\"18\" y=\"" << kStairH / 2
        << "\" text-anchor=\"middle\" transform=\"rotate(-90 18 " << kStairH / 2 << ")\">"
        << y_label << "</text>\n";

    double ly = kStairTop + 15;
    for (std::size_t i = 0; i < series.size(); ++i) {
        const FootprintSeries& s = series[i];
        const char* c = kStairColours[i % 6];
        std::vector<FootprintPoint> pts = s.points;
        std::sort(pts.begin(), pts.end(), [](const FootprintPoint& a, const FootprintPoint& b) {
            return a.footprint_bytes < b.footprint_bytes;
        });
        if (s.simulated && pts.size() > 1) {
            out << "<polyline fill=\"none\" stroke=\"" << c << "\" stroke-width=\"2\" points=\"";
            for (const auto& p : pts) out << x(p.footprint_bytes) << "," << y(p.value) << " ";
            out << "\"/>\n";
        }
        for (const auto& p : pts) {
            const bool filled = s.simulated || p.exact;
            out << "<circle cx=\"" << x(p.footprint_bytes) << "\" cy=\"" << y(p.value) << "\" r=\""
                << (s.simulated ? 3 : 5) << "\" fill=\"" << (filled ? c : "white") << "\" stroke=\""
                << c << "\" stroke-width=\"1.5\"/>\n";
        }
        out << "<circle cx=\"" << kStairLeft + 15 << "\" cy=\"" << ly - 4 << "\" r=\"4\" fill=\""
            << c << "\"/>\n";
        out << "<text x=\"" << kStairLeft + 25 << "\" y=\"" << ly << "\">" << s.name << "</text>\n";
        ly += 16;
    }
    out << "<text x=\"" << kStairLeft + 15 << "\" y=\"" << ly
        << "\" fill=\"#666\">hollow: approximate measured "
        << "figure (~)</text>\n";
    out << "</svg>\n";
}

std::vector<std::pair<std::string, std::string>> memory_plots(const ValidationReport& report) {
    struct Plot {
        FigureKind kind;
        const char* file;
        const char* what;
        const char* unit;
        std::map<std::string, FootprintSeries> series;  // by name, in a stable order
    };
    std::vector<Plot> plots = {
        {FigureKind::MemoryLatency, "staircase.svg", "load-to-use latency", "cycles", {}},
        {FigureKind::Bandwidth, "bandwidth.svg", "bandwidth", "GB/s", {}},
        {FigureKind::CodeSize, "code_size.svg", "FFMA32 issue rate", "% of peak", {}}};
    for (const ValidationRow& row : report.rows) {
        const Measurement& m = row.measured;
        if (!m.benchmark.memory) continue;
        for (Plot& plot : plots) {
            if (plot.kind != m.kind) continue;
            const std::string kind = memory_kind_name(m.benchmark.memory->kind);
            const double footprint = static_cast<double>(m.benchmark.memory->footprint_bytes);
            if (row.ran && row.simulated.error.empty()) {
                FootprintSeries& s = plot.series["1 " + kind + " simulated"];
                s.name = kind + " simulated";
                s.points.push_back({footprint, row.simulated.value, true});
            }
            if (m.value) {
                FootprintSeries& s = plot.series["2 " + kind + " measured"];
                s.name = kind + " measured";
                s.simulated = false;
                s.points.push_back({footprint, *m.value, m.qualifier.empty()});
            }
        }
    }
    std::vector<std::pair<std::string, std::string>> written;
    for (const Plot& plot : plots) {
        if (plot.series.empty()) continue;
        std::vector<FootprintSeries> series;
        for (const auto& [key, s] : plot.series) series.push_back(s);
        const std::string x_label = plot.kind == FigureKind::CodeSize ? "code size" : "footprint";
        std::ostringstream svg;
        write_footprint_svg(svg, series,
                            "agxsim " + report.config + ": " + plot.what + " against " + x_label +
                                ", simulated over measured",
                            x_label, std::string(plot.what) + " (" + plot.unit + ")");
        written.emplace_back(plot.file, svg.str());
    }
    return written;
}

}  // namespace agx::validation
