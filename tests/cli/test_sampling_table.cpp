// docs/performance.md's "Full against sampled": each library kernel at a
// large launch, simulated whole and with `--sample`. The test computes the
// rows whose two runs fit its time (a few seconds) and the table must hold
// their simulated cells (cycles, error, bound, threadgroups in detail, top
// stall); AGXSIM_SAMPLING_ROWS=all computes and checks every row (about
// five minutes). The host-time columns are measurements, not checked.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/cli/cli_run.hpp"

using namespace agx_test;

namespace {

struct SamplingRow {
    const char* kernel;
    const char* launch;  // KEY=VALUE of the kernel's launch, or empty for its default
    const char* config;
    const char* cores;
    bool by_default;  // cheap enough to check on every run
};

const SamplingRow kSamplingRows[] = {
    {"saxpy", "n=4194304", "m1", "1", true},
    {"reduce_sum", "n=4194304", "m1", "1", true},
    {"collatz", "n=524288", "m1", "1", false},
    {"histogram256", "n=4194304", "m1", "1", false},
    {"transpose_padded", "n=4096", "m1", "1", false},
    {"softmax", "rows=8192", "m1", "1", false},
    {"stencil5", "n=2048", "m1", "1", false},
    {"scan", "n=4194304", "m1", "1", false},
    {"sgemm_tiled", "n=2048", "m1", "1", false},
    {"stream_triad", "", "m1", "1", false},
    {"saxpy", "n=16777216", "m1-max", "all", false},
    {"stream_triad", "", "m1-max", "all", false},
    {"stencil5", "n=8192", "m1-max", "all", false},
    {"scan", "n=1048576", "m1-max", "all", false},
};

nlohmann::json sampling_run_stats(const SamplingRow& row, const std::string& extra,
                                  const std::string& tag) {
    const fs::path stats = scratch() / (std::string(row.kernel) + "_" + tag + ".json");
    const std::string launch =
        *row.launch ? std::string(" --set launch.") + row.launch : std::string();
    const Result r = agxsim("run " + std::string(AGX_SOURCE_DIR) + "/traces/kernels/" + row.kernel +
                            ".agxk" + launch + " --config " + row.config + " --cores " + row.cores +
                            " -q --stats " + stats.string() + extra);
    INFO(r.err);
    REQUIRE(r.code == 0);
    return nlohmann::json::parse(slurp(stats));
}

// The largest stall cause and its share of the scheduler-cycles.
std::string top_stall_text(const nlohmann::json& j) {
    std::string name;
    double most = -1, all = 0;
    for (const auto& [cause, v] : j.at("stall_scheduler_cycles").items()) {
        all += v.get<double>();
        if (v.get<double>() > most) {
            most = v.get<double>();
            name = cause;
        }
    }
    all += j.at("simd_instructions").get<double>();
    return name + " " + fixed(100 * most / all, 1) + "%";
}

std::string signed_share(double v) {
    return (v >= 0 ? "+" : "") + fixed(v, 1) + "%";
}

// The row's simulated cells, from its first `|` to the "in detail" column.
std::string sampling_row_cells(const SamplingRow& row) {
    const nlohmann::json full = sampling_run_stats(row, "", "full");
    const nlohmann::json sampled = sampling_run_stats(row, " --sample", "sampled");
    const double f = full.at("cycles").get<double>(), s = sampled.at("cycles").get<double>();
    const nlohmann::json& e = sampled.at("sampling");
    const double bound = e.at("error_bound_cycles").get<double>();
    const auto detailed = e.at("detailed_threadgroups").get<std::uint64_t>();
    const auto all = detailed + e.at("skipped_threadgroups").get<std::uint64_t>();
    return std::string("| ") + row.kernel + " | " + (*row.launch ? row.launch : "default") + " | " +
           row.config + (std::string(row.cores) == "all" ? " x32" : "") + " | " +
           std::to_string(full.at("cycles").get<std::uint64_t>()) + " | " +
           std::to_string(sampled.at("cycles").get<std::uint64_t>()) + " | " +
           signed_share(100 * (s - f) / f) + " | " +
           (bound < 0 ? std::string("unknown") : "+-" + fixed(100 * bound / s, 1) + "%") + " | " +
           std::to_string(detailed) + " of " + std::to_string(all) + " | " + top_stall_text(full) +
           " / " + top_stall_text(sampled) + " |";
}

}  // namespace

TEST_CASE("docs/performance.md: full against sampled is what the model gives") {
    const bool every = std::getenv("AGXSIM_SAMPLING_ROWS") &&
                       std::string(std::getenv("AGXSIM_SAMPLING_ROWS")) == "all";
    const auto rows = marked_table_rows("docs/performance.md", "<!-- sampling-table -->",
                                        "<!-- /sampling-table -->");
    unsigned checked = 0;
    for (const SamplingRow& row : kSamplingRows) {
        if (!row.by_default && !every) continue;
        const std::string computed = sampling_row_cells(row);
        INFO("docs/performance.md's sampling table needs a row starting:\n" << computed);
        CHECK(std::any_of(rows.begin(), rows.end(), [&](const std::string& r) {
            return r.compare(0, computed.size(), computed) == 0;
        }));
        ++checked;
    }
    CHECK(checked >= 2);
    CHECK(rows.size() == sizeof kSamplingRows / sizeof kSamplingRows[0]);
}
