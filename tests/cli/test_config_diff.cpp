// `agxsim config diff A B`: every value that differs between two configs,
// with both values and both sources, and a count; nothing for a config
// against itself.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include "tests/cli/cli_run.hpp"

using namespace agx_test;

TEST_CASE("config diff lists every value that differs, with both sources") {
    const Result r = agxsim("config diff m1 m2");
    INFO(r.err);
    REQUIRE(r.code == 0);
    CHECK(r.out.find("clock_ghz: 1.278 -> 1.398\n"
                     "    m1: Philip Turner's metal-benchmarks") != std::string::npos);
    CHECK(r.out.find("    m2: Philip Turner's metal-benchmarks") != std::string::npos);
    CHECK(r.out.find("cores: 8 -> 10\n") != std::string::npos);
    CHECK(r.out.find("values differ between m1 and m2\n") != std::string::npos);
    // A value both share is not listed.
    CHECK(r.out.find("core.active_simds") == std::string::npos);

    const Result same = agxsim("config diff m1 m1");
    REQUIRE(same.code == 0);
    CHECK(same.out.find("0 of ") == 0);
    const Result set = agxsim("config diff m1 m1 --set-b core.active_simds=4");
    REQUIRE(set.code == 0);
    CHECK(set.out.find("core.active_simds: 3 -> 4\n") == 0);
    CHECK(set.out.find("    m1 (B): command line --set\n") != std::string::npos);
    CHECK(set.out.find("1 of ") != std::string::npos);

    const Result bad = agxsim("config diff m1 m7");
    CHECK(bad.code == 2);
    CHECK(bad.err.find("'m7'") != std::string::npos);
    CHECK(std::count(bad.err.begin(), bad.err.end(), '\n') == 1);
}
