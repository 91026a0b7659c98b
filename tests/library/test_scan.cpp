// scan (traces/kernels/scan.agxk): an exclusive prefix sum in one pass with
// a chained look-back between threadgroups; exact (integers), on one core
// and on every core of the chip (where blocks wait on blocks of other cores).
#include <catch2/catch.hpp>

#include <cstdint>

#include "sim/config/config_loader.hpp"
#include "sim/model/simulation.hpp"
#include "tests/kernel_support.hpp"

using namespace agx;
using agx::kernel::KernelWorkload;
using test::open_kernel;
using test::read_buffer;

namespace {

void check_scan(unsigned cores) {
    KernelWorkload k = open_kernel("scan.agxk", {"n=8192"});
    const auto in = read_buffer<std::uint32_t>(k, "in");
    RunOptions options;
    options.cores = cores;
    simulate(load_config("m1"), k, options);
    const auto out = read_buffer<std::uint32_t>(k, "out");
    std::uint32_t sum = 0;
    for (std::size_t i = 0; i < in.size(); ++i) {
        INFO("element " << i);
        REQUIRE(out[i] == sum);
        sum += in[i];
    }
    // Every block published its inclusive prefix, marked by the top bit.
    const auto flags = read_buffer<std::uint32_t>(k, "flags");
    REQUIRE(flags.size() == 8192 / 256);
    CHECK(flags.back() == (sum | 0x80000000u));
}

}  // namespace

TEST_CASE("scan: every element is the sum of those before it, on one core") {
    check_scan(1);
}

TEST_CASE("scan: the same on every core of the chip") {
    check_scan(8);
}
