// The kernel library's table (traces/kernels/README.md) is checked here:
// every kernel runs through `agxsim run --stats`, its row is computed from
// the statistics, and the README must hold exactly that row (followed by
// its one-sentence bottleneck). A model change that moves a figure fails
// this test until the table is updated in the same commit; the failure
// prints the row to paste.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/config/config_loader.hpp"
#include "tests/cli/cli_run.hpp"

using namespace agx_test;

namespace {

enum class Work { Flops, Bytes, None };

struct LibraryRow {
    std::string kernel;             // file in traces/kernels/, without .agxk
    std::vector<std::string> sets;  // launch values, as `--set launch.KEY=VALUE`
    std::string config;
    bool all_cores;
    Work work;
    double amount;  // floating-point operations or bytes moved to and from memory
};

// The table's rows: the kernels at the sizes the README describes, with the
// work each does (counted from the algorithm, not from the simulation).
std::vector<LibraryRow> library_rows() {
    // The default sizes of the kernels' launches.
    const double saxpy = 65536, reduce = 16384, triad = 8388608, hist = 65536, tr = 1024,
                 rows = 256, cols = 1024, stencil = 512, scan = 65536, gemm = 256;
    struct Kernel {
        const char* name;
        std::vector<std::string> sets;
        Work work;
        double amount;
    };
    // Bytes are the algorithm's: every input read and every output written
    // once (what a perfect cache would move).
    const std::vector<Kernel> kernels = {
        {"saxpy", {}, Work::Bytes, 12 * saxpy},
        {"reduce_sum", {}, Work::Bytes, 4 * reduce},
        {"collatz", {}, Work::None, 0},
        {"stream_triad", {}, Work::Bytes, 12 * triad},
        {"histogram256", {}, Work::Bytes, 4 * hist},
        {"histogram256", {"max=3"}, Work::Bytes, 4 * hist},
        {"histogram256", {"max=0"}, Work::Bytes, 4 * hist},
        {"transpose", {}, Work::Bytes, 8 * tr * tr},
        {"transpose_padded", {}, Work::Bytes, 8 * tr * tr},
        {"softmax", {}, Work::Bytes, 8 * rows * cols},
        {"stencil5", {}, Work::Bytes, 8 * stencil * stencil},
        {"scan", {}, Work::Bytes, 8 * scan},
        {"sgemm_tiled", {}, Work::Flops, 2 * gemm * gemm * gemm},
        {"sgemm_simd_matrix", {}, Work::Flops, 2 * gemm * gemm * gemm},
        {"sgemm_simd_matrix_tiled", {}, Work::Flops, 2 * gemm * gemm * gemm},
    };
    // Each on one core of m1, then on the whole of m1-max (32 cores sharing
    // the L2, the SLC and DRAM).
    std::vector<LibraryRow> out;
    for (const auto& k : kernels) out.push_back({k.name, k.sets, "m1", false, k.work, k.amount});
    for (const auto& k : kernels) out.push_back({k.name, k.sets, "m1-max", true, k.work, k.amount});
    return out;
}

std::string join(const std::vector<std::string>& parts, const std::string& sep) {
    std::string out;
    for (std::size_t i = 0; i < parts.size(); ++i) out += (i ? sep : "") + parts[i];
    return out;
}

// The row's figures, as the README writes them.
std::string computed_row(const LibraryRow& row) {
    const fs::path stats = scratch() / (row.kernel + ".json");
    std::string args = "run " + std::string(AGX_SOURCE_DIR) + "/traces/kernels/" + row.kernel +
                       ".agxk --config " + row.config + " -q --stats " + stats.string();
    for (const auto& s : row.sets) args += " --set launch." + s;
    if (row.all_cores) args += " --cores all";
    const Result r = agxsim(args);
    INFO(r.err);
    REQUIRE(r.code == 0);
    const auto j = nlohmann::json::parse(slurp(stats));
    const agx::MachineConfig cfg = agx::load_config(row.config);

    const auto cycles = j.at("cycles").get<std::uint64_t>();
    const auto instructions = j.at("simd_instructions").get<std::uint64_t>();
    const auto cores = j.at("cores_simulated").get<unsigned>();
    const double seconds = static_cast<double>(cycles) / (cfg.clock_ghz * 1e9);
    std::string achieved = "-", of_peak = "-";
    if (row.work == Work::Flops) {
        const double peak = cores * cfg.core.schedulers * cfg.core.simd_width * 2 * cfg.clock_ghz;
        const double gflops = row.amount / seconds / 1e9;
        achieved = fixed(gflops, 1) + " GFLOP/s";
        of_peak = fixed(100 * gflops / peak, 1) + "% FP32";
    } else if (row.work == Work::Bytes) {
        const double peak =
            cfg.memory.dram.bus_width_bits / 8.0 * cfg.memory.dram.data_rate_mtps / 1000;
        const double gbs = row.amount / seconds / 1e9;
        achieved = fixed(gbs, 1) + " GB/s";
        of_peak = fixed(100 * gbs / peak, 1) + "% DRAM";
    }
    const auto& res = j.at("residency");
    const auto simds = res.at("threadgroups_per_core").get<unsigned>() *
                       res.at("simds_per_threadgroup").get<unsigned>();

    // The two largest stall causes, as shares of all scheduler-cycles.
    std::vector<std::pair<std::uint64_t, std::string>> stalls;
    for (const auto& [cause, v] : j.at("stall_scheduler_cycles").items())
        stalls.emplace_back(v.get<std::uint64_t>(), cause);
    std::sort(stalls.begin(), stalls.end(), [](const auto& a, const auto& b) {
        return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
    const double scheduler_cycles = static_cast<double>(cycles) * cores * cfg.core.schedulers;
    std::vector<std::string> top;
    for (std::size_t i = 0; i < std::min<std::size_t>(2, stalls.size()); ++i)
        if (stalls[i].first > 0)
            top.push_back(stalls[i].second + " " +
                          fixed(100 * static_cast<double>(stalls[i].first) / scheduler_cycles, 0) +
                          "%");

    const std::string launch = row.sets.empty() ? "default" : join(row.sets, " ");
    const std::string where = row.config + (row.all_cores ? " x" + std::to_string(cores) : "");
    return "| " + row.kernel + " | " + launch + " | " + where + " | " + std::to_string(cycles) +
           " | " + std::to_string(instructions) + " | " +
           fixed(j.at("ipc_per_core").get<double>(), 2) + " | " + achieved + " | " + of_peak +
           " | " + std::to_string(simds) + " | " + join(top, ", ") + " |";
}

}  // namespace

TEST_CASE("the kernel library's README table holds each kernel's simulated figures") {
    const std::string readme = slurp(fs::path(AGX_SOURCE_DIR) / "traces/kernels/README.md");
    REQUIRE_FALSE(readme.empty());
    std::vector<std::string> lines;
    {
        std::istringstream in(readme);
        for (std::string line; std::getline(in, line);) lines.push_back(line);
    }
    for (const LibraryRow& row : library_rows()) {
        const std::string expected = computed_row(row);
        const bool present = std::any_of(lines.begin(), lines.end(), [&](const std::string& line) {
            // The row's figures, then its bottleneck sentence and the closing bar.
            return line.rfind(expected, 0) == 0 && line.size() > expected.size() + 2;
        });
        if (!present)  // unwrapped, to paste
            std::printf(
                "traces/kernels/README.md needs this row (then a sentence on the "
                "bottleneck and ' |'):\n%s\n",
                expected.c_str());
        CHECK(present);
    }
}
