// The figures a paper reports, from `agxsim run`: the simulated time, the
// floating-point rate against the FP32 peak, and the bandwidth of the
// kernel's own device accesses. Each is checked against what the kernel's
// launch implies, counted independently of the model: saxpy does one fused
// multiply-add and moves 12 bytes per element; a GEMM does 2 n^3 flops.
#include <catch2/catch.hpp>

#include <string>

#include <nlohmann/json.hpp>

#include "tests/cli/cli_run.hpp"

using namespace agx_test;

namespace {

nlohmann::json run_stats(const std::string& args, std::string* summary = nullptr) {
    const fs::path stats = scratch() / "stats.json";
    const Result r = agxsim("run " + args + " --stats " + stats.string());
    INFO(r.out << r.err);
    REQUIRE(r.code == 0);
    if (summary) *summary = r.out;
    return nlohmann::json::parse(slurp(stats));
}

}  // namespace

TEST_CASE(
    "run reports simulated seconds, GFLOP/s and GB/s: saxpy's are its launch's over its time") {
    std::string summary;
    const auto j =
        run_stats(library_kernel("saxpy.agxk") + " --config m1 --set launch.n=16384", &summary);
    const double n = 16384;
    const double cycles = j.at("cycles").get<double>();
    CHECK(j.at("clock_ghz").get<double>() == Approx(1.278));
    CHECK(j.at("seconds").get<double>() == Approx(cycles / 1.278e9));
    CHECK(j.at("flops").get<double>() == 2 * n);          // one fmadd32 per element
    CHECK(j.at("device_bytes").get<double>() == 12 * n);  // x and y read, y written
    const double seconds = j.at("seconds").get<double>();
    CHECK(j.at("gflop_per_s").get<double>() == Approx(2 * n / seconds / 1e9));
    CHECK(j.at("device_gb_per_s").get<double>() == Approx(12 * n / seconds / 1e9));
    // One m1 core: 4 schedulers x 32 lanes x 2 flops per cycle at 1.278 GHz.
    CHECK(j.at("fp32_peak_gflop_per_s").get<double>() == Approx(4 * 32 * 2 * 1.278));
    CHECK(j.at("issue_slot_share").get<double>() == Approx(j.at("ipc_per_core").get<double>() / 4));
    // Every flop is 32-bit; each achieved figure is a share of the peak its
    // key names. m1's DRAM: a 128-bit bus at 4266 MT/s, 68.3 GB/s.
    CHECK(j.at("fp16_flops").get<double>() == 0);
    CHECK(j.at("fp32_gflop_per_s").get<double>() == Approx(j.at("gflop_per_s").get<double>()));
    CHECK(j.at("fp32_peak_share").get<double>() ==
          Approx(j.at("gflop_per_s").get<double>() / (4 * 32 * 2 * 1.278)));
    CHECK(j.at("dram_peak_gb_per_s").get<double>() == Approx(128 / 8.0 * 4266 / 1000));
    CHECK(j.at("dram_bandwidth_share").get<double>() ==
          Approx(j.at("device_gb_per_s").get<double>() / (128 / 8.0 * 4266 / 1000)));
    // The summary prints them.
    CHECK(summary.find(" GFLOP/s FP32 (") != std::string::npos);
    CHECK(summary.find("% of FP32 peak 327)") != std::string::npos);
    CHECK(summary.find(" GB/s device memory (") != std::string::npos);
    CHECK(summary.find("% of DRAM peak 68)") != std::string::npos);
    CHECK(summary.find("FP16") == std::string::npos);  // none to report
    CHECK(summary.find("% of the issue slots, 4 per cycle)") != std::string::npos);
}

TEST_CASE("run counts a GEMM's 2 n^3 flops, from fused multiply-adds or simd matrix instructions") {
    for (const char* k : {"sgemm_tiled.agxk", "sgemm_simd_matrix.agxk"}) {
        INFO(k);
        const auto j = run_stats(library_kernel(k) + " --config m1 --set launch.n=64");
        CHECK(j.at("flops").get<double>() == 2.0 * 64 * 64 * 64);
    }
}

TEST_CASE("the FP32 peak is the simulated cores': m1-max's 32 cores reach 10.6 TFLOP/s") {
    const auto j = run_stats(library_kernel("saxpy.agxk") +
                             " --config m1-max --cores all --set launch.n=8192");
    CHECK(j.at("fp32_peak_gflop_per_s").get<double>() == Approx(32 * 4 * 32 * 2 * 1.296));
}

TEST_CASE("run reports 16-bit flops apart, against the FP16 peak") {
    // fadd16_ilp4: 88 simds of 4 chains of 1024 fadd16 each, one flop a lane.
    std::string summary;
    const auto j =
        run_stats(std::string(AGX_SOURCE_DIR) + "/traces/examples/fadd16_ilp4.trace", &summary);
    CHECK(j.at("fp16_flops").get<double>() == 88.0 * 4 * 1024 * 32);
    CHECK(j.at("flops").get<double>() == j.at("fp16_flops").get<double>());
    CHECK(j.at("fp32_gflop_per_s").get<double>() == 0);
    CHECK(j.at("fp16_peak_gflop_per_s").get<double>() == Approx(4 * 32 * 2 * 1.278));
    CHECK(j.at("fp16_peak_share").get<double>() ==
          Approx(j.at("fp16_gflop_per_s").get<double>() / (4 * 32 * 2 * 1.278)));
    CHECK(summary.find(" GFLOP/s FP16 (") != std::string::npos);
    CHECK(summary.find("% of FP16 peak 327)") != std::string::npos);
}
