// `validate` on configs of the user's own, and `suite run` agreeing with it:
// the shipped M1 memory file against a config derived from m2 with a faster
// GPU clock, and every memory row's figure from both commands.
#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <string>

#include "tests/cli/cli_run.hpp"
#include "tests/cli/results_csv.hpp"

using namespace agx_test;

namespace {

const std::string kMemoryFile = std::string(AGX_SOURCE_DIR) + "/validation/data/memory_m1.json";

// A what-if a user writes: m2 with its GPU clock raised to 1.6 GHz.
fs::path my_chip() {
    const fs::path p = scratch() / "my-chip.json";
    std::ofstream(p) << R"({"extends": ")" << AGX_SOURCE_DIR << R"(/configs/m2.json",
  "name": {"value": "my-chip", "source": "a what-if"},
  "clock_ghz": {"value": 1.6, "source": "a what-if: m2 at a faster GPU clock"}})";
    return p;
}

// The figure `suite run` prints: "  figure (...): VALUE UNIT; measured ...".
double suite_figure(const std::string& out) {
    const auto at = out.find("  figure (");
    REQUIRE(at != std::string::npos);
    const auto colon = out.find("): ", at);
    return std::stod(out.substr(colon + 3));
}

}  // namespace

TEST_CASE("validate: a user's config runs the shipped memory file and says what it compares") {
    const Result r = agxsim("validate -m " + kMemoryFile + " -c " + my_chip().string() +
                            shared_validate_cache() + " --report " + (scratch() / "mine").string());
    INFO(r.out << r.err);
    REQUIRE(r.code == 0);
    // No figures of its own or of its family (apple8): every chip's, said so.
    CHECK(r.out.find("config my-chip (apple8, 1.6 GHz) against every chip's figures: m1, m1-max") !=
          std::string::npos);
    // M1's latencies (cycles at 1.278 GHz) and the config's (at 1.6 GHz) are
    // compared as times, in ns.
    CHECK(r.out.find("compared in ns") != std::string::npos);
    const auto rows = read_results(scratch() / "mine" / "results.csv");
    const Row& l2 = rows.at("memory/pointer_chase/256KiB/m1");
    CHECK(l2.at("unit") == "ns");
    CHECK(std::stod(l2.at("measured")) == Approx(98.0 / 1.278).epsilon(1e-6));
    CHECK(std::stod(l2.at("simulated")) < 80);  // ns, not cycles
    CHECK(rows.at("memory/stream/4MiB/m1").at("unit") == "GB/s");
    for (const auto& [id, row] : rows) {
        INFO(id << ": " << row.at("note"));
        CHECK(row.at("note").find("failed") == std::string::npos);  // every row runs
    }
    // --chip picks one chip; a chip the files lack is an error naming them.
    const Result one = agxsim("validate -m " + kMemoryFile + " -c " + my_chip().string() +
                              " --chip m1 --summary-only" + shared_validate_cache());
    CHECK(one.code == 0);
    CHECK(one.out.find("against the figures measured on m1 (--chip)") != std::string::npos);
    const Result none = agxsim("validate -m " + kMemoryFile + " -c m1 --chip m9");
    CHECK(none.code == 2);
    CHECK(none.err.find("--chip m9: the files hold no figures for it (they hold: m1, m1-max)") !=
          std::string::npos);
    // A config derived from an apple7 chip takes its family's figures.
    const fs::path seven = scratch() / "seven.json";
    std::ofstream(seven) << R"({"extends": ")" << AGX_SOURCE_DIR << R"(/configs/m1.json",
  "name": {"value": "seven", "source": "a what-if"}})";
    const Result fam =
        agxsim("validate -m " + kMemoryFile + " -c " + seven.string() + " --summary-only");
    CHECK(fam.code == 0);
    CHECK(fam.out.find("against the figures of its family, apple7: m1, m1-max") !=
          std::string::npos);
}

TEST_CASE("suite run gives validate's figure for every memory row (the record's method)") {
    const Result v = agxsim("validate -m " + kMemoryFile + " -c m1" + shared_validate_cache() +
                            " --report " + (scratch() / "m1").string());
    REQUIRE(v.code == 0);
    const auto rows = read_results(scratch() / "m1" / "results.csv");
    REQUIRE(rows.size() == 41);
    for (const auto& [id, row] : rows) {
        if (row.at("chip") != "m1") continue;
        INFO(id);
        const Result s = agxsim("suite run " + id + " -m " + kMemoryFile + " -c m1");
        REQUIRE(s.code == 0);
        CHECK(s.out.find(", as validate): ") != std::string::npos);
        CHECK(suite_figure(s.out) == Approx(std::stod(row.at("simulated"))).epsilon(1e-5));
    }
}

TEST_CASE("clock domains: a faster GPU clock leaves the L2, SLC and DRAM no faster in ns") {
    // Each level's increment of the pointer-chase staircase, in ns, on m1 and
    // on m2 raised to 1.6 GHz: the shared levels keep their own time, so only
    // the core's first level (in core cycles) gets faster.
    auto steps_ns = [](const std::string& config, double ghz, const std::string& name) {
        const fs::path dir = scratch() / name;
        const Result r = agxsim("validate -m " + kMemoryFile + " -c " + config +
                                " --only pointer_chase --chip m1 --report " + dir.string());
        INFO(r.out << r.err);
        REQUIRE(r.code == 0);
        const auto rows = read_results(dir / "results.csv");
        // In cycles on m1's own clock; validate gives ns on another clock.
        auto ns = [&](const std::string& size) {
            const Row& row = rows.at("memory/pointer_chase/" + size + "/m1");
            const double v = std::stod(row.at("simulated"));
            return row.at("unit") == "ns" ? v : v / ghz;
        };
        return std::vector<double>{ns("8KiB"), ns("256KiB") - ns("8KiB"), ns("4MiB") - ns("256KiB"),
                                   ns("128MiB") - ns("4MiB")};
    };
    const auto m1 = steps_ns("m1", 1.278, "m1_chase");
    const auto fast = steps_ns(my_chip().string(), 1.6, "fast_chase");
    CHECK(fast[0] < m1[0] * 0.85);      // the L1 hit: core cycles, at a 25% faster clock
    const double cycle_ns = 1 / 1.278;  // whole core cycles round each level's time
    for (std::size_t level = 1; level < 4; ++level) {
        INFO("level " << level << ": m1 " << m1[level] << " ns, 1.6 GHz " << fast[level] << " ns");
        CHECK(fast[level] >= m1[level] - cycle_ns);
    }
}
