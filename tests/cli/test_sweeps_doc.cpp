// The study table of docs/sweeps.md is checked here: the shipped study's
// description runs at the table's points (8, 22 and 32 entries x 1, 3 and
// 6 active simds: 45 of its 210 points) through `agxsim sweep run`, each row
// is computed from results.csv, and the doc must hold exactly those rows. A
// model change that moves a figure fails this test until the doc is updated
// in the same commit; the failure prints the rows to paste.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/sweep/results_csv.hpp"
#include "tests/cli/cli_run.hpp"

using namespace agx_test;

namespace {

const std::string kStudy = "docs/sweeps/register-cache-by-active-simds.json";

std::string ratio(double v, double base) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", v / base);
    return buf;
}

std::vector<std::string> doc_rows() {
    return marked_table_rows("docs/sweeps.md",
                             "<!-- study table: checked by tests/cli/test_sweeps_doc.cpp -->",
                             "<!-- end of study table -->");
}

}  // namespace

TEST_CASE("docs/sweeps.md: the study table is the shipped study's figures") {
    nlohmann::json study = nlohmann::json::parse(slurp(fs::path(AGX_SOURCE_DIR) / kStudy));
    // The same description at the table's points, its paths made absolute.
    const fs::path base = fs::path(AGX_SOURCE_DIR) / "docs/sweeps";
    for (auto& w : study["workloads"])
        w = (base / w.get<std::string>()).lexically_normal().string();
    study["axes"][0]["values"] = {8, 22, 32};
    study["axes"][1] = {{"key", "core.active_simds"}, {"values", {1, 3, 6}}};
    study["metrics"] = {"cycles"};
    const fs::path dir = scratch() / "study";
    fs::create_directories(dir);
    std::ofstream(dir / "study.json") << study.dump(2);
    const Result r = agxsim("sweep run " + (dir / "study.json").string() + " --out " +
                            (dir / "out").string() + " -j 2 --no-progress");
    INFO(r.err);
    REQUIRE(r.code == 0);

    const agx::sweep::ResultsTable t = agx::sweep::read_results((dir / "out/results.csv").string());
    const std::size_t workload = t.column("workload"),
                      entries = t.column("core.register_cache.entries"),
                      simds = t.column("core.active_simds"), cycles = t.column("cycles");
    std::map<std::tuple<std::string, int, int>, double> at;
    std::vector<std::string> order;
    for (const auto& row : t.rows) {
        at[{row[workload], std::stoi(row[entries]), std::stoi(row[simds])}] =
            std::stod(row[cycles]);
        if (std::find(order.begin(), order.end(), row[workload]) == order.end())
            order.push_back(row[workload]);
    }
    std::vector<std::string> expected;
    std::string paste;
    for (const auto& w : study["workloads"]) {
        const std::string name = fs::path(w.get<std::string>()).stem().string();
        const double b = at.at({name, 22, 3});
        const std::string row =
            "| " + name + " | " + std::to_string(static_cast<long long>(b)) + " | " +
            ratio(at.at({name, 22, 1}), b) + " | " + ratio(at.at({name, 22, 6}), b) + " | " +
            ratio(at.at({name, 8, 3}), b) + " | " + ratio(at.at({name, 32, 3}), b) + " | " +
            ratio(at.at({name, 32, 6}), b) + " |";
        expected.push_back(row);
        paste += row + "\n";
    }
    INFO("rows to paste into docs/sweeps.md:\n" << paste);
    CHECK(doc_rows() == expected);
}
