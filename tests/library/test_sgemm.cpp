// sgemm_tiled and sgemm_simd_matrix (traces/kernels/): C = A B, exact. Both
// kernels accumulate every element of C in k order with fused
// multiply-adds, so the reference does the same with std::fma and the
// results must match bit for bit.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "sim/config/config_loader.hpp"
#include "sim/model/simulation.hpp"
#include "tests/kernel_support.hpp"

using namespace agx;
using agx::kernel::KernelWorkload;
using test::open_kernel;
using test::read_buffer;

namespace {

void check_sgemm(const std::string& kernel, unsigned n) {
    KernelWorkload k = open_kernel(kernel, {"n=" + std::to_string(n)});
    const auto a = read_buffer<float>(k, "A");
    const auto b = read_buffer<float>(k, "B");
    simulate(load_config("m1"), k, {});
    const auto c = read_buffer<float>(k, "C");
    for (unsigned i = 0; i < n; ++i)
        for (unsigned j = 0; j < n; ++j) {
            float want = 0;
            for (unsigned x = 0; x < n; ++x) want = std::fma(a[i * n + x], b[x * n + j], want);
            INFO(kernel << " C[" << i << "][" << j << "]");
            REQUIRE(c[i * n + j] == want);
        }
}

}  // namespace

TEST_CASE("sgemm_tiled: C = A B through threadgroup-memory tiles, one tile") {
    check_sgemm("sgemm_tiled.agxk", 64);  // one threadgroup, four K steps
}

TEST_CASE("sgemm_tiled: C = A B through threadgroup-memory tiles, 2 x 2 tiles") {
    check_sgemm("sgemm_tiled.agxk", 128);
}

TEST_CASE("sgemm_tiled: C = A B through threadgroup-memory tiles, 3 x 3 tiles") {
    check_sgemm("sgemm_tiled.agxk", 192);  // a size that is not a power of two
}

TEST_CASE("sgemm_simd_matrix: C = A B with 8 x 8 matrix fragments") {
    check_sgemm("sgemm_simd_matrix.agxk", 64);  // 4 x 4 blocks: one full threadgroup per block row
}

TEST_CASE("sgemm_simd_matrix: C = A B with 8 x 8 matrix fragments, a partial threadgroup") {
    check_sgemm("sgemm_simd_matrix.agxk", 48);  // 3 x 3 blocks: threadgroups of 3 simds
}

TEST_CASE(
    "sgemm_simd_matrix_tiled: C = A B with matrix fragments from threadgroup tiles, 2 x 2 tiles") {
    check_sgemm("sgemm_simd_matrix_tiled.agxk", 128);
}
