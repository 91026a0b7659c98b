// CI test of the memory side against the hardware: `agxsim validate` on the
// shipped M1 memory figures, and the targets the memory model must meet
// (the pointer-chase staircase, the bandwidth limits, DRAM streaming, the
// code-size sweep), read back from the report it writes.
#include <catch2/catch.hpp>

#include "tests/cli/cli_run.hpp"
#include "tests/cli/results_csv.hpp"

#include <sys/wait.h>
#include <unistd.h>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace fs = std::filesystem;
using namespace agx_test;

namespace {

double number(const Row& r, const char* column) {
    const auto it = r.find(column);
    REQUIRE(it != r.end());
    REQUIRE_FALSE(it->second.empty());
    return std::stod(it->second);
}

double config_value(const nlohmann::json& cfg, const std::string& path) {
    const nlohmann::json* j = &cfg;
    std::stringstream ss(path);
    std::string part;
    while (std::getline(ss, part, '.')) j = &j->at(part);
    return j->at("value").get<double>();
}

// The leading number of a table cell ("~98% (10.4 ...)" -> "98"), as written.
std::string leading_number(const std::string& cell) {
    std::size_t i = cell.find_first_of("0123456789");
    if (i == std::string::npos) return "";
    std::size_t j = i;
    while (j < cell.size() && (std::isdigit(static_cast<unsigned char>(cell[j])) || cell[j] == '.'))
        ++j;
    return cell.substr(i, j - i);
}

// The table of docs/memory.md between its markers: each row's cells.
std::vector<std::vector<std::string>> memory_doc_table() {
    std::vector<std::vector<std::string>> rows;
    for (const auto& line :
         marked_table_rows("docs/memory.md",
                           "<!-- memory table: checked by tests/cli/test_memory_validate.cpp -->",
                           "<!-- end of memory table -->"))
        rows.push_back(table_cells(line));
    return rows;
}
}  // namespace

