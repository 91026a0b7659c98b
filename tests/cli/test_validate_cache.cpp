// validate --cache: simulations kept in a directory and read back by a later
// validate of the same executable, config and benchmarks.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tests/cli/cli_run.hpp"
#include "tests/cli/results_csv.hpp"

using namespace agx_test;

namespace {

const char* kOtherBuild = "0123456789abcdef-0123456789abcdef";

std::vector<fs::path> results_in(const fs::path& cache) {
    std::vector<fs::path> found;
    for (const auto& e : fs::directory_iterator(cache)) {
        const std::string name = e.path().filename().string();
        if (name.size() == 33 && name[16] == '-' && name != kOtherBuild) found.push_back(e.path());
    }
    return found;
}

Result validate(const fs::path& cache, const fs::path& report, const std::string& sets = "") {
    const fs::path data = fs::path(AGX_SOURCE_DIR) / "validation" / "data";
    return agxsim("validate --config m1-max --summary-only -m " +
                  (data / "float_instructions.json").string() + " --only FADD32" + sets +
                  " --cache " + cache.string() + " --report " + report.string());
}

}  // namespace

TEST_CASE(
    "validate --cache: a later run reads each simulation back, and another config runs anew") {
    const fs::path cache = scratch() / "cache";
    fs::create_directories(cache);
    std::ofstream(cache / kOtherBuild) << "1 1 1\n";  // a result of another build
    std::ofstream(cache / "notes.txt") << "not a result\n";

    const Result first = validate(cache, scratch() / "first");
    REQUIRE(first.code == 0);
    CHECK(!fs::exists(cache / kOtherBuild));  // another build's results are removed
    CHECK(fs::exists(cache / "notes.txt"));   // and nothing else
    const auto stored = results_in(cache);
    REQUIRE(stored.size() >= 2);
    const auto simulated = read_results(scratch() / "first" / "results.csv");

    // The same run again gives the same report, simulating nothing new.
    REQUIRE(validate(cache, scratch() / "second").code == 0);
    CHECK(slurp(scratch() / "second" / "results.csv") ==
          slurp(scratch() / "first" / "results.csv"));
    CHECK(results_in(cache).size() == stored.size());

    // What it reports is what the cache holds: each stored result's cycles
    // doubled double every figure.
    for (const fs::path& p : stored) {
        unsigned long long cycles = 0, instructions = 0;
        unsigned simds = 0;
        REQUIRE(std::sscanf(slurp(p).c_str(), "%llu %llu %u", &cycles, &instructions, &simds) == 3);
        std::ofstream(p) << 2 * cycles << " " << instructions << " " << simds << "\n";
    }
    REQUIRE(validate(cache, scratch() / "doubled").code == 0);
    const auto doubled = read_results(scratch() / "doubled" / "results.csv");
    REQUIRE(doubled.size() == simulated.size());
    for (const auto& [id, row] : simulated) {
        INFO(id);
        CHECK(std::stod(doubled.at(id).at("simulated")) ==
              Approx(2 * std::stod(row.at("simulated"))).epsilon(0.01));
    }

    // Another config value is another simulation, beside the first.
    REQUIRE(validate(cache, scratch() / "other", " --set clock_ghz=1.0").code == 0);
    CHECK(results_in(cache).size() == 2 * stored.size());
}

TEST_CASE("validate --cache: a path that cannot be a directory is one line and exit 2") {
    const fs::path file = write_file("a-file", "x");
    const Result r = validate(file, scratch() / "report");
    CHECK(r.code == 2);
    CHECK(r.err.find("a-file") != std::string::npos);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    CHECK(!fs::exists(scratch() / "report"));
}
