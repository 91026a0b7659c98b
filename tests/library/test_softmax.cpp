// softmax (traces/kernels/softmax.agxk): one simd per row, the SFU's exp2
// and rcp. Checked against a double-precision reference within 1e-5
// relative per element (the kernel's float sum of 32 lane partials and its
// rounded exp2 argument move the result by a few float ulps), and every row
// summing to 1 within 1e-5.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>

#include "sim/config/config_loader.hpp"
#include "sim/model/simulation.hpp"
#include "tests/kernel_support.hpp"

using namespace agx;
using agx::kernel::KernelWorkload;
using test::open_kernel;
using test::read_buffer;

TEST_CASE("softmax: every row is exp(x - max) / sum, and sums to 1") {
    const unsigned rows = 12, cols = 96;  // a partial threadgroup: 12 simds in 2 groups
    KernelWorkload k = open_kernel(
        "softmax.agxk", {"rows=" + std::to_string(rows), "cols=" + std::to_string(cols)});
    const auto in = read_buffer<float>(k, "in");
    simulate(load_config("m1"), k, {});
    const auto out = read_buffer<float>(k, "out");
    for (unsigned r = 0; r < rows; ++r) {
        const float* x = &in[r * cols];
        const double m = *std::max_element(x, x + cols);
        double sum = 0;
        for (unsigned j = 0; j < cols; ++j) sum += std::exp(x[j] - m);
        double row_sum = 0;
        for (unsigned j = 0; j < cols; ++j) {
            const double want = std::exp(x[j] - m) / sum;
            INFO("row " << r << " column " << j);
            REQUIRE(std::abs(out[r * cols + j] - want) <= 1e-5 * want);
            row_sum += out[r * cols + j];
        }
        CHECK(std::abs(row_sum - 1.0) < 1e-5);
    }
}
