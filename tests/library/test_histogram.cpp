// histogram256 (traces/kernels/histogram256.agxk): threadgroup atomics into
// a private histogram, then one device atomic per nonzero bin. Exact, on
// uniform, skewed and single-bin inputs.
#include <catch2/catch.hpp>

#include <array>
#include <cstdint>
#include <string>

#include "sim/config/config_loader.hpp"
#include "sim/model/simulation.hpp"
#include "tests/kernel_support.hpp"

using namespace agx;
using agx::kernel::KernelWorkload;
using test::open_kernel;
using test::read_buffer;

namespace {

// Runs the kernel on inputs in [0, max] and checks every bin; returns how
// many bins are nonzero.
unsigned check_histogram(unsigned max) {
    KernelWorkload k = open_kernel("histogram256.agxk", {"n=4096", "max=" + std::to_string(max)});
    const auto in = read_buffer<std::uint32_t>(k, "in");
    simulate(load_config("m1"), k, {});
    std::array<std::uint32_t, 256> want{};
    for (auto v : in) {
        REQUIRE(v <= max);
        ++want[v];
    }
    const auto bins = read_buffer<std::uint32_t>(k, "bins");
    REQUIRE(bins.size() == 256);
    unsigned nonzero = 0;
    for (unsigned b = 0; b < 256; ++b) {
        INFO("bin " << b);
        REQUIRE(bins[b] == want[b]);
        nonzero += bins[b] != 0;
    }
    return nonzero;
}

}  // namespace

TEST_CASE("histogram256: uniform inputs fill every bin") {
    CHECK(check_histogram(255) == 256);
}

TEST_CASE("histogram256: skewed inputs fill 4 hot bins") {
    CHECK(check_histogram(3) == 4);
}

TEST_CASE("histogram256: single-bin inputs count all in bin 0") {
    CHECK(check_histogram(0) == 1);
}
