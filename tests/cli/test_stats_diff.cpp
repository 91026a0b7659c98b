// `agxsim stats diff A.json B.json`: the cycles, where their change went (the
// stall causes, each as a share of the change in all), and every other
// statistic that moved; a run against itself moves nothing but the host's
// timing, which is left out.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/cli/cli_run.hpp"

using namespace agx_test;

TEST_CASE("stats diff says what moved between two runs and where the cycles went") {
    const std::string k = std::string(AGX_SOURCE_DIR) + "/traces/kernels/reduce_sum.agxk";
    const fs::path a = scratch() / "diff_a.json", b = scratch() / "diff_b.json",
                   a2 = scratch() / "diff_a2.json";
    REQUIRE(agxsim("run " + k + " -q --stats " + a.string()).code == 0);
    REQUIRE(agxsim("run " + k + " -q --stats " + a2.string()).code == 0);
    REQUIRE(agxsim("run " + k + " -q --set core.active_simds=0 --stats " + b.string()).code == 0);
    const auto cycles = [](const fs::path& p) {
        return std::to_string(nlohmann::json::parse(slurp(p)).at("cycles").get<long>());
    };
    const Result r = agxsim("stats diff " + a.string() + " " + b.string());
    INFO(r.err);
    REQUIRE(r.code == 0);
    CHECK(r.out.find("cycles: " + cycles(a) + " -> " + cycles(b) + " (") == 0);
    CHECK(r.out.find("where it went (stall causes") != std::string::npos);
    CHECK(r.out.find("  dependency: ") != std::string::npos);
    CHECK(r.out.find("other statistics that moved") != std::string::npos);
    CHECK(r.out.find("host.") == std::string::npos);
    // The same run twice: nothing moved.
    const Result same = agxsim("stats diff " + a.string() + " " + a2.string());
    REQUIRE(same.code == 0);
    CHECK(same.out.find("where it went") == std::string::npos);
    CHECK(same.out.find("\n0 of ") != std::string::npos);
    // Not statistics: one line, exit 2.
    const Result bad = agxsim("stats diff " + a.string() + " " + k);
    CHECK(bad.code == 2);
    CHECK(std::count(bad.err.begin(), bad.err.end(), '\n') == 1);
}
