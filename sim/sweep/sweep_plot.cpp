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

constexpr double kW = 720, kH = 480, kLeft = 80, kRight = 200, kTop = 50, kBottom = 60;

std::string line_chart(const SweepSpec& spec, const Values& values, const std::string& metric,
                       std::size_t d, bool normalise) {
    const Axis& axis = first_axis(spec, d);
    const std::size_t n = spec.dimension_size[d];
    const std::vector<Series> series = all_series(spec);
    // y[s][i]: the metric of series s at value i, the other axes at baseline.
    std::vector<std::vector<std::optional<double>>> y(series.size(),
                                                      std::vector<std::optional<double>>(n));
    double lo = 1e300, hi = -1e300;
    for (std::size_t s = 0; s < series.size(); ++s) {
        std::vector<std::size_t> at = spec.baseline;
        const auto base = values.at(point_number(spec, series[s].workload, series[s].config, at));
        for (std::size_t i = 0; i < n; ++i) {
            at[d] = i;
            auto v = values.at(point_number(spec, series[s].workload, series[s].config, at));
            if (v && normalise)
                v = base && *base != 0 ? std::optional<double>(*v / *base) : std::nullopt;
            y[s][i] = v;
            if (v) lo = std::min(lo, *v), hi = std::max(hi, *v);
        }
    }
    if (lo > hi) lo = 0, hi = 1;
    if (lo > 0 && lo < hi * 0.5) lo = 0;  // from zero unless that flattens the lines
    if (hi == lo) hi = lo + (lo == 0 ? 1 : std::abs(lo) * 0.1), lo -= (hi - lo);
    // Ticks at round steps (1, 2 or 5 times a power of ten), the range widened to them.
    const double tick = round_tick(hi - lo);
    lo = std::floor(lo / tick) * tick;
    hi = std::ceil(hi / tick) * tick;
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
    for (double v = lo; v <= hi + tick * 1e-6; v += tick) {
        o << "<line x1=\"" << kLeft << "\" x2=\"" << kW - kRight << "\" y1=\"" << py(v)
          << "\" y2=\"" << py(v) << "\" stroke=\"#e8e8e8\"/>\n";
        o << "<text x=\"" << kLeft - 6 << "\" y=\"" << py(v) + 4 << "\" text-anchor=\"end\">"
          << fmt(v) << "</text>\n";
    }
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
        std::string path;  // a missing value lifts the pen
        bool pen_down = false;
        for (std::size_t i = 0; i < n; ++i) {
            if (!y[s][i]) {
                pen_down = false;
                continue;
            }
            path += (pen_down ? "L" : "M") + fmt(px(i)) + "," + fmt(py(*y[s][i])) + " ";
            pen_down = true;
            o << "<circle cx=\"" << px(i) << "\" cy=\"" << py(*y[s][i]) << "\" r=\"3\" fill=\""
              << colour << "\"><title>" << escape(series[s].name) << ": " << fmt(*y[s][i])
              << "</title></circle>\n";
        }
        o << "<path d=\"" << path << "\" fill=\"none\" stroke=\"" << colour
          << "\" stroke-width=\"1.5\"/>\n";
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
    for (double v = 0; v <= hi + tick * 1e-6; v += tick) {
        o << "<line x1=\"" << kBarLeft << "\" x2=\"" << kBarLeft + nw * group << "\" y1=\"" << py(v)
          << "\" y2=\"" << py(v) << "\" stroke=\"#e8e8e8\"/>\n";
        o << "<text x=\"" << kBarLeft - 6 << "\" y=\"" << py(v) + 4 << "\" text-anchor=\"end\">"
          << fmt(v) << "</text>\n";
    }
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

// White to dark blue.
std::string heat_colour(double t) {
    t = std::clamp(t, 0.0, 1.0);
    const int r = static_cast<int>(247 - t * (247 - 8)), g = static_cast<int>(251 - t * (251 - 48)),
              b = static_cast<int>(255 - t * (255 - 107));
    char buf[16];
    std::snprintf(buf, sizeof buf, "#%02x%02x%02x", r, g, b);
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
    std::ostringstream o;
    const std::string label = metric + (normalise ? " / baseline" : "");
    o << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << w << "\" height=\"" << h
      << "\" font-family=\"sans-serif\" font-size=\"11\">\n";
    o << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
    o << "<text x=\"" << w / 2 << "\" y=\"22\" text-anchor=\"middle\" font-size=\"14\">"
      << escape(spec.name + ": " + label + ", " + series.name) << "</text>\n";
    o << "<text x=\"" << w / 2 << "\" y=\"40\" text-anchor=\"middle\" fill=\"#666\">range "
      << fmt(lo) << " (light) to " << fmt(hi) << " (dark)</text>\n";
    for (std::size_t j = 0; j < ny; ++j) {
        const double y = top + (ny - 1 - j) * cell_h;
        o << "<text x=\"" << left - 6 << "\" y=\"" << y + cell_h / 2 + 4
          << "\" text-anchor=\"end\">" << escape(value_text(first_axis(spec, dy).values[j]))
          << "</text>\n";
        for (std::size_t i = 0; i < nx; ++i) {
            const double x = left + i * cell_w;
            const double t = v[j][i] && hi > lo ? (*v[j][i] - lo) / (hi - lo) : 0;
            o << "<rect x=\"" << x << "\" y=\"" << y << "\" width=\"" << cell_w << "\" height=\""
              << cell_h << "\" fill=\"" << (v[j][i] ? heat_colour(t) : "#ffffff")
              << "\" stroke=\"white\"/>\n";
            o << "<text x=\"" << x + cell_w / 2 << "\" y=\"" << y + cell_h / 2 + 4
              << "\" text-anchor=\"middle\" font-size=\"9\" fill=\""
              << (t > 0.55 ? "white" : "black") << "\">" << (v[j][i] ? fmt(*v[j][i]) : "-")
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
