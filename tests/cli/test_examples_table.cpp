// traces/examples/README.md's table: every example trace has a row, and the
// row's cycles, SIMD-instructions and IPC, and the stall figures its "why"
// quotes, are what the model gives now.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/cli/cli_run.hpp"

using namespace agx_test;

namespace {

// The figures a row's "why" quotes from the run: "`cause` N cycles" and
// "`cause` N%" (of the scheduler-cycles) from the stall breakdown, "N% of
// the issue slots" the issue rate. Returns how many it checked.
int check_why(const std::string& why, const nlohmann::json& j) {
    const auto& stalls = j.at("stall_scheduler_cycles");
    // Schedulers per core: peak IPC, from the run's IPC and its share of the slots.
    const double schedulers =
        j.at("ipc_per_core").get<double>() / j.at("issue_slot_share").get<double>();
    const double scheduler_cycles = std::round(schedulers) *
                                    static_cast<double>(j.at("cycles").get<std::uint64_t>()) *
                                    j.at("cores_simulated").get<double>();
    int checked = 0;
    const std::regex cycles("`([a-z_]+)` ([0-9]+) cycles"), share("`([a-z_]+)` ([0-9.]+)%"),
        peak("([0-9.]+)% of the issue slots");
    for (std::sregex_iterator m(why.begin(), why.end(), cycles), end; m != end; ++m, ++checked) {
        INFO((*m)[0].str());
        REQUIRE(stalls.contains((*m)[1].str()));
        CHECK((*m)[2].str() == std::to_string(stalls.at((*m)[1].str()).get<std::uint64_t>()));
    }
    for (std::sregex_iterator m(why.begin(), why.end(), share), end; m != end; ++m, ++checked) {
        INFO((*m)[0].str());
        REQUIRE(stalls.contains((*m)[1].str()));
        const double pct = 100.0 * stalls.at((*m)[1].str()).get<double>() / scheduler_cycles;
        CHECK((*m)[2].str() == as_written(pct, (*m)[2].str()));
    }
    for (std::sregex_iterator m(why.begin(), why.end(), peak), end; m != end; ++m, ++checked) {
        INFO((*m)[0].str());
        CHECK((*m)[1].str() ==
              as_written(100.0 * j.at("issue_slot_share").get<double>(), (*m)[1].str()));
    }
    return checked;
}

}  // namespace

TEST_CASE("the example traces' README table holds what the model gives") {
    const fs::path dir = fs::path(AGX_SOURCE_DIR) / "traces/examples";
    std::set<std::string> rows;
    int figures = 0;
    std::istringstream readme(slurp(dir / "README.md"));
    for (std::string line; std::getline(readme, line);) {
        if (line.rfind("| `", 0) != 0) continue;
        const auto c = table_cells(line);
        REQUIRE(c.size() >= 5);
        const std::string name = c[0].substr(1, c[0].size() - 2);
        rows.insert(name);
        const fs::path stats = scratch() / (name + ".json");
        const Result r =
            agxsim("run " + (dir / name).string() + " --config m1 -q --stats " + stats.string());
        INFO(name << ": " << r.err);
        REQUIRE(r.code == 0);
        const auto j = nlohmann::json::parse(slurp(stats));
        CHECK(c[1] == std::to_string(j.at("cycles").get<std::uint64_t>()));
        CHECK(c[2] == std::to_string(j.at("simd_instructions").get<std::uint64_t>()));
        // IPC to as many decimals as the table gives.
        CHECK(c[3] == as_written(j.at("ipc_per_core").get<double>(), c[3]));
        figures += check_why(c[4], j);
    }
    // ffma_chain's three, fadd16_ilp4's peak, load_wait_use's two.
    CHECK(figures >= 6);
    for (const auto& e : fs::directory_iterator(dir))
        if (e.path().extension() == ".trace") {
            INFO(e.path().filename().string() << " has no row in traces/examples/README.md");
            CHECK(rows.count(e.path().filename().string()) == 1);
        }
}
