// Sweep descriptions (parsing, checks, the points they span), results files
// (whole rows, torn lines, locking) and metrics read from statistics.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "sim/common/errors.hpp"
#include "sim/sweep/metrics.hpp"
#include "sim/sweep/results_csv.hpp"
#include "sim/sweep/slurm_script.hpp"
#include "sim/sweep/sweep_dir.hpp"
#include "sim/sweep/sweep_spec.hpp"
#include "tests/unit/temp_file.hpp"

using namespace agx::sweep;
using nlohmann::json;

namespace {

const std::string kKernels = std::string(AGX_SOURCE_DIR) + "/traces/kernels";

json two_axes() {
    return json::parse(R"({
      "name": "t",
      "workloads": ["saxpy.agxk", {"path": "collatz.agxk", "name": "c", "set": {"launch.n": 100}}],
      "configs": ["m1", "m2"],
      "axes": [
        {"key": "core.l1d.size_bytes", "values": [4096, 8192, 16384]},
        {"zip": [{"key": "core.active_simds", "range": {"from": 1, "to": 3, "step": 1}},
                 {"key": "core.register_cache.entries", "values": [8, 16, 24]}]}
      ],
      "baseline": {"core.l1d.size_bytes": 8192, "core.register_cache.entries": 16}
    })");
}

SweepSpec parse(const json& doc) {
    return parse_sweep(doc, "s.json", kKernels);
}

