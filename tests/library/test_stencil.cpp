// stencil5 (traces/kernels/stencil5.agxk): exact against a reference that
// sums in the kernel's order with the same roundings; boundary points are
// copied. n = 40 leaves partial threadgroups in x.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "sim/config/config_loader.hpp"
#include "sim/model/simulation.hpp"
#include "tests/kernel_support.hpp"

using namespace agx;
using agx::kernel::KernelWorkload;
using test::open_kernel;
using test::read_buffer;

TEST_CASE("stencil5: interior points are the 5-point stencil, the boundary is copied") {
    const unsigned n = 40;
    KernelWorkload k = open_kernel("stencil5.agxk", {"n=" + std::to_string(n)});
    const auto in = read_buffer<float>(k, "in");
    simulate(load_config("m1"), k, {});
    const auto out = read_buffer<float>(k, "out");
    for (unsigned y = 0; y < n; ++y)
        for (unsigned x = 0; x < n; ++x) {
            const unsigned i = y * n + x;
            float want = in[i];
            if (x > 0 && x < n - 1 && y > 0 && y < n - 1) {
                const float s = ((in[i - 1] + in[i + 1]) + in[i - n]) + in[i + n];
                want = std::fma(s, 0.125f, in[i] * 0.5f);
            }
            INFO("(" << x << ", " << y << ")");
            REQUIRE(out[i] == want);
        }
}
