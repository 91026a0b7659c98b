#include "sim/sweep/sweep_plot.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>
#include <sstream>

#include "sim/common/errors.hpp"
#include "sim/common/output_file.hpp"
#include "sim/sweep/sweep_dir.hpp"

namespace agx::sweep {

namespace {

namespace fs = std::filesystem;
const char* kColours[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e",
                          "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};
constexpr std::size_t kColourCount = sizeof kColours / sizeof kColours[0];

std::string fmt(double v) {
    char buf[32];
    if (v != 0 && (std::abs(v) >= 1e6 || std::abs(v) < 1e-3))
        std::snprintf(buf, sizeof buf, "%.3g", v);
    else
        std::snprintf(buf, sizeof buf, "%.4g", v);
    return buf;
}

std::string escape(const std::string& s) {
    std::string o;
    for (char c : s) {
        if (c == '<')
            o += "&lt;";
        else if (c == '>')
            o += "&gt;";
        else if (c == '&')
            o += "&amp;";
        else
            o += c;
    }
    return o;
}

std::string file_part(const std::string& s) {
    std::string o;
    for (char c : s)
        o += std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' ? c : '_';
    return o;
}

// The results by point number, as numbers of one metric.
struct Values {
    std::map<std::size_t, double> by_point;
    std::optional<double> at(std::size_t point) const {
        const auto it = by_point.find(point);
        if (it == by_point.end()) return std::nullopt;
        return it->second;
    }
};

Values metric_values(const ResultsTable& t, const std::string& metric) {
    return Values{metric_by_point(t, metric)};
}

// A point's number from its coordinates.
std::size_t point_number(const SweepSpec& spec, std::size_t workload, std::size_t config,
                         const std::vector<std::size_t>& value_index) {
    std::size_t n = workload * spec.configs.size() + config;
    for (std::size_t d = 0; d < spec.dimensions; ++d)
        n = n * spec.dimension_size[d] + value_index[d];
    return n;
}

std::string dimension_label(const SweepSpec& spec, std::size_t d) {
    std::string keys;
    for (const Axis& a : spec.axes)
        if (a.dimension == d) keys += (keys.empty() ? "" : " + ") + a.key;
    return keys;
}

const Axis& first_axis(const SweepSpec& spec, std::size_t d) {
    for (const Axis& a : spec.axes)
        if (a.dimension == d) return a;
    throw std::logic_error("a dimension without an axis");
}

struct Series {
    std::string name;
    std::size_t workload, config;
};

std::vector<Series> all_series(const SweepSpec& spec) {
    std::vector<Series> s;
    for (std::size_t w = 0; w < spec.workloads.size(); ++w)
        for (std::size_t c = 0; c < spec.configs.size(); ++c)
            s.push_back(
                {spec.workloads[w].name +
                     (spec.configs.size() > 1 ? " on " + config_label(spec.configs[c]) : ""),
                 w, c});
    return s;
}

void write_file(const std::string& path, const std::string& text) {
    write_file_atomically(path, text);
}

// A round tick step for about five ticks over [0, hi].
double round_tick(double hi) {
    const double raw = hi / 5, mag = std::pow(10.0, std::floor(std::log10(raw)));
    return raw / mag < 1.5 ? mag : raw / mag < 3.5 ? 2 * mag : raw / mag < 7.5 ? 5 * mag : 10 * mag;
}

constexpr double kW = 800, kH = 480, kLeft = 80, kRight = 260, kTop = 50, kBottom = 60;

// One series as a line through its points, each point a dot titled with
// its value; a missing value lifts the pen.
template <class PX, class PY>
void draw_series(std::ostringstream& o, const std::vector<std::optional<double>>& y, PX px, PY py,
                 const char* colour, const std::string& name, double radius) {
    std::string path;
    bool pen_down = false;
    for (std::size_t i = 0; i < y.size(); ++i) {
        if (!y[i]) {
            pen_down = false;
            continue;
        }
        path += (pen_down ? "L" : "M") + fmt(px(i)) + "," + fmt(py(*y[i])) + " ";
        pen_down = true;
        o << "<circle cx=\"" << px(i) << "\" cy=\"" << py(*y[i]) << "\" r=\"" << radius
          << "\" fill=\"" << colour << "\"><title>" << escape(name) << ": " << fmt(*y[i])
          << "</title></circle>\n";
    }
    o << "<path d=\"" << path << "\" fill=\"none\" stroke=\"" << colour
      << "\" stroke-width=\"1.5\"/>\n";
}

// Horizontal grid lines at each tick from lo to hi between x0 and x1, each
// labelled at the left.
template <class PY>
void draw_y_grid(std::ostringstream& o, double lo, double hi, double tick, double x0, double x1,
                 PY py, const char* stroke) {
    for (double v = lo; v <= hi + tick * 1e-6; v += tick) {
        o << "<line x1=\"" << x0 << "\" x2=\"" << x1 << "\" y1=\"" << py(v) << "\" y2=\"" << py(v)
          << "\" stroke=\"" << stroke << "\"/>\n";
        o << "<text x=\"" << x0 - 6 << "\" y=\"" << py(v) + 4 << "\" text-anchor=\"end\">" << fmt(v)
          << "</text>\n";
    }
}

// Every series' metric along dimension d, the other axes at the baseline
// (y[s][i]: series s at value i), and the y range the charts draw: from zero
// (so that a line's height is its size: a 0.4% change stays a 0.4% change,
// not the chart's whole height), widened to round ticks.
struct LineData {
    std::vector<Series> series;
    std::vector<std::vector<std::optional<double>>> y;
    double lo = 0, hi = 1, tick = 0.2;
};

LineData line_data(const SweepSpec& spec, const Values& values, std::size_t d, bool normalise) {
    LineData L;
    const std::size_t n = spec.dimension_size[d];
    L.series = all_series(spec);
    L.y.assign(L.series.size(), std::vector<std::optional<double>>(n));
    double lo = 1e300, hi = -1e300;
    for (std::size_t s = 0; s < L.series.size(); ++s) {
        std::vector<std::size_t> at = spec.baseline;
        const auto base =
            values.at(point_number(spec, L.series[s].workload, L.series[s].config, at));
        for (std::size_t i = 0; i < n; ++i) {
            at[d] = i;
            auto v = values.at(point_number(spec, L.series[s].workload, L.series[s].config, at));
            if (v && normalise)
                v = base && *base != 0 ? std::optional<double>(*v / *base) : std::nullopt;
            L.y[s][i] = v;
            if (v) lo = std::min(lo, *v), hi = std::max(hi, *v);
        }
    }
    if (lo > hi) lo = 0, hi = 1;
    if (lo > 0) lo = 0;
    if (hi == lo) hi = lo + 1;
    // Ticks at round steps (1, 2 or 5 times a power of ten), the range widened to them.
    L.tick = round_tick(hi - lo);
    L.lo = std::floor(lo / L.tick) * L.tick;
    L.hi = std::ceil(hi / L.tick) * L.tick;
    return L;
}

// The most series one chart draws; more are faceted, a panel per workload.
constexpr std::size_t kMostSeries = 8;

// Small multiples: a panel per workload on one y scale, a line per config
// in the config's colour, one legend of the configs.
std::string faceted_line_chart(const SweepSpec& spec, const LineData& L, const std::string& metric,
                               std::size_t d, bool normalise) {
    const Axis& axis = first_axis(spec, d);
    const std::size_t n = spec.dimension_size[d], nw = spec.workloads.size(),
                      nc = spec.configs.size();
    const std::size_t cols = std::min<std::size_t>(4, nw), rows = (nw + cols - 1) / cols;
    constexpr double kPanelW = 240, kPanelH = 170, kPadL = 60, kPadT = 30, kPadB = 34, kTopRow = 60;
    const double width = cols * (kPanelW + kPadL) + 20 + (nc > 1 ? 140 : 0);
    const double height = kTopRow + rows * (kPanelH + kPadT + kPadB) + 30;
    const std::string ylabel = metric + (normalise ? " / baseline" : "");
    std::ostringstream o;
    o << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
      << "\" font-family=\"sans-serif\" font-size=\"11\">\n";
    o << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
    o << "<text x=\"20\" y=\"25\" font-size=\"14\">"
      << escape(spec.name + ": " + ylabel + " against " + dimension_label(spec, d) +
                " (a panel per workload; dotted: baseline)")
      << "</text>\n";
    for (std::size_t w = 0; w < nw; ++w) {
        const double x0 = kPadL + (w % cols) * (kPanelW + kPadL),
                     y0 = kTopRow + (w / cols) * (kPanelH + kPadT + kPadB) + kPadT;
        auto px = [&](std::size_t i) {
            return x0 + (n == 1 ? 0.5 : static_cast<double>(i) / (n - 1)) * kPanelW;
        };
        auto py = [&](double v) { return y0 + kPanelH - (v - L.lo) / (L.hi - L.lo) * kPanelH; };
        o << "<text x=\"" << x0 << "\" y=\"" << y0 - 8 << "\" font-weight=\"bold\">"
          << escape(spec.workloads[w].name) << "</text>\n";
        o << "<rect x=\"" << x0 << "\" y=\"" << y0 << "\" width=\"" << kPanelW << "\" height=\""
          << kPanelH << "\" fill=\"none\" stroke=\"#999\"/>\n";
        draw_y_grid(o, L.lo, L.hi, L.tick, x0, x0 + kPanelW, py, "#eee");
        o << "<line x1=\"" << px(spec.baseline[d]) << "\" x2=\"" << px(spec.baseline[d])
          << "\" y1=\"" << y0 << "\" y2=\"" << y0 + kPanelH
          << "\" stroke=\"#bbb\" stroke-dasharray=\"2 3\"/>\n";
        for (std::size_t i : {std::size_t{0}, n - 1})
            o << "<text x=\"" << px(i) << "\" y=\"" << y0 + kPanelH + 14
              << "\" text-anchor=\"middle\">" << escape(value_text(axis.values[i])) << "</text>\n";
        for (std::size_t s = 0; s < L.series.size(); ++s) {
            if (L.series[s].workload != w) continue;
            draw_series(o, L.y[s], px, py, kColours[L.series[s].config % kColourCount],
                        L.series[s].name, 2);
        }
    }
    o << "<text x=\"" << width / 2 << "\" y=\"" << height - 10 << "\" text-anchor=\"middle\">"
      << escape(dimension_label(spec, d)) << "; y: " << escape(ylabel) << "</text>\n";
    if (nc > 1)
        for (std::size_t c = 0; c < nc; ++c) {
            const double lx = cols * (kPanelW + kPadL) + 30, ly = kTopRow + 10 + 16 * c;
            o << "<line x1=\"" << lx << "\" x2=\"" << lx + 20 << "\" y1=\"" << ly - 4 << "\" y2=\""
              << ly - 4 << "\" stroke=\"" << kColours[c % kColourCount]
              << "\" stroke-width=\"2\"/>\n<text x=\"" << lx + 26 << "\" y=\"" << ly << "\">"
              << escape(config_label(spec.configs[c])) << "</text>\n";
        }
    o << "</svg>\n";
    return o.str();
}

std::string line_chart(const SweepSpec& spec, const Values& values, const std::string& metric,
                       std::size_t d, bool normalise) {
    const Axis& axis = first_axis(spec, d);
    const std::size_t n = spec.dimension_size[d];
    const LineData L = line_data(spec, values, d, normalise);
    if (L.series.size() > kMostSeries && spec.workloads.size() > 1)
        return faceted_line_chart(spec, L, metric, d, normalise);
    const std::vector<Series>& series = L.series;
    const auto& y = L.y;
    const double lo = L.lo, hi = L.hi, tick = L.tick;
    auto px = [&](std::size_t i) {
        return kLeft + (n == 1 ? 0.5 : static_cast<double>(i) / (n - 1)) * (kW - kLeft - kRight);
    };
    auto py = [&](double v) { return kH - kBottom - (v - lo) / (hi - lo) * (kH - kTop - kBottom); };

    std::ostringstream o;
    const std::string ylabel = metric + (normalise ? " / baseline" : "");
    o << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << kW << "\" height=\"" << kH
      << "\" font-family=\"sans-serif\" font-size=\"12\">\n";
    o << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
    o << "<text x=\"" << kLeft << "\" y=\"25\" font-size=\"14\">"
      << escape(spec.name + ": " + ylabel + " against " + dimension_label(spec, d)) << "</text>\n";
    o << "<rect x=\"" << kLeft << "\" y=\"" << kTop << "\" width=\"" << kW - kLeft - kRight
      << "\" height=\"" << kH - kTop - kBottom << "\" fill=\"none\" stroke=\"black\"/>\n";
    draw_y_grid(o, lo, hi, tick, kLeft, kW - kRight, py, "#e8e8e8");
    if (normalise && lo < 1 && hi > 1)
        o << "<line x1=\"" << kLeft << "\" x2=\"" << kW - kRight << "\" y1=\"" << py(1)
          << "\" y2=\"" << py(1) << "\" stroke=\"#888\" stroke-dasharray=\"4 3\"/>\n";
    const std::size_t label_every = std::max<std::size_t>(1, (n + 11) / 12);
    for (std::size_t i = 0; i < n; i += label_every)
        o << "<text x=\"" << px(i) << "\" y=\"" << kH - kBottom + 18 << "\" text-anchor=\"middle\">"
          << escape(value_text(axis.values[i])) << "</text>\n";
    o << "<line x1=\"" << px(spec.baseline[d]) << "\" x2=\"" << px(spec.baseline[d]) << "\" y1=\""
      << kTop << "\" y2=\"" << kH - kBottom << "\" stroke=\"#bbb\" stroke-dasharray=\"2 3\"/>\n";
    o << "<text x=\"" << (kW - kRight + kLeft) / 2 << "\" y=\"" << kH - 15
      << "\" text-anchor=\"middle\">" << escape(dimension_label(spec, d))
      << " (dotted: baseline)</text>\n";
    o << "<text x=\"18\" y=\"" << kH / 2 << "\" text-anchor=\"middle\" transform=\"rotate(-90 18 "
      << kH / 2 << ")\">" << escape(ylabel) << "</text>\n";
    for (std::size_t s = 0; s < series.size(); ++s) {
        const char* colour = kColours[s % kColourCount];
        draw_series(o, y[s], px, py, colour, series[s].name, 3);
        const double ly = kTop + 10 + 16 * s;
        o << "<line x1=\"" << kW - kRight + 15 << "\" x2=\"" << kW - kRight + 35 << "\" y1=\""
          << ly - 4 << "\" y2=\"" << ly - 4 << "\" stroke=\"" << colour
          << "\" stroke-width=\"2\"/>\n";
        o << "<text x=\"" << kW - kRight + 40 << "\" y=\"" << ly << "\">" << escape(series[s].name)
          << "</text>\n";
    }
    o << "</svg>\n";
    return o.str();
}

// The configs side by side: for each workload a group of bars, one per
// config (a colour each), the axes at the baseline; the y axis from zero.
// Normalised, each workload's bars are divided by its first config's.
std::string config_bars(const SweepSpec& spec, const Values& values, const std::string& metric,
                        bool normalise) {
    const std::size_t nw = spec.workloads.size(), nc = spec.configs.size();
    constexpr double kBar = 14, kGap = 18, kBarTop = 50, kBarBottom = 150, kBarLeft = 110,
                     kLegend = 150, kHeight = 500;
    const double group = nc * kBar + kGap;
    const double width = kBarLeft + nw * group + kLegend;
    std::vector<std::vector<std::optional<double>>> y(nw, std::vector<std::optional<double>>(nc));
    double hi = 0;
    for (std::size_t w = 0; w < nw; ++w) {
        const auto base = values.at(point_number(spec, w, 0, spec.baseline));
        for (std::size_t c = 0; c < nc; ++c) {
            auto v = values.at(point_number(spec, w, c, spec.baseline));
            if (v && normalise)
                v = base && *base != 0 ? std::optional<double>(*v / *base) : std::nullopt;
            y[w][c] = v;
            if (v) hi = std::max(hi, *v);
        }
    }
    if (hi <= 0) hi = 1;
    const double tick = round_tick(hi);
    hi = std::ceil(hi / tick) * tick;
    auto py = [&](double v) {
        return kHeight - kBarBottom - v / hi * (kHeight - kBarTop - kBarBottom);
    };

    std::ostringstream o;
    const std::string ylabel =
        metric + (normalise ? " / " + config_label(spec.configs.front()) + "'s" : "");
    o << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << kHeight
      << "\" font-family=\"sans-serif\" font-size=\"12\">\n";
    o << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
    o << "<text x=\"" << kBarLeft << "\" y=\"25\" font-size=\"14\">"
      << escape(spec.name + ": " + ylabel + " by config") << "</text>\n";
    draw_y_grid(o, 0, hi, tick, kBarLeft, kBarLeft + nw * group, py, "#e8e8e8");
    if (normalise && hi > 1)
        o << "<line x1=\"" << kBarLeft << "\" x2=\"" << kBarLeft + nw * group << "\" y1=\"" << py(1)
          << "\" y2=\"" << py(1) << "\" stroke=\"#888\" stroke-dasharray=\"4 3\"/>\n";
    o << "<text x=\"18\" y=\"" << kHeight / 2
      << "\" text-anchor=\"middle\" transform=\"rotate(-90 18 " << kHeight / 2 << ")\">"
      << escape(ylabel) << "</text>\n";
    for (std::size_t w = 0; w < nw; ++w) {
        const double x0 = kBarLeft + w * group + kGap / 2;
        for (std::size_t c = 0; c < nc; ++c) {
            if (!y[w][c]) continue;
            o << "<rect x=\"" << x0 + c * kBar << "\" y=\"" << py(*y[w][c]) << "\" width=\""
              << kBar - 1 << "\" height=\"" << py(0) - py(*y[w][c]) << "\" fill=\""
              << kColours[c % kColourCount] << "\"><title>" << escape(spec.workloads[w].name)
              << " on " << escape(config_label(spec.configs[c])) << ": " << fmt(*y[w][c])
              << "</title></rect>\n";
        }
        const double lx = x0 + nc * kBar / 2, ly = kHeight - kBarBottom + 14;
        o << "<text x=\"" << lx << "\" y=\"" << ly
          << "\" text-anchor=\"end\" transform=\"rotate(-40 " << lx << " " << ly << ")\">"
          << escape(spec.workloads[w].name) << "</text>\n";
    }
    o << "<line x1=\"" << kBarLeft << "\" x2=\"" << kBarLeft + nw * group << "\" y1=\"" << py(0)
      << "\" y2=\"" << py(0) << "\" stroke=\"black\"/>\n";
    for (std::size_t c = 0; c < nc; ++c) {
        const double lx = kBarLeft + nw * group + 15, ly = kBarTop + 10 + 16 * c;
        o << "<rect x=\"" << lx << "\" y=\"" << ly - 10 << "\" width=\"12\" height=\"12\" fill=\""
          << kColours[c % kColourCount] << "\"/>\n";
        o << "<text x=\"" << lx + 18 << "\" y=\"" << ly << "\">"
          << escape(config_label(spec.configs[c])) << "</text>\n";
    }
    o << "</svg>\n";
    return o.str();
}

// A diverging scale: -1 dark blue, 0 white, +1 dark red (ColorBrewer's
// RdBu ends), so that the baseline is white and the sign of a change is
// its hue.
std::string diverging_colour(double t) {
    t = std::clamp(t, -1.0, 1.0);
    const double from[3] = {255, 255, 255};
    const double to[3] = {t < 0 ? 33.0 : 178.0, t < 0 ? 102.0 : 24.0, t < 0 ? 172.0 : 43.0};
    const double a = std::abs(t);
    char buf[16];
    std::snprintf(buf, sizeof buf, "#%02x%02x%02x",
                  static_cast<int>(from[0] + a * (to[0] - from[0])),
                  static_cast<int>(from[1] + a * (to[1] - from[1])),
                  static_cast<int>(from[2] + a * (to[2] - from[2])));
    return buf;
}

std::string heatmap(const SweepSpec& spec, const Values& values, const std::string& metric,
                    const Series& series, std::size_t dx, std::size_t dy, bool normalise) {
    const std::size_t nx = spec.dimension_size[dx], ny = spec.dimension_size[dy];
    const double cell_w = std::max(28.0, std::min(70.0, 560.0 / nx)),
                 cell_h = std::max(18.0, std::min(40.0, 400.0 / ny));
    const double left = 110, top = 60, w = std::max(460.0, left + nx * cell_w + 30),
                 h = top + ny * cell_h + 60;
    std::vector<std::size_t> at = spec.baseline;
    const auto base = values.at(point_number(spec, series.workload, series.config, at));
    std::vector<std::vector<std::optional<double>>> v(ny, std::vector<std::optional<double>>(nx));
    double lo = 1e300, hi = -1e300;
    for (std::size_t j = 0; j < ny; ++j)
        for (std::size_t i = 0; i < nx; ++i) {
            at[dx] = i;
            at[dy] = j;
            auto x = values.at(point_number(spec, series.workload, series.config, at));
            if (x && normalise)
                x = base && *base != 0 ? std::optional<double>(*x / *base) : std::nullopt;
            v[j][i] = x;
            if (x) lo = std::min(lo, *x), hi = std::max(hi, *x);
        }
    // Centred on the baseline point's value: white there, the scale as far
    // either way as the farthest cell.
    const double centre = normalise ? 1.0 : base.value_or(lo <= hi ? (lo + hi) / 2 : 0.0);
    const double reach =
        lo <= hi ? std::max({std::abs(hi - centre), std::abs(lo - centre), 1e-12}) : 1.0;
    std::ostringstream o;
    const std::string label = metric + (normalise ? " / baseline" : "");
    o << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << w << "\" height=\"" << h
      << "\" font-family=\"sans-serif\" font-size=\"11\">\n";
    o << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
    o << "<text x=\"" << w / 2 << "\" y=\"22\" text-anchor=\"middle\" font-size=\"14\">"
      << escape(spec.name + ": " + label + ", " + series.name) << "</text>\n";
    o << "<text x=\"" << w / 2
      << "\" y=\"40\" text-anchor=\"middle\" fill=\"#666\">white: the "
         "baseline's "
      << fmt(centre) << "; blue below, to " << fmt(centre - reach) << "; red above, to "
      << fmt(centre + reach) << "</text>\n";
    for (std::size_t j = 0; j < ny; ++j) {
        const double y = top + (ny - 1 - j) * cell_h;
        o << "<text x=\"" << left - 6 << "\" y=\"" << y + cell_h / 2 + 4
          << "\" text-anchor=\"end\">" << escape(value_text(first_axis(spec, dy).values[j]))
          << "</text>\n";
        for (std::size_t i = 0; i < nx; ++i) {
            const double x = left + i * cell_w;
            const double t = v[j][i] ? (*v[j][i] - centre) / reach : 0;
            o << "<rect x=\"" << x << "\" y=\"" << y << "\" width=\"" << cell_w << "\" height=\""
              << cell_h << "\" fill=\"" << (v[j][i] ? diverging_colour(t) : "#f0f0f0")
              << "\" stroke=\""
              << (j == spec.baseline[dy] && i == spec.baseline[dx] ? "black" : "white") << "\"/>\n";
            o << "<text x=\"" << x + cell_w / 2 << "\" y=\"" << y + cell_h / 2 + 4
              << "\" text-anchor=\"middle\" font-size=\"9\" fill=\""
              << (std::abs(t) > 0.6 ? "white" : "black") << "\">" << (v[j][i] ? fmt(*v[j][i]) : "-")
              << "</text>\n";
        }
    }
    for (std::size_t i = 0; i < nx; ++i)
        o << "<text x=\"" << left + i * cell_w + cell_w / 2 << "\" y=\"" << top + ny * cell_h + 16
          << "\" text-anchor=\"middle\">" << escape(value_text(first_axis(spec, dx).values[i]))
          << "</text>\n";
    o << "<text x=\"" << left + nx * cell_w / 2 << "\" y=\"" << h - 12
      << "\" text-anchor=\"middle\">" << escape(dimension_label(spec, dx)) << "</text>\n";
    o << "<text x=\"16\" y=\"" << top + ny * cell_h / 2
      << "\" text-anchor=\"middle\" transform=\"rotate(-90 16 " << top + ny * cell_h / 2 << ")\">"
      << escape(dimension_label(spec, dy)) << "</text>\n";
    o << "</svg>\n";
    return o.str();
}

}  // namespace

std::vector<std::string> write_sweep_plots(const SweepSpec& spec, const ResultsTable& results,
                                           const PlotOptions& options) {
    std::error_code ec;
    fs::create_directories(options.out_dir, ec);
    if (ec) throw InputError(options.out_dir, "cannot create: " + ec.message());
    std::vector<std::string> written;
    for (const std::string& metric : options.metrics) {
        const Values values = metric_values(results, metric);
        const std::string m = file_part(metric) + (options.normalise ? "-normalised" : "");
        if (spec.configs.size() > 1) {
            const std::string path = options.out_dir + "/" + m + "-by-config.svg";
            write_file(path, config_bars(spec, values, metric, options.normalise));
            written.push_back(path);
        }
        for (std::size_t d = 0; d < spec.dimensions; ++d) {
            const std::string path =
                options.out_dir + "/" + m + "-vs-" + file_part(first_axis(spec, d).key) + ".svg";
            write_file(path, line_chart(spec, values, metric, d, options.normalise));
            written.push_back(path);
        }
        for (std::size_t dx = 0; dx < spec.dimensions; ++dx)
            for (std::size_t dy = dx + 1; dy < spec.dimensions; ++dy)
                for (const Series& s : all_series(spec)) {
                    const std::string path = options.out_dir + "/" + m + "-" +
                                             file_part(first_axis(spec, dx).key) + "-x-" +
                                             file_part(first_axis(spec, dy).key) + "-" +
                                             file_part(s.name) + ".svg";
                    write_file(path, heatmap(spec, values, metric, s, dx, dy, options.normalise));
                    written.push_back(path);
                }
    }
    return written;
}

}  // namespace agx::sweep