std::string error_of(const json& doc) {
    try {
        parse(doc);
    } catch (const agx::InputError& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("sweep: a description spans workloads x configs x dimensions, zipped axes as one") {
    const SweepSpec s = parse(two_axes());
    REQUIRE(s.workloads.size() == 2);
    CHECK(s.workloads[0].name == "saxpy");
    CHECK(s.workloads[1].name == "c");
    REQUIRE(s.axes.size() == 3);
    REQUIRE(s.dimensions == 2);
    CHECK(s.axes[1].dimension == 1);
    CHECK(s.axes[2].dimension == 1);
    CHECK(point_count(s) == 2 * 2 * 3 * 3);
    CHECK(s.baseline == std::vector<std::size_t>{1, 1});
    CHECK(s.metrics == default_metrics());

    // The first axis outermost, after workload and config; zipped values together.
    const Point p = point_at(s, 1);
    CHECK(p.workload == 0);
    CHECK(p.config == 0);
    CHECK(p.value_index == std::vector<std::size_t>{0, 1});
    CHECK(value_text(p.value(s, 1)) == "2");
    CHECK(value_text(p.value(s, 2)) == "16");
    const Point last = point_at(s, point_count(s) - 1);
    CHECK(last.workload == 1);
    CHECK(last.config == 1);
    CHECK(last.value_index == std::vector<std::size_t>{2, 2});
    // Each point once.
    std::set<std::vector<std::size_t>> seen;
    for (std::size_t i = 0; i < point_count(s); ++i) {
        const Point q = point_at(s, i);
        std::vector<std::size_t> key = {q.workload, q.config, q.value_index[0], q.value_index[1]};
        CHECK(seen.insert(key).second);
    }
    const std::vector<std::string> sets = point_sets(s, point_at(s, point_count(s) - 1));
    CHECK(sets == std::vector<std::string>{"launch.n=100", "core.l1d.size_bytes=16384",
                                           "core.active_simds=3",
                                           "core.register_cache.entries=24"});
    CHECK(at_baseline(s, point_at(s, 4)));
    CHECK_FALSE(at_baseline(s, point_at(s, 0)));
    CHECK(at_baseline(s, point_at(s, 1), 0));  // only the first axis away from it
}

TEST_CASE("sweep: ranges step or multiply, and end at 'to'") {
    json d = two_axes();
    d["axes"] = json::parse(
        R"([{"key": "core.l1d.size_bytes", "range": {"from": 2048, "to": 65536, "times": 2}},
                                {"key": "clock_ghz", "range": {"from": 1.0, "to": 1.5, "step": 0.25}}])");
    d.erase("baseline");
    const SweepSpec s = parse(d);
    REQUIRE(s.axes[0].values.size() == 6);
    CHECK(s.axes[0].values.back() == 65536);
    CHECK(s.axes[0].values[0].is_number_integer());
    REQUIRE(s.axes[1].values.size() == 3);
    CHECK(s.axes[1].values[2].get<double>() == Approx(1.5));
}

TEST_CASE("sweep: every mistake is one line naming the file and the entry") {
    auto with = [](const char* key, json v) {
        json d = two_axes();
        d[key] = std::move(v);
        return d;
    };
    CHECK(error_of(with("axis", 1)) ==
          "s.json: axis: unknown key (expected name, description, workloads, "
          "configs, cores, set, axes, metrics, baseline)");
    CHECK(error_of(with("workloads", json::array({"nope.agxk"})))
              .rfind("s.json: workloads[0]: no such file", 0) == 0);
    CHECK(error_of(with("workloads", json::array({"saxpy.agxk", "saxpy.agxk"}))) ==
          "s.json: workloads[1]: a second workload named 'saxpy' (give it a \"name\")");
    CHECK(
        error_of(with(
            "axes", json::parse(R"([{"key": "a", "range": {"from": 1, "to": 4, "step": -1}}])"))) ==
        "s.json: axes[0].range.step: does not lead from \"from\" to \"to\"");
    CHECK(error_of(with("axes", json::parse(R"([{"key": "a", "values": []}])"))) ==
          "s.json: axes[0].values: expected a non-empty list");
    CHECK(error_of(with("axes", json::parse(R"([{"key": "a", "values": [1, 1]}])"))) ==
          "s.json: axes[0]: the value 1 appears twice");
    CHECK(error_of(with("axes", json::parse(R"([{"zip": [{"key": "a", "values": [1, 2]},
                                                          {"key": "b", "values": [1]}]}])")))
              .rfind("s.json: axes[0].zip[1]: has 1 values", 0) == 0);
    CHECK(error_of(
              with("axes",
                   json::parse(R"([{"key": "a", "values": [1]}, {"key": "a", "values": [2]}])"))) ==
          "s.json: axes[1]: the key 'a' is swept twice");
    CHECK(error_of(with("axes", json::parse(R"([{"key": "cores", "values": [0]}])"))) ==
          "s.json: axes[0]: cores takes a positive integer or \"all\", not 0");
    CHECK(error_of(with("metrics", json::array({"stall.nap"})))
              .rfind("s.json: metrics[0]: 'stall.nap' is not", 0) == 0);
    CHECK(error_of(with("metrics", json::array({"gpu..x"})))
              .rfind("s.json: metrics[0]: 'gpu..x' is not", 0) == 0);
    CHECK(error_of(with("baseline", json::parse(R"({"core.l1d.size_bytes": 1000})"))) ==
          "s.json: baseline.core.l1d.size_bytes: 1000 is not one of the axis' values");
    CHECK(error_of(
              with("baseline",
                   json::parse(R"({"core.active_simds": 1, "core.register_cache.entries": 24})")))
              .rfind("s.json: baseline.core.register_cache.entries: disagrees", 0) == 0);
    CHECK(
        error_of(with("axes",
                      json::parse(R"([{"key": "x", "range": {"from": 0, "to": 1e9, "step": 1}}])")))
            .find("more than 100000 values") != std::string::npos);
    // Axes spanning more than 2^64 points once overflowed the message's count
    // (undefined behaviour); they are refused at the axis that passes the
    // limit, before the next is expanded.
    json huge = json::array();
    for (int i = 0; i < 5; ++i)
        huge.push_back({{"key", "k" + std::to_string(i)},
                        {"range", {{"from", 1}, {"to", 100000}, {"step", 1}}}});
    CHECK(error_of(with("axes", huge)) ==
          "s.json: axes[1]: takes the sweep to 40000000000 points, more than 10000000 (split the "
          "study)");
    // Zipped ranges add values but no points: 11 of 100,000 values are refused.
    json zip = json::array();
    for (int i = 0; i < 11; ++i)
        zip.push_back({{"key", "z" + std::to_string(i)},
                       {"range", {{"from", 1}, {"to", 100000}, {"step", 1}}}});
    CHECK(error_of(with("axes", json::array({{{"zip", zip}}}))) ==
          "s.json: axes[0].zip[10]: the axes hold more than 1000000 values in all (split the "
          "study)");
    // A workload's own value of a swept key, which the axis overrode silently.
    CHECK(error_of(with("workloads", json::parse(R"([{"path": "saxpy.agxk",
                                                      "set": {"core.l1d.size_bytes": 4096}}])"))) ==
          "s.json: workloads[0].set: 'core.l1d.size_bytes' is also an axis");
    CHECK(error_of(with("workloads", json::parse(R"([{"path": "saxpy.agxk", "name": "a,b"}])"))) ==
          "s.json: workloads[0].name: 'a,b' cannot hold , \" or a newline");
}

