// The parallel reduction (traces/kernels/reduce_sum.agxk): simd shuffles,
// threadgroup memory and a barrier, then one atomic per threadgroup; the
// total is exact (integers).
#include <catch2/catch.hpp>

#include <cstdint>

#include "sim/config/config_loader.hpp"
#include "sim/model/simulation.hpp"
#include "tests/kernel_support.hpp"

using namespace agx;
using agx::kernel::KernelWorkload;
using test::open_kernel;
using test::read_buffer;

TEST_CASE("reduce_sum: shuffles, threadgroup memory, a barrier and an atomic give the total") {
    KernelWorkload k = open_kernel("reduce_sum.agxk");
    const auto in = read_buffer<std::uint32_t>(k, "in");
    simulate(load_config("m1"), k, {});
    std::uint32_t sum = 0;
    for (auto v : in) sum += v;
    CHECK(read_buffer<std::uint32_t>(k, "total")[0] == sum);
}

TEST_CASE("reduce_sum runs the same on every core of the chip") {
    KernelWorkload k = open_kernel("reduce_sum.agxk", {"n=65536"});
    const auto in = read_buffer<std::uint32_t>(k, "in");
    RunOptions options;
    options.cores = 8;
    simulate(load_config("m1"), k, options);
    std::uint32_t sum = 0;
    for (auto v : in) sum += v;
    CHECK(read_buffer<std::uint32_t>(k, "total")[0] == sum);
}
