// Kernels that run (traces/kernels/): saxpy and collatz, each simulated on the m1 config, its
// buffers compared with a C++ reference computed here from the buffers'
// initial contents. One simulation per test case, one test case per process.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "sim/config/config_loader.hpp"
#include "sim/kernel/kernel_workload.hpp"
#include "sim/model/simulation.hpp"
#include "tests/kernel_support.hpp"

using namespace agx;
using agx::kernel::KernelWorkload;

using test::open_kernel;
using test::read_buffer;

TEST_CASE("saxpy: y equals a * x + y, fused, for every element") {
    KernelWorkload k = open_kernel("saxpy.agxk", {"n=5000"});  // not a multiple of 256
    const auto x = read_buffer<float>(k, "x");
    const auto y0 = read_buffer<float>(k, "y");
    const RunResult r = simulate(load_config("m1"), k, {});
    const auto y = read_buffer<float>(k, "y");
    REQUIRE(y.size() == 5000);
    for (std::size_t i = 0; i < y.size(); ++i) REQUIRE(y[i] == std::fma(2.5f, x[i], y0[i]));
    // 20 threadgroups of 8 simds; the last has 136 threads, so 5 simds
    // with lanes (the fifth with 8) and 3 that end at once.
    CHECK(r.simd_instructions == (19 * 8 + 5) * 7);
    CHECK(r.cycles > 0);
}

TEST_CASE("collatz: a data-dependent loop with nested divergence gives every lane's count") {
    KernelWorkload k = open_kernel("collatz.agxk", {"n=1024"});
    const auto start = read_buffer<std::uint32_t>(k, "start");
    simulate(load_config("m1"), k, {});
    const auto steps = read_buffer<std::uint32_t>(k, "steps");
    for (std::size_t i = 0; i < start.size(); ++i) {
        std::uint64_t x = start[i];
        std::uint32_t n = 0;
        while (x != 1) {
            x = x % 2 ? 3 * x + 1 : x / 2;
            ++n;
        }
        REQUIRE(steps[i] == n);
    }
}
