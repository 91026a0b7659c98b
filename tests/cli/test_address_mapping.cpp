// The address mapping end to end: a row-per-simdgroup read of a matrix whose
// rows are 4 KB apart (a power of two) against 4.5 KB apart, on every core of
// m1-max, as a matrix-vector product reads its matrix.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "tests/cli/cli_run.hpp"

using namespace agx_test;

namespace {

// GB/s the kernel reads its matrix at: bytes / (cycles / GHz).
double row_sum_gb_per_s(unsigned cols, const std::string& sets) {
    const std::string stats = (scratch() / ("row_sum_" + std::to_string(cols) + ".json")).string();
    const Result r = agxsim("run " + std::string(AGX_SOURCE_DIR) +
                            "/tests/cli/kernels/row_sum.agxk --config m1-max --cores all"
                            " --set launch.rows=2048 --set launch.cols=" +
                            std::to_string(cols) + " " + sets + " --stats " + stats);
    INFO(r.err);
    REQUIRE(r.code == 0);
    const auto j = nlohmann::json::parse(slurp(stats));
    const double cycles = j.at("cycles").get<double>();
    const double bytes = 2048.0 * cols * 4;
    return bytes / (cycles / 1.296);
}

}  // namespace

TEST_CASE("address mapping: 4 KB- and 4.5 KB-stride rows stream within 10% on m1-max") {
    const double pow2 = row_sum_gb_per_s(1024, "");
    const double odd = row_sum_gb_per_s(1152, "");
    INFO("4 KB stride " << pow2 << " GB/s, 4.5 KB stride " << odd << " GB/s");
    CHECK(pow2 == Approx(odd).epsilon(0.10));
    // The plain low-bits mapping puts every 4 KB row on the same channel and
    // L1 set: the same kernel is several times slower there.
    const std::string low =
        "--set core.l1d.set_index=low_bits --set memory.l2.set_index=low_bits"
        " --set memory.slc.set_index=low_bits --set memory.dram.address_mapping=low_bits";
    const double plain = row_sum_gb_per_s(1024, low);
    INFO("4 KB stride, low bits: " << plain << " GB/s");
    CHECK(plain < pow2 / 2);
}
