// stream_triad (traces/kernels/stream_triad.agxk): a = b + s c with 128-bit
// loads and stores, exact (one fused multiply-add per element).
#include <catch2/catch.hpp>

#include <cmath>

#include "sim/config/config_loader.hpp"
#include "sim/model/simulation.hpp"
#include "tests/kernel_support.hpp"

using namespace agx;
using agx::kernel::KernelWorkload;
using test::open_kernel;
using test::read_buffer;

TEST_CASE("stream_triad: a = b + 3 c for every element") {
    KernelWorkload k = open_kernel("stream_triad.agxk", {"n=8192"});
    const auto b = read_buffer<float>(k, "b");
    const auto c = read_buffer<float>(k, "c");
    const RunResult r = simulate(load_config("m1"), k, {});
    const auto a = read_buffer<float>(k, "a");
    REQUIRE(a.size() == 8192);
    for (std::size_t i = 0; i < a.size(); ++i) REQUIRE(a[i] == std::fma(c[i], 3.0f, b[i]));
    CHECK(r.simd_instructions == 8192 / 4 / 32 * 10);
}
