// A probe file from a chip that has no config of its own (an M1 Pro, a chip
// newer than the tables) validates against a config of its family, and
// `validate` says by which mapping it chose the figures.
#include <catch2/catch.hpp>

#include "tests/probe/probe_test_util.hpp"

using namespace probe_test;

namespace {

const char* kSuite = R"({"benchmarks": [
  {"name": "fam/FADD32/latency", "body": [{"op": "FADD32"}], "ilp": 1, "simds_per_core": 4,
   "register_bits": 32, "repetitions": 1440},
  {"name": "fam/FADD32/throughput", "body": [{"op": "FADD32"}], "ilp": 4, "simds_per_core": 88,
   "register_bits": 32, "repetitions": 960, "unroll": 480, "method": "steady"}]})";

// Runs the fake probe as `chip` and validates its file against m1-max.
Result probe_then_validate(const std::string& chip) {
    const std::string suite = (scratch() / "family_suite.json").string();
    std::ofstream(suite) << kSuite;
    const std::string out = (scratch() / ("family_" + chip + ".json")).string();
    const Result run = shell(std::string(AGXSIM_PROBE_EXE) + " run --backend fake --trials 2" +
                             " --fake-chip " + chip + " --suite " + suite + " --out " + out);
    INFO(run.out << run.err);
    REQUIRE(run.code == 0);
    return shell(std::string(AGXSIM_EXE) + " validate --config m1-max -j 2 --measurements " + out);
}

}  // namespace

TEST_CASE("cli: a fake M1 Pro run validates against m1-max with every record used") {
    const Result r = probe_then_validate("m1-pro");
    INFO(r.out << r.err);
    CHECK(r.code == 0);
    CHECK(r.out.find("against the figures of its family, apple7: m1-pro") != std::string::npos);
    CHECK(r.out.find("family of m1-pro by the chip-family table") != std::string::npos);
    CHECK(r.out.find("2 figures, 2 in the statistics") != std::string::npos);
    CHECK(r.out.find("fam/FADD32/latency/m1-pro") != std::string::npos);
    CHECK(r.out.find("fam/FADD32/throughput/m1-pro") != std::string::npos);
}

TEST_CASE("cli: a chip the family table does not know takes the family the probe recorded") {
    // The fake device reports Metal's Apple7 family, as an M1-class GPU does.
    const Result r = probe_then_validate("m9-ultra");
    INFO(r.out << r.err);
    CHECK(r.code == 0);
    CHECK(r.out.find("family of m9-ultra by the probe's device record") != std::string::npos);
    CHECK(r.out.find("2 figures, 2 in the statistics") != std::string::npos);
}
