// `agxsim kernel import`: listings in applegpu's syntax become kernels that
// run, and what cannot be imported is one line, exit 2, and leaves nothing.
// The listings are applegpu's output (dougallj/applegpu): programs written
// in its syntax, assembled by its assemble.py and printed by its
// disassemble.py, and the listing its README publishes.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "tests/cli/cli_run.hpp"

using namespace agx_test;

namespace {

// SAXPY, y = a x + y, the buffers' addresses and a in uniforms.
const char* kSaxpyListing =
    "   0: 72051004             get_sr           r1, sr80 (thread_position_in_grid.x)\n"
    "   4: 0511200c00c01200     device_load      0, i32, x, r2, u0_u1, r1, signed\n"
    "   c: 0519240c00c01200     device_load      0, i32, x, r3, u2_u3, r1, signed\n"
    "  14: 3800                 wait             0\n"
    "  16: 3a8dc48218460200     fmadd32          r3, r2.discard, u4, r3\n"
    "  1e: 4519244c00c01200     device_store     1, i32, x, r3, u2_u3, r1, signed, 0\n"
    "  26: 8800                 stop             \n";

const char* kSaxpyLaunch =
    "param n=1000\n"
    "launch grid=n threadgroup=256 registers=8\n"
    "buffer x size=4*n fill=iota type=f32 low=1\n"
    "buffer y size=4*n fill=constant type=f32 value=0.5\n"
    "uniform u0_u1 buffer=x\n"
    "uniform u2_u3 buffer=y\n"
    "uniform u4 value=2.5 type=f32\n";

// A loop with a break (docs.html, "Conditional Execution"): lane i counts
// up from i while below 10, leaving the loop once past 5.
const char* kBreakListing =
    "   0: 62000000             mov_imm          r0l, 0\n"
    "   4: 72051004             get_sr           r1, sr80 (thread_position_in_grid.x)\n"
    "   8: 522842a20000         if_icmp          r0l, ult, r1, 10, 1\n"
    "   e: 20c028000000         jmp_exec_none    0x36\n"
    "  14: 0e05421200000000     iadd             r1, r1, 1\n"
    "  1c: 1200425000010150     icmpsel          ugt, r0l, r1l, 5, 1, 0\n"
    "  24: 520600000000         pop_exec         r0l, 0\n"
    "  2a: 522c42a20000         while_icmp       r0l, ult, r1, 10, 1\n"
    "  30: 00c0e4ffffff         jmp_exec_any     0x14\n"
    "  36: 520e00000000         pop_exec         r0l, 1\n"
    "  3c: 72091004             get_sr           r2, sr80 (thread_position_in_grid.x)\n"
    "  40: 4509400c00c01200     device_store     0, i32, x, r1, u0_u1, r2, signed, 0\n"
    "  48: 3800                 wait             0\n"
    "  4a: 8800                 stop             \n";

template <typename T>
std::vector<T> values(const std::string& bytes) {
    std::vector<T> v(bytes.size() / sizeof(T));
    std::memcpy(v.data(), bytes.data(), v.size() * sizeof(T));
    return v;
}

// A kernel's lines without those naming the listing's path.
std::string without_path(const std::string& text) {
    std::istringstream in(text);
    std::string out;
    for (std::string line; std::getline(in, line);) {
        if (line.find("imported by `agxsim kernel import` from") != std::string::npos) continue;
        if (line.rfind("#   ", 0) == 0 && line.find(".dis") != std::string::npos) continue;
        out += line + "\n";
    }
    return out;
}

std::uint32_t collatz_steps(std::uint32_t x) {
    std::uint32_t n = 0;
    while (x != 1) {
        x = x % 2 == 0 ? x / 2 : 3 * x + 1;
        ++n;
    }
    return n;
}

}  // namespace

TEST_CASE("kernel import: an imported SAXPY runs with --launch: y = a x + y") {
    const fs::path listing = write_file("saxpy.dis", kSaxpyListing);
    const fs::path launch = write_file("saxpy.launch", kSaxpyLaunch);
    const fs::path kernel = scratch() / "saxpy.agxk";
    Result r = agxsim("kernel import " + listing.string() + " -o " + kernel.string());
    INFO(r.err);
    REQUIRE(r.code == 0);
    CHECK(r.out.find("imported 7 instructions") != std::string::npos);
    CHECK(r.err.empty());

    const fs::path y = scratch() / "y.bin";
    r = agxsim("run " + kernel.string() + " --launch " + launch.string() +
               " -q --dump y=" + y.string());
    INFO(r.err);
    REQUIRE(r.code == 0);
    const auto out = values<float>(slurp(y));
    REQUIRE(out.size() == 1000);
    for (std::size_t i = 0; i < out.size(); ++i)
        REQUIRE(out[i] == std::fma(2.5f, static_cast<float>(i + 1), 0.5f));

    // The same with the launch copied in at import, and the kernel on
    // standard output without -o.
    const fs::path whole = scratch() / "whole.agxk";
    REQUIRE(agxsim("kernel import " + listing.string() + " --launch " + launch.string() + " -o " +
                   whole.string())
                .code == 0);
    const fs::path y2 = scratch() / "y2.bin";
    REQUIRE(agxsim("run " + whole.string() + " -q --dump y=" + y2.string()).code == 0);
    CHECK(slurp(y2) == slurp(y));
    r = agxsim("kernel import " + listing.string() + " --launch " + launch.string());
    CHECK(r.code == 0);
    CHECK(r.out == slurp(whole));
}

