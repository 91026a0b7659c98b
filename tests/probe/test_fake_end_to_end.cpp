// The probe's file as `validate` uses it, end to end on the fake backend: a
// chip without a config of its own (an M1 Pro), a kernel with a companion
// instruction and counters that disagree with the command buffer. Every
// record is used, the companion is in the simulated body, the probe's own
// fixed cost is the one simulated, and the command buffer times the run.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "tests/probe/probe_test_util.hpp"

using namespace probe_test;

namespace {

const char* kEndToEndSuite = R"({"benchmarks": [
  {"name": "e2e/FMAX32/latency", "body": [{"op": "FMAX32"}], "ilp": 1, "simds_per_core": 4,
   "register_bits": 32, "repetitions": 1440, "overhead_cycles": 1684.8},
  {"name": "e2e/FMAX32/throughput", "body": [{"op": "FMAX32"}], "ilp": 4, "simds_per_core": 88,
   "register_bits": 32, "repetitions": 960, "unroll": 480, "method": "steady"}]})";

// The simulated figure of a row of validate's results.csv.
double simulated(const std::string& csv, const std::string& id) {
    const auto at = csv.find("\n" + id + ",");
    REQUIRE(at != std::string::npos);
    std::istringstream row(csv.substr(at + 1, csv.find('\n', at + 1) - at - 1));
    std::string field;
    for (int i = 0; i < 7; ++i) std::getline(row, field, ',');  // id ... simulated
    return std::stod(field);
}

}  // namespace

TEST_CASE(
    "cli: a fake M1 Pro run with a companion kernel and disagreeing counters validates "
    "against m1-max with every record used") {
    const auto suite = scratch() / "e2e_suite.json";
    std::ofstream(suite) << kEndToEndSuite;
    const auto file = scratch() / "e2e.json";
    const Result run = shell(std::string(AGXSIM_PROBE_EXE) +
                             " run --backend fake --trials 2 --fake-chip m1-pro"
                             " --fake-fail counter-disagree --suite " +
                             suite.string() + " --out " + file.string());
    INFO(run.out << run.err);
    REQUIRE(run.code == 0);
    nlohmann::json j = nlohmann::json::parse(slurp(file));

    // Command-buffer times, chosen because the counters disagree.
    CHECK(j["probe"]["timing"]["source"] == "command_buffer");
    CHECK(j["probe"]["timing"]["reason"].get<std::string>().find("disagree") != std::string::npos);
    REQUIRE(j["records"].size() == 2);
    double measured_overhead = 0;
    for (const auto& r : j["records"]) {
        CHECK(r["chip"] == "m1-pro");
        CHECK(r["value"].is_number());
        // The companion is part of what was recorded.
        CHECK(r["benchmark"]["body"][0]["op"] == "FMAX32 + FADD32");
        if (r["id"] == "e2e/FMAX32/latency/m1-pro") {
            // The control group's measurement replaced the suite's fixed cost.
            CHECK(r["probe"]["overhead"]["source"] == "measured");
            measured_overhead = r["benchmark"]["overhead_cycles"].get<double>();
            CHECK(measured_overhead ==
                  Approx(r["probe"]["overhead"]["overhead_cycles"].get<double>()));
            CHECK(measured_overhead != Approx(1684.8));
        }
    }
    REQUIRE(measured_overhead > 0);

    const auto report = scratch() / "e2e_report";
    const Result v =
        shell(std::string(AGXSIM_EXE) + " validate --config m1-max -j 2 --measurements " +
              file.string() + " --report " + report.string());
    INFO(v.out << v.err);
    REQUIRE(v.code == 0);
    CHECK(v.out.find("family of m1-pro by the chip-family table") != std::string::npos);
    CHECK(v.out.find("2 figures, 2 in the statistics") != std::string::npos);
    const std::string csv = slurp(report / "results.csv");
    // The simulated body is the recorded one, companion included.
    CHECK(csv.find("e2e/FMAX32/latency/m1-pro,latency,m1-pro,FMAX32 + FADD32,") !=
          std::string::npos);
    CHECK(csv.find("e2e/FMAX32/throughput/m1-pro,throughput,m1-pro,FMAX32 + FADD32,") !=
          std::string::npos);

    // The simulated latency is the measured overhead's: with the suite's
    // fixed cost put back, the same record simulates differently.
    for (auto& r : j["records"])
        if (r["id"] == "e2e/FMAX32/latency/m1-pro") r["benchmark"]["overhead_cycles"] = 1684.8;
    const auto suite_cost = scratch() / "e2e_suite_cost.json";
    std::ofstream(suite_cost) << j.dump();
    const auto report2 = scratch() / "e2e_report_suite_cost";
    const Result v2 =
        shell(std::string(AGXSIM_EXE) + " validate --config m1-max -j 2 --measurements " +
              suite_cost.string() + " --report " + report2.string());
    REQUIRE(v2.code == 0);
    CHECK(simulated(csv, "e2e/FMAX32/latency/m1-pro") !=
          Approx(simulated(slurp(report2 / "results.csv"), "e2e/FMAX32/latency/m1-pro")));
}
