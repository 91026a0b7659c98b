// The statistics' chip-wide aggregates: gpu.cores_total sums each additive
// per-core statistic over the cores, gpu.cores_mean averages every number.
#include <catch2/catch.hpp>

#include <string>

#include <nlohmann/json.hpp>

#include "tests/cli/cli_run.hpp"

using namespace agx_test;

TEST_CASE("stats: gpu.cores_total and gpu.cores_mean are the cores' sums and means") {
    const fs::path stats = scratch() / "aggregates.json";
    const Result r = agxsim("run " + std::string(AGX_SOURCE_DIR) +
                            "/traces/kernels/saxpy.agxk --config m1-max --cores all -q --stats " +
                            stats.string());
    INFO(r.err);
    REQUIRE(r.code == 0);
    const auto j = nlohmann::json::parse(slurp(stats));
    const auto& gpu = j.at("gpu");
    const auto& total = gpu.at("cores_total");
    const auto& mean = gpu.at("cores_mean");
    unsigned cores = 0;
    std::uint64_t misses = 0, stalls = 0, threadgroups = 0;
    double hit_rate = 0;
    for (; gpu.contains("core_" + std::to_string(cores)); ++cores) {
        const auto& c = gpu.at("core_" + std::to_string(cores));
        misses += c.at("l1d").at("misses").get<std::uint64_t>();
        hit_rate += c.at("l1d").at("hit_rate").get<double>();
        stalls += c.at("scheduler_2").at("stall_cycles").at("lsu_queue").get<std::uint64_t>();
        threadgroups += c.at("threadgroups").get<std::uint64_t>();
    }
    CHECK(cores == 32);
    CHECK(total.at("l1d").at("misses").get<std::uint64_t>() == misses);
    CHECK(total.at("scheduler_2").at("stall_cycles").at("lsu_queue").get<std::uint64_t>() ==
          stalls);
    CHECK(total.at("threadgroups").get<std::uint64_t>() == threadgroups);
    CHECK(threadgroups == 256);
    CHECK(total.at("simd_instructions") == j.at("simd_instructions"));
    CHECK(mean.at("l1d").at("hit_rate").get<double>() == Approx(hit_rate / cores));
    CHECK(mean.at("l1d").at("misses").get<double>() == Approx(double(misses) / cores));
    // A ratio or a cycle figure has a mean across cores, not a sum.
    CHECK_FALSE(total.at("l1d").contains("hit_rate"));
    CHECK_FALSE(total.contains("end_cycle"));
    CHECK(mean.contains("end_cycle"));
}
