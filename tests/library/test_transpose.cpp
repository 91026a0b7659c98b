// transpose and transpose_padded (traces/kernels/): out = in transposed
// through threadgroup memory, exact; the padded tile avoids the bank
// conflicts of the plain one's column reads.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>

#include "sim/config/config_loader.hpp"
#include "sim/model/simulation.hpp"
#include "sim/timing/stall_cause.hpp"
#include "tests/kernel_support.hpp"

using namespace agx;
using agx::kernel::KernelWorkload;
using test::open_kernel;
using test::read_buffer;

namespace {

RunResult check_transpose(const std::string& kernel) {
    const unsigned n = 96;  // 3 x 3 tiles
    KernelWorkload k = open_kernel(kernel, {"n=" + std::to_string(n)});
    const auto in = read_buffer<float>(k, "in");
    const RunResult r = simulate(load_config("m1"), k, {});
    const auto out = read_buffer<float>(k, "out");
    for (unsigned y = 0; y < n; ++y)
        for (unsigned x = 0; x < n; ++x) {
            INFO(kernel << " out[" << y << "][" << x << "]");
            REQUIRE(out[y * n + x] == in[x * n + y]);
        }
    return r;
}

std::uint64_t bank_waits(const RunResult& r) {
    return r.stall_cycles[static_cast<std::size_t>(StallCause::ThreadgroupBank)];
}

}  // namespace

// The plain tile's column reads put a simd's 32 lanes in one bank: 32 passes
// per access, 4 column reads per simd.
TEST_CASE("transpose: out is in transposed, with the bank conflicts of a 32-word stride") {
    const RunResult r = check_transpose("transpose.agxk");
    CHECK(r.stats["gpu"]["core_0"]["threadgroup_memory"]["conflict_cycles"].get<std::uint64_t>() ==
          9 * 8 * 4 * 31);
    CHECK(bank_waits(r) > 0);
}

TEST_CASE("transpose_padded: out is in transposed, without bank conflicts") {
    const RunResult r = check_transpose("transpose_padded.agxk");
    CHECK(r.stats["gpu"]["core_0"]["threadgroup_memory"]["conflict_cycles"].get<std::uint64_t>() ==
          0);
}