TEST_CASE(
    "memory validation on m1: staircase, bandwidth limits, DRAM streaming and the code-size sweep",
    "[memory]") {
    const fs::path report = scratch() / "report";
    const std::string data = std::string(AGX_SOURCE_DIR) + "/validation/data/memory_m1.json";
    const Result r = agxsim("validate --config m1 --measurements " + data +
                            shared_validate_cache() + " --report " + report.string() + " -j 2");
    INFO(r.out << r.err);
    REQUIRE(r.code == 0);
    REQUIRE(fs::exists(report / "summary.json"));
    REQUIRE(fs::exists(report / "staircase.svg"));
    CHECK(slurp(report / "staircase.svg").find("pointer_chase measured") != std::string::npos);
    const auto summary = nlohmann::json::parse(slurp(report / "summary.json"));
    CHECK(summary.at("excluded").at("failed") == 0);
    CHECK(summary.contains("memory_latency"));
    CHECK(summary.contains("bandwidth"));

    auto rows = read_results(report / "results.csv");
    {  // docs/validation.md: what the fitted memory values predict.
        const FittedPredictionRows fitted = fitted_prediction_rows("m1", rows);
        CHECK(fitted.written.size() == 2);
        CHECK(fitted.unmatched.empty());
        CHECK(fitted.uncovered.empty());
        INFO("docs/validation.md's fitted predictions need:\n" << joined_lines(fitted.computed));
        CHECK(fitted.written == fitted.computed);
    }
    auto sim = [&](const std::string& id) {
        INFO(id);
        REQUIRE(rows.count(id));
        return number(rows.at(id), "simulated");
    };
    auto chase = [&](const std::string& size) {
        return sim("memory/pointer_chase/" + size + "/m1");
    };

    // Each level of the staircase within 10% of the measured latency.
    for (const char* id : {"memory/pointer_chase/256KiB/m1", "memory/pointer_chase/4MiB/m1",
                           "memory/pointer_chase/128MiB/m1", "memory/threadgroup_chase/32KiB/m1"}) {
        INFO(id);
        const Row& row = rows.at(id);
        CHECK(row.at("included") == "yes");
        CHECK(std::abs(number(row, "error_percent")) <= 10.0);
    }
    // The steps sit at the configured sizes: L1 8 KB, L2 768 KB, SLC 8 MB.
    const double l1 = chase("8KiB"), l2 = chase("16KiB"), slc = chase("1MiB"),
                 dram = chase("16MiB");
    CHECK(chase("1KiB") == Approx(l1).epsilon(0.01));
    CHECK(l2 > 1.5 * l1);
    CHECK(chase("512KiB") == Approx(l2).epsilon(0.01));
    CHECK(slc > 2.5 * l2);
    CHECK(chase("8MiB") == Approx(slc).epsilon(0.01));
    CHECK(dram > 1.1 * slc);
    CHECK(chase("512MiB") == Approx(dram).epsilon(0.01));

    // Streaming bandwidth never above the physical limit of the level it runs
    // from (whole GPU: 8 cores), nor above any level above it.
    const auto cfg = nlohmann::json::parse(slurp(std::string(AGX_SOURCE_DIR) + "/configs/m1.json"));
    const double ghz = config_value(cfg, "clock_ghz"), cores = config_value(cfg, "cores");
    const double l1_limit = cores * config_value(cfg, "core.l1d.bytes_per_cycle") * ghz;
    // The shared levels' rates are bytes per ns (GB/s) per core.
    const double l2_limit = cores * config_value(cfg, "memory.l2.bytes_per_ns");
    const double slc_limit = cores * config_value(cfg, "memory.slc.bytes_per_ns");
    const double dram_peak = config_value(cfg, "memory.dram.bus_width_bits") / 8 *
                             config_value(cfg, "memory.dram.data_rate_mtps") / 1000;
    const double tolerance = 1.001;  // rounding of whole cycles
    CHECK(sim("memory/stream/32KiB/m1") <= l1_limit * tolerance);
    CHECK(sim("memory/stream/64KiB/m1") <= l1_limit * tolerance);
    CHECK(sim("memory/stream/256KiB/m1") <= l2_limit * tolerance);
    CHECK(sim("memory/stream/1MiB/m1") <= slc_limit * tolerance);
    CHECK(sim("memory/stream/4MiB/m1") <= slc_limit * tolerance);
    CHECK(sim("memory/stream/32MiB/m1") <=
          dram_peak * config_value(cfg, "memory.dram.efficiency") * tolerance);
    // DRAM streaming on all 8 cores within 15% of M1's measured 50.4 GB/s.
    CHECK(std::abs(number(rows.at("memory/stream/32MiB/m1"), "error_percent")) <= 15.0);

    // The code-size sweep: flat up to the 12 KB instruction cache, then down
    // by 12 +- 5 points at 400 KB.
    const double peak = sim("memory/code_size/12KiB/m1");
    CHECK(peak >= 97.0);
    CHECK(sim("memory/code_size/4KiB/m1") == Approx(peak).epsilon(0.01));
    CHECK(sim("memory/code_size/8KiB/m1") == Approx(peak).epsilon(0.01));
    const double drop = 100.0 * (1.0 - sim("memory/code_size/400KiB/m1") / peak);
    CHECK(drop >= 7.0);
    CHECK(drop <= 17.0);
    CHECK(sim("memory/code_size/64KiB/m1") < peak);

    // docs/memory.md's table gives these same rows: each simulated (and
    // measured) figure as the report has it, to the decimals the table shows.
    const auto table = memory_doc_table();
    CHECK(table.size() >= 10);
    for (const auto& cells : table) {
        REQUIRE(cells.size() == 4);
        INFO("docs/memory.md row: " << cells[0]);
        const std::string id = cells[1].substr(1, cells[1].size() - 2);  // `id`
        REQUIRE(rows.count(id));
        const std::string shown = leading_number(cells[3]);
        CHECK(shown == as_written(sim(id), shown));
        if (cells[2] != "not measured") {
            const std::string measured = leading_number(cells[2]);
            CHECK(measured == as_written(number(rows.at(id), "measured"), measured));
        }
    }
}
