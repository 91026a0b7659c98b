// `agxsim kernel import`: a listing in applegpu's syntax becomes a kernel
// that runs, and what cannot be imported leaves nothing behind.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "tests/cli/cli_run.hpp"

using namespace agx_test;

namespace {

// SAXPY as applegpu's disassembler prints a compiled one (y = a x + y with
// the buffers and a in uniforms).
const char* kSaxpyListing =
    "   0: 72051004             get_sr           r1, sr80 (thread_position_in_grid.x)\n"
    "   4: 0509040d00c43200     device_load      0, i32, x, r2, u0_u1, r1, signed\n"
    "   c: 050d040d00c43200     device_load      0, i32, x, r3, u2_u3, r1, signed\n"
    "  14: 3800                 wait             0\n"
    "  16: 3a8d446224480200     fmadd32          r3, r2.discard, u4, r3\n"
    "  1e: 450d040d00c43200     device_store     1, i32, x, r3, u2_u3, r1, signed\n"
    "  26: 8800                 stop\n";

const char* kSaxpyLaunch =
    "param n=1000\n"
    "launch grid=n threadgroup=256 registers=8\n"
    "buffer x size=4*n fill=iota type=f32 low=1\n"
    "buffer y size=4*n fill=constant type=f32 value=0.5\n"
    "uniform u0_u1 buffer=x\n"
    "uniform u2_u3 buffer=y\n"
    "uniform u4 value=2.5 type=f32\n";

std::vector<float> floats(const std::string& bytes) {
    std::vector<float> v(bytes.size() / 4);
    std::memcpy(v.data(), bytes.data(), v.size() * 4);
    return v;
}

}  // namespace

TEST_CASE("an imported listing runs: y = a x + y") {
    const fs::path listing = write_file("saxpy.dis", kSaxpyListing);
    const fs::path launch = write_file("saxpy.launch", kSaxpyLaunch);
    const fs::path kernel = scratch() / "saxpy.agxk";
    Result r = agxsim("kernel import " + listing.string() + " -o " + kernel.string());
    INFO(r.err);
    REQUIRE(r.code == 0);
    CHECK(r.out.find("imported 7 instructions") != std::string::npos);

    const fs::path y = scratch() / "y.bin";
    r = agxsim("run " + kernel.string() + " --launch " + launch.string() +
               " -q --dump y=" + y.string());
    INFO(r.err);
    REQUIRE(r.code == 0);
    const auto out = floats(slurp(y));
    REQUIRE(out.size() == 1000);
    for (std::size_t i = 0; i < out.size(); ++i)
        REQUIRE(out[i] == std::fma(2.5f, static_cast<float>(i + 1), 0.5f));

    // The same with the launch copied in at import.
    const fs::path whole = scratch() / "whole.agxk";
    REQUIRE(agxsim("kernel import " + listing.string() + " --launch " + launch.string() + " -o " +
                   whole.string())
                .code == 0);
    const fs::path y2 = scratch() / "y2.bin";
    REQUIRE(agxsim("run " + whole.string() + " -q --dump y=" + y2.string()).code == 0);
    CHECK(slurp(y2) == slurp(y));
}

TEST_CASE("an import that fails is one line, exit 2, and writes nothing") {
    const fs::path listing = write_file(
        "bad.dis", std::string(kSaxpyListing) +
                       "  28: c508803d00803000     uniform_store    2, i16, xy, 0, r1l_r1h, 8\n");
    const fs::path kernel = scratch() / "never.agxk";
    const Result r = agxsim("kernel import " + listing.string() + " -o " + kernel.string());
    CHECK(r.code == 2);
    CHECK(r.err.find("bad.dis:8: no agxsim equivalent for 'uniform_store'") != std::string::npos);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    CHECK_FALSE(fs::exists(kernel));
}

TEST_CASE("the listing published in applegpu's README imports and runs") {
    // applegpu's README ("Disassembler"): a shader's code up to its two
    // uniform_store instructions, which have no agxsim equivalent, so the
    // listing stops before them (with the stop the shader would end on).
    const fs::path listing = write_file(
        "readme.dis",
        "   0: 0501040d00c43200     device_load      2, 0, i32, pair, 4, r0_r1, u2_u3, 0, lsl 1\n"
        "   8: 3800                 wait             0\n"
        "   a: be890a042c00         convert          u32_to_f, $r2, r0.discard, 1\n"
        "  10: be810a242c00         convert          u32_to_f, $r0, r1.discard, 1\n"
        "  16: 9a85c4020200         fmul             $r1, r2.discard, 0.5\n"
        "  1c: 0a05c282             rcp              r1, r1.discard\n"
        "  20: 9a81c0020200         fmul             $r0, r0.discard, 0.5\n"
        "  26: 0a01c082             rcp              r0, r0.discard\n"
        "  2a: 8800                 stop\n");
    const fs::path launch = write_file("readme.launch",
                                       "launch grid=64 threadgroup=64 registers=8\n"
                                       "buffer u size=64 fill=iota type=u32 low=2\n"
                                       "uniform u2_u3 buffer=u\n");
    const fs::path kernel = scratch() / "readme.agxk";
    Result r = agxsim("kernel import " + listing.string() + " --launch " + launch.string() +
                      " -o " + kernel.string());
    INFO(r.err);
    REQUIRE(r.code == 0);
    const fs::path stats = scratch() / "readme.json";
    r = agxsim("run " + kernel.string() + " -q --stats " + stats.string());
    INFO(r.err);
    REQUIRE(r.code == 0);
    CHECK(slurp(stats).find("\"simd_instructions\": 18") != std::string::npos);  // 2 simds x 9
}
