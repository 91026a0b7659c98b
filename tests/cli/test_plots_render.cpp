// Every kind of picture agxsim draws renders to PNG at its own size, with
// nothing written past its right edge: a sweep with many series (faceted, a
// panel per workload), a heatmap (a diverging scale centred on the
// baseline), the bar chart by config, and the CPI stack of a 32-core run
// (the chip's bar and one per core). docs/plots.md shows the same kinds.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "tests/cli/cli_run.hpp"

using namespace agx_test;

namespace {

// The width and height an SVG declares (its first width= and height=).
std::pair<double, double> svg_size(const std::string& svg) {
    const auto w = svg.find("width=\""), h = svg.find("height=\"");
    REQUIRE(w != std::string::npos);
    REQUIRE(h != std::string::npos);
    return {std::stod(svg.substr(w + 7)), std::stod(svg.substr(h + 8))};
}

// A PNG's size from its IHDR chunk (bytes 16-23, big-endian).
std::pair<std::uint32_t, std::uint32_t> png_size(const fs::path& png) {
    const std::string b = slurp(png);
    REQUIRE(b.size() > 24);
    REQUIRE(b.compare(1, 3, "PNG") == 0);
    auto be = [&](std::size_t at) {
        return std::uint32_t{static_cast<unsigned char>(b[at])} << 24 |
               std::uint32_t{static_cast<unsigned char>(b[at + 1])} << 16 |
               std::uint32_t{static_cast<unsigned char>(b[at + 2])} << 8 |
               std::uint32_t{static_cast<unsigned char>(b[at + 3])};
    };
    return {be(16), be(20)};
}

// Renders `svg` with rsvg-convert and checks the picture: its size is the
// SVG's, and each left-anchored text (at most 7 px a character at 12 px)
// ends inside it.
void check_renders(const fs::path& svg) {
    INFO(svg);
    const std::string text = slurp(svg);
    const auto [w, h] = svg_size(text);
    const fs::path png = scratch() / (svg.stem().string() + ".png");
    const int code = std::system(("rsvg-convert " + svg.string() + " -o " + png.string()).c_str());
    REQUIRE(code == 0);
    const auto [pw, ph] = png_size(png);
    CHECK(pw == static_cast<std::uint32_t>(w + 0.5));
    CHECK(ph == static_cast<std::uint32_t>(h + 0.5));
    for (auto at = text.find("<text x=\""); at != std::string::npos;
         at = text.find("<text x=\"", at + 1)) {
        const auto close = text.find('>', at), end = text.find("</text>", close);
        const std::string tag = text.substr(at, close - at);
        if (tag.find("text-anchor") != std::string::npos || tag.find("rotate") != std::string::npos)
            continue;
        INFO(text.substr(at, end - at));
        CHECK(std::stod(text.substr(at + 9)) + 7.0 * static_cast<double>(end - close - 1) <= w);
    }
}

}  // namespace

TEST_CASE("plots: each kind renders to PNG at its size, nothing past its edge") {
    if (std::system("rsvg-convert --version >/dev/null 2>&1") != 0) {
        std::puts("agxsim-skip: rsvg-convert (Debian's librsvg2-bin) is not installed");
        std::exit(77);
    }
    // Five workloads on two configs over two axes: ten series, faceted.
    std::string workloads;
    for (const char* k :
         {"collatz.agxk", "reduce_sum.agxk", "saxpy.agxk", "histogram256.agxk", "stencil5.agxk"})
        workloads += std::string(workloads.empty() ? "" : ", ") + "\"" + library_kernel(k) + "\"";
    const fs::path description = write_file(
        "many.json", "{\"name\": \"many\", \"workloads\": [" + workloads +
                         "], \"configs\": [\"m1\", \"m2\"], \"axes\": [{\"key\": "
                         "\"core.active_simds\", \"values\": [1, 3, 6]}, {\"key\": "
                         "\"core.register_cache.entries\", \"values\": [8, 22]}], \"baseline\": "
                         "{\"core.active_simds\": 3, \"core.register_cache.entries\": 22}}");
    const fs::path out = scratch() / "many";
    REQUIRE(agxsim("sweep run " + description.string() + " --out " + out.string() +
                   " -j 2 --no-progress")
                .code == 0);
    REQUIRE(agxsim("sweep plot " + out.string() + " --metric cycles --normalise").code == 0);
    const fs::path plots = out / "plots";
    const std::string facets = slurp(plots / "cycles-normalised-vs-core_active_simds.svg");
    CHECK(facets.find("a panel per workload") != std::string::npos);
    check_renders(plots / "cycles-normalised-vs-core_active_simds.svg");
    const fs::path heat =
        plots /
        "cycles-normalised-core_active_simds-x-core_register_cache_entries-reduce_sum_on_m1.svg";
    CHECK(slurp(heat).find("white: the baseline's 1;") != std::string::npos);
    check_renders(heat);
    check_renders(plots / "cycles-normalised-by-config.svg");

    // The CPI stack of all 32 cores of an M1 Max: the chip's bar, then one
    // per core, no scheduler's.
    const fs::path report = scratch() / "report";
    REQUIRE(agxsim("run " + library_kernel("saxpy.agxk") +
                   " --config m1-max --cores all -q --report " + report.string())
                .code == 0);
    const std::string cpi = slurp(report / "cpi_stack.svg");
    CHECK(cpi.find(">chip (32 cores)<") != std::string::npos);
    CHECK(cpi.find(">core 31<") != std::string::npos);
    CHECK(cpi.find(">  scheduler") == std::string::npos);
    check_renders(report / "cpi_stack.svg");
}
