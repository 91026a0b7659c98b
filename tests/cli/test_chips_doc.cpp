// docs/sweeps.md's chip comparison: the tables are what `sweep table` prints
// for the shipped description (docs/sweeps/library-across-chips.json). The
// points of three of its kernels run here and their rows must match; every
// kernel of the description has its row in each table.
#include <catch2/catch.hpp>

#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/cli/cli_run.hpp"

using namespace agx_test;

namespace {

// The rows of Markdown tables under "### METRIC" headings, by heading and
// first cell.
std::map<std::pair<std::string, std::string>, std::string> rows_by_table(const std::string& md) {
    std::map<std::pair<std::string, std::string>, std::string> rows;
    std::string heading;
    std::istringstream in(md);
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("### ", 0) == 0) heading = line.substr(4);
        if (line.rfind("| ", 0) != 0 || line.find("---") != std::string::npos) continue;
        rows[{heading, table_cells(line).front()}] = line;
    }
    return rows;
}

const char* kMetrics = " --metric seconds --metric gflop_per_s --metric device_gb_per_s";

}  // namespace

TEST_CASE("docs/sweeps.md: the chip comparison's tables are the shipped sweep's figures") {
    const fs::path shipped = fs::path(AGX_SOURCE_DIR) / "docs/sweeps/library-across-chips.json";
    auto doc = nlohmann::json::parse(slurp(shipped));
    const std::string text = slurp(fs::path(AGX_SOURCE_DIR) / "docs/sweeps.md");
    const std::string begin = "<!-- chip tables: checked by tests/cli/test_chips_doc.cpp -->";
    const auto from = text.find(begin), to = text.find("<!-- end of chip tables -->");
    REQUIRE(from != std::string::npos);
    REQUIRE(to != std::string::npos);
    const auto written = rows_by_table(text.substr(from + begin.size(), to - from));

    // Every kernel of the description has a row in each table, and the
    // header names the configs.
    for (const char* metric : {"seconds", "gflop_per_s", "device_gb_per_s"}) {
        INFO(metric);
        CHECK(written.at({metric, "workload"}) == "| workload | m1 | m2 | m1-max |");
        for (const auto& w : doc.at("workloads")) {
            const std::string name = fs::path(w.get<std::string>()).stem().string();
            INFO(name);
            CHECK(written.count({metric, name}) == 1);
        }
    }

    // Three kernels' points, as the shipped description runs them.
    nlohmann::json subset = doc;
    subset["workloads"] = nlohmann::json::array();
    for (const char* k : {"collatz", "reduce_sum", "saxpy"})
        subset["workloads"].push_back(
            (fs::path(AGX_SOURCE_DIR) / "traces/kernels" / (std::string(k) + ".agxk")).string());
    const fs::path description = write_file("chips.json", subset.dump(2));
    const fs::path out = scratch() / "chips";
    const Result run = agxsim("sweep run " + description.string() + " --out " + out.string() +
                              " -j 2 --no-progress");
    INFO(run.out << run.err);
    REQUIRE(run.code == 0);
    const Result table = agxsim("sweep table " + out.string() + kMetrics);
    REQUIRE(table.code == 0);
    const auto computed = rows_by_table(table.out);
    std::string want;
    for (const auto& [key, line] : computed) want += key.first + ": " + line + "\n";
    INFO("docs/sweeps.md's chip tables need these rows:\n" << want);
    for (const auto& [key, line] : computed) {
        INFO(key.first << ", " << key.second);
        REQUIRE(written.count(key) == 1);
        CHECK(written.at(key) == line);
    }

    // The bar chart: a bar per kernel and config, each titled with its value.
    const Result plot = agxsim("sweep plot " + out.string() + " --metric seconds --normalise");
    REQUIRE(plot.code == 0);
    const std::string svg = slurp(out / "plots" / "seconds-normalised-by-config.svg");
    std::size_t bars = 0;
    for (auto at = svg.find("<rect x="); at != std::string::npos; at = svg.find("<rect x=", at + 1))
        bars += svg.compare(svg.find('>', at) + 1, 7, "<title>") == 0;
    CHECK(bars == 9);
    CHECK(svg.find("saxpy on m1-max: ") != std::string::npos);
}