TEST_CASE("sweep: a suite workload's default name is its benchmark id") {
    json d = two_axes();
    d["workloads"] = json::parse(R"([{"suite": "ilp_occupancy/FMUL/ilp1/simds4/32bit",
                                      "measurements": "../../validation/data/ilp_occupancy.json"}])");
    const SweepSpec spec = parse(d);
    REQUIRE(spec.workloads.size() == 1);
    CHECK(spec.workloads[0].name == "ilp_occupancy/FMUL/ilp1/simds4/32bit");
}

TEST_CASE("sweep: metrics are read from the statistics, stalls as shares of scheduler-cycles") {
    const json stats = json::parse(R"({"cycles": 100, "simd_instructions": 300, "ipc_per_core": 3.0,
        "stall_scheduler_cycles": {"dependency": 60, "no_simd": 40},
        "gpu": {"cores": [{"l1d": {"hits": 7}}]}})");
    CHECK(*metric_value(stats, "cycles") == 100);
    CHECK(*metric_value(stats, "ipc") == 3.0);
    CHECK(*metric_value(stats, "stall.dependency") == Approx(60.0 / 400));
    CHECK(*metric_value(stats, "gpu.cores.0.l1d.hits") == 7);
    CHECK_FALSE(metric_value(stats, "gpu.cores.1.l1d.hits"));
    CHECK_FALSE(metric_value(stats, "gpu.cores"));  // not a number
    CHECK(expand_metric("stalls").size() == default_metrics().size() - 3);
}

TEST_CASE("sweep: a results file keeps whole rows, cuts a torn last line and admits one writer") {
    agx::test::TempFile f(".csv");
    const std::vector<std::string> header = {"point", "workload", "error"};
    {
        ResultsFile r(f.path(), header);
        r.append({"0", "a", ""});
        r.append({"2", "b", "exit 2: x.json: bad, \"quoted\"\nsecond line"});
        CHECK_THROWS_WITH(ResultsFile(f.path(), header),
                          f.path() + ": another sweep is writing to it");
    }
    // A crash mid-row leaves a line without its newline.
    std::ofstream(f.path(), std::ios::app) << "3,c,par";
    {
        ResultsFile r(f.path(), header);
        REQUIRE(r.rows().size() == 2);
        CHECK(r.rows().at(2)[2] == "exit 2: x.json: bad, \"quoted\" second line");
        r.append({"3", "c", ""});
    }
    const ResultsTable t = read_results(f.path());
    CHECK(t.torn_bytes == 0);
    REQUIRE(t.rows.size() == 3);
    CHECK(t.rows[2] == std::vector<std::string>{"3", "c", ""});
    CHECK_THROWS_WITH(ResultsFile(f.path(), {"point", "other"}),
                      Catch::Contains("holds other columns than this sweep's"));
    std::filesystem::remove(f.path() + ".lock");
}

TEST_CASE("sweep: shards split the points by number, and the array script runs each") {
    const Shard s = parse_shard("1/3");
    CHECK(s.contains(4));
    CHECK_FALSE(s.contains(3));
    CHECK_THROWS_WITH(parse_shard("3/3"), "--shard 3/3: expected 0 <= I < N");
    CHECK_THROWS_AS(parse_shard("x"), agx::InputError);
    SlurmOptions o;
    o.executable = "/opt/agx sim/agxsim";
    o.sweep_file = "/s/sweep.json";
    o.out_dir = "/cluster/out";
    o.shards = 8;
    o.array_limit = 2;
    o.partition = "short";
    o.job_name = "agxsim-t";
    const std::string script = slurm_script(o);
    CHECK(script.rfind("#!/bin/sh\n", 0) == 0);
    CHECK(script.find("#SBATCH --array=0-7%2\n") != std::string::npos);
    CHECK(script.find("#SBATCH --partition=short\n") != std::string::npos);
    CHECK(script.find(
              "exec '/opt/agx sim/agxsim' sweep run '/s/sweep.json' --out '/cluster/out' --shard "
              "\"${SLURM_ARRAY_TASK_ID}/8\"") != std::string::npos);
    o.partition = "a b";
    CHECK_THROWS_AS(slurm_script(o), agx::InputError);
}
