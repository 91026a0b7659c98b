// The math mode: fast math by default, as the reference tables were measured,
// --precise recorded in the file, and a chain the compiler shortens under
// fast math recorded as not measured rather than as a figure.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "tests/probe/probe_test_util.hpp"

using namespace probe_test;

namespace {

const char* kMathModeSuite = R"({"benchmarks": [
  {"name": "mm/FADD32/throughput", "body": [{"op": "FADD32"}], "ilp": 4, "simds_per_core": 88,
   "register_bits": 32, "repetitions": 960, "unroll": 480, "method": "steady"},
  {"name": "mm/IMUL32/throughput", "body": [{"op": "IMUL32"}], "ilp": 4, "simds_per_core": 88,
   "register_bits": 32, "repetitions": 960, "unroll": 480, "method": "steady"}]})";

nlohmann::json run_fake(const std::string& options, const std::string& out_name) {
    const std::string suite = (scratch() / "math_suite.json").string();
    std::ofstream(suite) << kMathModeSuite;
    const std::string out = (scratch() / out_name).string();
    const Result r =
        shell(std::string(AGXSIM_PROBE_EXE) + " run --backend fake --trials 2 --suite " + suite +
              " --out " + out + " " + options);
    INFO(r.out << r.err);
    REQUIRE(r.code == 0);
    return nlohmann::json::parse(slurp(out));
}

const nlohmann::json& record(const nlohmann::json& file, const std::string& id) {
    for (const auto& r : file.at("records"))
        if (r.at("id") == id) return r;
    FAIL("no record " << id);
    static const nlohmann::json none;
    return none;
}

}  // namespace

TEST_CASE("math mode: fast math by default and --precise are recorded in the file") {
    const auto fast = run_fake("", "math_fast.json");
    CHECK(
        fast.at("probe").at("device").at("compile_options").get<std::string>().find("fast math") !=
        std::string::npos);
    const auto precise = run_fake("--precise", "math_precise.json");
    const auto& r = record(precise, "mm/FADD32/throughput/m1-max");
    CHECK(r.at("probe").at("device").at("compile_options").get<std::string>().find("--precise") !=
          std::string::npos);
}

TEST_CASE(
    "probe: a chain the compiler shortens under fast math is not measured, and is with "
    "--precise") {
    const auto fast = run_fake("--fake-fail fold=FADD32", "math_fold.json");
    const auto& folded = record(fast, "mm/FADD32/throughput/m1-max");
    CHECK(folded.at("value").is_null());
    const std::string why = folded.at("probe").at("not_measured");
    CHECK(why.find("below one cycle") != std::string::npos);
    CHECK(why.find("--precise") != std::string::npos);
    // Another kernel of the same run is measured as usual.
    CHECK(record(fast, "mm/IMUL32/throughput/m1-max").at("value").is_number());

    const auto precise = run_fake("--fake-fail fold=FADD32 --precise", "math_fold_precise.json");
    const auto& kept = record(precise, "mm/FADD32/throughput/m1-max");
    REQUIRE(kept.at("value").is_number());
    CHECK(kept.at("value").get<double>() == Approx(1.0).margin(0.05));
}
