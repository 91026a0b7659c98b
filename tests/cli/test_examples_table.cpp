// traces/examples/README.md's table: every example trace has a row, and the
// row's cycles, SIMD-instructions and IPC are what the model gives now.
#include <catch2/catch.hpp>

#include <cstdio>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/cli/cli_run.hpp"

using namespace agx_test;

TEST_CASE("the example traces' README table holds what the model gives") {
    const fs::path dir = fs::path(AGX_SOURCE_DIR) / "traces/examples";
    std::set<std::string> rows;
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
        const auto dot = c[3].find('.');
        const int decimals = dot == std::string::npos ? 0 : static_cast<int>(c[3].size() - dot - 1);
        char ipc[32];
        std::snprintf(ipc, sizeof ipc, "%.*f", decimals, j.at("ipc_per_core").get<double>());
        CHECK(c[3] == ipc);
    }
    for (const auto& e : fs::directory_iterator(dir))
        if (e.path().extension() == ".trace") {
            INFO(e.path().filename().string() << " has no row in traces/examples/README.md");
            CHECK(rows.count(e.path().filename().string()) == 1);
        }
}