TEST_CASE("kernel import: a loop with a break runs as applegpu's exec-mask stack says") {
    const fs::path listing = write_file("break.dis", kBreakListing);
    const fs::path launch = write_file("break.launch",
                                       "param n=100\n"
                                       "launch grid=n threadgroup=64 registers=6\n"
                                       "buffer out size=4*n fill=zero type=u32\n"
                                       "uniform u0_u1 buffer=out\n");
    const fs::path kernel = scratch() / "break.agxk";
    Result r = agxsim("kernel import " + listing.string() + " -o " + kernel.string());
    INFO(r.err);
    REQUIRE(r.code == 0);
    const fs::path out = scratch() / "out.bin";
    r = agxsim("run " + kernel.string() + " --launch " + launch.string() +
               " -q --dump out=" + out.string());
    INFO(r.err);
    REQUIRE(r.code == 0);
    const auto v = values<std::uint32_t>(slurp(out));
    REQUIRE(v.size() == 100);
    for (std::uint32_t i = 0; i < 100; ++i) {
        const std::uint32_t want = i >= 10 ? i : (i <= 5 ? 6 : i + 1);
        INFO(i);
        REQUIRE(v[i] == want);
    }
}

TEST_CASE("kernel import: the example in traces/kernels/imported is current and runs") {
    const std::string dir = std::string(AGX_SOURCE_DIR) + "/traces/kernels/imported/";
    const fs::path kernel = scratch() / "collatz.agxk";
    Result r = agxsim("kernel import " + dir + "collatz.dis -o " + kernel.string());
    INFO(r.err);
    REQUIRE(r.code == 0);
    CHECK(without_path(slurp(kernel)) == without_path(slurp(dir + "collatz.agxk")));

    const fs::path start = scratch() / "start.bin", steps = scratch() / "steps.bin";
    r = agxsim("run " + kernel.string() + " --launch " + dir + "collatz.launch -q --dump start=" +
               start.string() + " --dump steps=" + steps.string());
    INFO(r.err);
    REQUIRE(r.code == 0);
    const auto s = values<std::uint32_t>(slurp(start));
    const auto n = values<std::uint32_t>(slurp(steps));
    REQUIRE(s.size() == 4096);
    REQUIRE(n.size() == s.size());
    for (std::size_t i = 0; i < s.size(); ++i) REQUIRE(n[i] == collatz_steps(s[i]));
    // The same steps as the hand-written library kernel.
    const fs::path library = scratch() / "library_steps.bin";
    REQUIRE(agxsim("run " + std::string(AGX_SOURCE_DIR) +
                   "/traces/kernels/collatz.agxk -q --dump steps=" + library.string())
                .code == 0);
    CHECK(slurp(library) == slurp(steps));
}

TEST_CASE("kernel import: applegpu's README listing imports and runs") {
    // applegpu README.md, "Disassembler", up to its uniform_store lines
    // (no agxsim equivalent), with the stop the shader ends on.
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

TEST_CASE("kernel import: what cannot be imported is one line, exit 2, and writes nothing") {
    const fs::path kernel = scratch() / "never.agxk";
    struct Case {
        std::string listing, message;
    };
    const std::vector<Case> cases = {
        // The README's uniform_store.
        {std::string(kSaxpyListing) +
             "  28: c508803d00803000     uniform_store    2, i16, xy, 0, r1l_r1h, 8\n",
         "bad.dis:8: no agxsim equivalent for 'uniform_store'"},
        // An unknown mnemonic.
        {"   0: 72051004             get_sr           r1, sr80\n"
         "   4: 0000                 frobnicate       r1\n",
         "bad.dis:2: no agxsim equivalent for 'frobnicate'"},
        // An operand agxsim has no form for.
        {"   0: 2a85446a6400         fadd32           r1, r2.sx, r3.abs\n",
         "bad.dis:1: 'r2.sx': sign extension ('.sx') of a float source"},
        // A branch into the middle of an instruction.
        {"   0: 72051004             get_sr           r1, sr80\n"
         "   4: 20c0fcffffff         jmp_exec_none    0x2\n",
         "bad.dis:2: branch to 0x2, where no instruction of the listing starts"},
    };
    for (const Case& c : cases) {
        const fs::path listing = write_file("bad.dis", c.listing);
        const Result r = agxsim("kernel import " + listing.string() + " -o " + kernel.string());
        INFO(c.listing);
        CHECK(r.code == 2);
        CHECK(r.err.find(c.message) != std::string::npos);
        CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
        CHECK(r.out.empty());
        CHECK_FALSE(fs::exists(kernel));
    }
    const Result missing = agxsim("kernel import " + (scratch() / "nope.dis").string());
    CHECK(missing.code == 2);
    CHECK(std::count(missing.err.begin(), missing.err.end(), '\n') == 1);
}
