#include "sim/stats/cpi_stack_svg.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <vector>

#include "sim/timing/stall_cause.hpp"

namespace agx {

namespace {

// kRight holds the longest figure printed after a bar ("no issue", "12.34").
constexpr double kW = 900, kLeft = 150, kRight = 70, kTop = 50, kBar = 18, kGap = 6;
// The issue segment first, then one colour per stall cause in list order.
const char* kColours[] = {"#2ca02c", "#c7c7c7", "#17becf", "#1f77b4", "#aec7e8", "#ff7f0e",
                          "#ffbb78", "#9467bd", "#8c564b", "#d62728", "#e377c2", "#bcbd22"};

struct Bar {
    std::string label;
    std::uint64_t issued = 0;
    std::array<std::uint64_t, kStallCauseCount> stalls{};
    bool bold = false;
    void add(const Bar& b) {
        issued += b.issued;
        for (std::size_t k = 0; k < kStallCauseCount; ++k) stalls[k] += b.stalls[k];
    }
};

}  // namespace

void write_cpi_stack_svg(std::ostream& out, const nlohmann::json& stats, const std::string& title) {
    // The chip's bar, then each core's; a single core's schedulers follow it
    // (a chip's would be hundreds of bars).
    std::vector<Bar> cores, schedulers;
    Bar chip;
    chip.bold = true;
    const auto& gpu = stats.at("gpu");
    for (unsigned c = 0; gpu.contains("core_" + std::to_string(c)); ++c) {
        const auto& core = gpu.at("core_" + std::to_string(c));
        Bar total;
        total.label = "core " + std::to_string(c);
        for (unsigned s = 0; core.contains("scheduler_" + std::to_string(s)); ++s) {
            const auto& sc = core.at("scheduler_" + std::to_string(s));
            Bar b;
            b.label = "  scheduler " + std::to_string(s);
            b.issued = sc.value("issued", std::uint64_t{0});
            for (std::size_t k = 0; k < kStallCauseCount; ++k)
                b.stalls[k] =
                    sc.at("stall_cycles")
                        .value(stall_cause_name(static_cast<StallCause>(k)), std::uint64_t{0});
            total.add(b);
            if (c == 0) schedulers.push_back(b);
        }
        chip.add(total);
        cores.push_back(total);
    }
    chip.label =
        "chip (" + std::to_string(cores.size()) + (cores.size() == 1 ? " core)" : " cores)");
    std::vector<Bar> bars{chip};
    for (const Bar& b : cores) bars.push_back(b);
    if (cores.size() == 1)
        for (const Bar& b : schedulers) bars.push_back(b);
    // Cycles per instruction of each bar: its scheduler-cycles over its issues.
    auto cycles = [](const Bar& b) {
        std::uint64_t t = b.issued;
        for (auto v : b.stalls) t += v;
        return t;
    };
    double cpi_max = 0;
    for (const Bar& b : bars)
        if (b.issued)
            cpi_max =
                std::max(cpi_max, static_cast<double>(cycles(b)) / static_cast<double>(b.issued));
    if (cpi_max <= 0) cpi_max = 1;
    const double legend_h = 20.0 * ((kStallCauseCount + 1 + 3) / 4);
    const double h = kTop + static_cast<double>(bars.size()) * (kBar + kGap) + 40 + legend_h;
    const double plot_w = kW - kLeft - kRight;

    out << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << kW << "\" height=\"" << h
        << "\" font-family=\"sans-serif\" font-size=\"12\">\n"
        << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
        << "<text x=\"" << kW / 2 << "\" y=\"25\" text-anchor=\"middle\" font-size=\"14\">" << title
        << "</text>\n";
    double y = kTop;
    for (const Bar& b : bars) {
        const double per = b.issued ? 1.0 / static_cast<double>(b.issued) : 0.0;
        out << "<text x=\"" << kLeft - 8 << "\" y=\"" << y + kBar * 0.7 << "\" text-anchor=\"end\""
            << (b.bold ? " font-weight=\"bold\"" : "") << ">" << b.label << "</text>\n";
        double x = kLeft;
        auto segment = [&](std::uint64_t v, const char* colour, const char* name) {
            if (!v || !b.issued) return;
            const double w = static_cast<double>(v) * per / cpi_max * plot_w;
            char tip[96];
            std::snprintf(tip, sizeof tip, "%s: %.3f cycles per instruction", name,
                          static_cast<double>(v) * per);
            out << "<rect x=\"" << x << "\" y=\"" << y << "\" width=\"" << w << "\" height=\""
                << kBar << "\" fill=\"" << colour << "\"><title>" << tip << "</title></rect>\n";
            x += w;
        };
        segment(b.issued, kColours[0], "issue");
        for (std::size_t k = 0; k < kStallCauseCount; ++k)
            segment(b.stalls[k], kColours[1 + k], stall_cause_name(static_cast<StallCause>(k)));
        if (b.issued) {
            char cpi[32];
            std::snprintf(cpi, sizeof cpi, "%.2f", static_cast<double>(cycles(b)) * per);
            out << "<text x=\"" << x + 4 << "\" y=\"" << y + kBar * 0.7 << "\">" << cpi
                << "</text>\n";
        } else {
            out << "<text x=\"" << x + 4 << "\" y=\"" << y + kBar * 0.7 << "\">no issue</text>\n";
        }
        y += kBar + kGap;
    }
    out << "<text x=\"" << kLeft + plot_w / 2 << "\" y=\"" << y + 14
        << "\" text-anchor=\"middle\">cycles per SIMD-instruction, per scheduler (issue = 1 per "
           "instruction; a chip's or core's bar: its schedulers together)</text>\n";
    y += 34;
    for (std::size_t k = 0; k <= kStallCauseCount; ++k) {
        const double lx = kLeft + static_cast<double>(k % 4) * (plot_w / 4);
        const double ly = y + static_cast<double>(k / 4) * 20;
        out << "<rect x=\"" << lx << "\" y=\"" << ly << "\" width=\"12\" height=\"12\" fill=\""
            << kColours[k] << "\"/>\n<text x=\"" << lx + 18 << "\" y=\"" << ly + 10 << "\">"
            << (k == 0 ? "issue" : stall_cause_name(static_cast<StallCause>(k - 1))) << "</text>\n";
    }
    out << "</svg>\n";
}

}  // namespace agx
