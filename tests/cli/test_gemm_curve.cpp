// traces/kernels/README.md's "GEMM across sizes": sgemm_simd_matrix_tiled
// on every core of m1-max at sizes from 256, with the shipped (hashed)
// address mapping, with the plain low bits, and with its rows padded. The
// test computes the rows at the sizes that fit its time (256, 512) and the
// README must hold them; AGXSIM_GEMM_SIZES="768 1024 1280 2048" computes and
// checks the others too (about three and a half minutes: the table's larger rows).
#include <catch2/catch.hpp>

#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/config/config_loader.hpp"
#include "tests/cli/cli_run.hpp"

using namespace agx_test;

namespace {

const char* const kLowBits =
    " --set core.l1d.set_index=low_bits --set memory.l2.set_index=low_bits"
    " --set memory.slc.set_index=low_bits --set memory.dram.address_mapping=low_bits";

// "cycles | GFLOP/s | % of FP32 peak" of one run of n x n with row stride ld.
std::string cells(unsigned n, unsigned ld, const std::string& sets) {
    const fs::path stats = scratch() / ("gemm_" + std::to_string(n) + ".json");
    const Result r = agxsim("run " + std::string(AGX_SOURCE_DIR) +
                            "/traces/kernels/sgemm_simd_matrix_tiled.agxk --config m1-max"
                            " --cores all -q --set launch.n=" +
                            std::to_string(n) + " --set launch.ld=" + std::to_string(ld) + sets +
                            " --stats " + stats.string());
    INFO(r.err);
    REQUIRE(r.code == 0);
    const auto j = nlohmann::json::parse(slurp(stats));
    const agx::MachineConfig cfg = agx::load_config("m1-max");
    const auto cycles = j.at("cycles").get<std::uint64_t>();
    const auto cores = j.at("cores_simulated").get<unsigned>();
    const double seconds = static_cast<double>(cycles) / (cfg.clock_ghz * 1e9);
    const double flops = 2.0 * n * n * n;
    const double gflops = flops / seconds / 1e9;
    const double peak = cores * cfg.core.schedulers * cfg.core.simd_width * 2 * cfg.clock_ghz;
    return std::to_string(cycles) + " | " + fixed(gflops, 0) + " | " +
           fixed(100 * gflops / peak, 1) + "%";
}

std::string row(unsigned n) {
    return "| " + std::to_string(n) + " | " + cells(n, n, "") + " | " + cells(n, n, kLowBits) +
           " | " + cells(n, n + 32, "") + " |";
}

}  // namespace

TEST_CASE("GEMM across sizes: the README's rows are the model's, hashed, plain and padded") {
    std::vector<unsigned> sizes = {256, 512};
    if (const char* more = std::getenv("AGXSIM_GEMM_SIZES")) {
        std::istringstream in(more);
        for (unsigned n; in >> n;) sizes.push_back(n);
    }
    const auto rows = marked_table_rows("traces/kernels/README.md", "<!-- gemm-table -->",
                                        "<!-- /gemm-table -->");
    for (unsigned n : sizes) {
        const std::string computed = row(n);
        INFO("traces/kernels/README.md's GEMM table needs:\n" << computed);
        CHECK(std::find(rows.begin(), rows.end(), computed) != rows.end());
    }
}
