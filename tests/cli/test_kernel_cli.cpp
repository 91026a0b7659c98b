// End to end: `agxsim run KERNEL`, `--dump`, `--launch`, `--set launch.`,
// `agxsim kernel record`, and bad kernels (one line, exit 2, no file left).
#include <catch2/catch.hpp>

#include <sys/resource.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/kernel/kernel_workload.hpp"
#include "tests/cli/cli_run.hpp"
#include "tests/kernel_support.hpp"

using namespace agx_test;

namespace {

// A kernel whose loop never ends: its loop is at line 8, pc 0xc.
const char* const kSpinKernel =
    "agxsim-kernel 1\n"
    "launch grid=4096 threadgroup=128 registers=8\n"
    "buffer out size=16384 fill=zero\n"
    "uniform u0_u1 buffer=out\n"
    "  mov_imm r0l, 0\n"
    "  mov_imm r1, 0\n"
    "loop:\n"
    "  iadd32 r1, r1, 1\n"
    "  jmp_exec_any loop\n"
    "  stop\n";

std::uint64_t cycles_of(const fs::path& stats) {
    return nlohmann::json::parse(slurp(stats)).at("cycles").get<std::uint64_t>();
}

}  // namespace

TEST_CASE("run saxpy --dump y=y.npy: y equals a*x+y") {
    agx::kernel::KernelWorkload k(agx::kernel::load_kernel(library_kernel("saxpy.agxk"), "", {}));
    const auto x = agx::test::read_buffer<float>(k, "x");
    const auto y0 = agx::test::read_buffer<float>(k, "y");
    const fs::path y = scratch() / "y.npy";
    auto r = agxsim("run " + library_kernel("saxpy.agxk") + " --config m1 --dump y=" + y.string());
    INFO(r.err);
    REQUIRE(r.code == 0);
    CHECK(r.out.find("cycles") != std::string::npos);
    const auto out = agx::test::npy_values<float>(y.string(), agx::kernel::ElementType::F32);
    REQUIRE(out.size() == x.size());
    for (std::size_t i = 0; i < out.size(); ++i) REQUIRE(out[i] == std::fma(2.5f, x[i], y0[i]));
}

TEST_CASE("a --launch file replaces the kernel's launch: buffers from .npy files, raw dumps") {
    // x = 0, 1, 2, ...; y = 1000 - i, written as .npy by a first run's dump.
    const fs::path iota = write_file("iota.launch",
                                     "param n=300\n"
                                     "launch grid=n threadgroup=64 registers=8\n"
                                     "buffer x size=4*n fill=iota type=f32\n"
                                     "buffer y size=4*n fill=iota type=f32 low=-1000\n"
                                     "uniform u0_u1 buffer=x\nuniform u2_u3 buffer=y\n"
                                     "uniform u4 value=0 type=f32\n");
    const fs::path xs = scratch() / "x.npy", ys = scratch() / "y0.npy";
    auto r = agxsim("run " + library_kernel("saxpy.agxk") + " -q --launch " + iota.string() +
                    " --dump x=" + xs.string() + " --dump y=" + ys.string());
    INFO(r.err);
    REQUIRE(r.code == 0);  // a = 0: y stays as it was
    const fs::path files = write_file(
        "files.launch",
        "launch grid=300 threadgroup=64 registers=8\n"
        "buffer x size=1200 fill=file path=" +
            xs.string() + "\n" + "buffer y size=1200 fill=file path=" + ys.string() + "\n" +
            "uniform u0_u1 buffer=x\nuniform u2_u3 buffer=y\n"
            "uniform u4 value=-2 type=f32\n");
    const fs::path raw = scratch() / "y.bin";
    r = agxsim("run " + library_kernel("saxpy.agxk") + " -q --launch " + files.string() +
               " --dump y=" + raw.string());
    INFO(r.err);
    REQUIRE(r.code == 0);
    const std::string bytes = slurp(raw);
    REQUIRE(bytes.size() == 1200);
    std::vector<float> y(300);
    std::memcpy(y.data(), bytes.data(), bytes.size());
    for (int i = 0; i < 300; ++i) REQUIRE(y[i] == -2.0f * i + (i - 1000.0f));
}

TEST_CASE("a recorded kernel simulates to the same cycles as the kernel") {
    const fs::path trace = scratch() / "collatz.agxb", a = scratch() / "a.json",
                   b = scratch() / "b.json";
    auto r = agxsim("kernel record " + library_kernel("collatz.agxk") +
                    " --config m1 --set launch.n=2048 -o " + trace.string());
    INFO(r.err);
    REQUIRE(r.code == 0);
    CHECK(r.out.find("recorded 64 simds") != std::string::npos);
    r = agxsim("run " + library_kernel("collatz.agxk") +
               " --config m1 --set launch.n=2048 -q --stats " + a.string());
    REQUIRE(r.code == 0);
    r = agxsim("run " + trace.string() + " --config m1 -q --stats " + b.string());
    INFO(r.err);
    REQUIRE(r.code == 0);
    CHECK(cycles_of(a) == cycles_of(b));
    CHECK(nlohmann::json::parse(slurp(a)).at("simd_instructions") ==
          nlohmann::json::parse(slurp(b)).at("simd_instructions"));
}

TEST_CASE("a recorded reduction with barriers and atomics simulates to the same cycles") {
    const fs::path trace = scratch() / "reduce.agxb", a = scratch() / "a.json",
                   b = scratch() / "b.json";
    REQUIRE(agxsim("kernel record " + library_kernel("reduce_sum.agxk") + " -o " + trace.string())
                .code == 0);
    REQUIRE(agxsim("run " + library_kernel("reduce_sum.agxk") + " -q --stats " + a.string()).code ==
            0);
    REQUIRE(agxsim("run " + trace.string() + " -q --stats " + b.string()).code == 0);
    CHECK(cycles_of(a) == cycles_of(b));
}

TEST_CASE("run says what it wrote: each dump, the statistics and the report") {
    const fs::path dump = scratch() / "said_y.npy", raw = scratch() / "said_x.bin",
                   stats = scratch() / "said.json", report = scratch() / "said_report";
    fs::remove_all(report);
    const std::string saxpy = library_kernel("saxpy.agxk") + " --set launch.n=256";
    const Result r =
        agxsim("run " + saxpy + " --dump y=" + dump.string() + " --dump x=" + raw.string() +
               " --stats " + stats.string() + " --report " + report.string());
    INFO(r.err);
    REQUIRE(r.code == 0);
    CHECK(r.out.find("wrote " + dump.string() + " (buffer y, 1024 bytes, NumPy .npy)") !=
          std::string::npos);
    CHECK(r.out.find("wrote " + raw.string() + " (buffer x, 1024 bytes, raw)") !=
          std::string::npos);
    CHECK(r.out.find("wrote " + stats.string() + " (statistics") != std::string::npos);
    CHECK(r.out.find("wrote " + report.string() + "/ (summary.txt, stats.json") !=
          std::string::npos);
    const Result f = agxsim("run " + saxpy + " --functional --dump y=" + dump.string());
    CHECK(f.out.find("wrote " + dump.string() + " (buffer y, 1024 bytes") != std::string::npos);
    // -q says nothing.
    CHECK(agxsim("run " + saxpy + " -q --dump y=" + dump.string()).out.empty());
}

TEST_CASE("kernel record writes as the simds run: its memory does not grow with their length") {
    // A runaway kernel once held 13 bytes per instruction until its limit
    // stopped it (2.1 GB after 30 s). Recorded to 20 times the length, the
    // peak memory must stay where the short record's was.
    const fs::path k = write_file("record_spin.agxk", kSpinKernel);
    const fs::path out = scratch() / "spin.agxb";
    auto peak_kb = [&](unsigned long limit) {
        const Result r = agxsim("kernel record " + k.string() + " -o " + out.string() +
                                " --max-simd-instructions " + std::to_string(limit));
        INFO(r.err);
        CHECK(r.code == 2);
        CHECK(r.err.find("ran past --max-simd-instructions=" + std::to_string(limit)) !=
              std::string::npos);
        CHECK_FALSE(fs::exists(out));
        rusage u{};
        getrusage(RUSAGE_CHILDREN, &u);  // the largest child so far
        return u.ru_maxrss;
    };
    const long short_run = peak_kb(100000);
    const long long_run = peak_kb(2000000);  // 2 x 1.9 M more instructions: 50 MB at 13 bytes
    INFO("peak " << short_run << " KB, then " << long_run << " KB");
    CHECK(long_run < short_run + 8 * 1024);
}

namespace {

// A kernel around `body`, run; the error must be one line naming `where`
// and saying `reason`, with exit code 2 and no dump left behind.
void expect_kernel_error(const std::string& body, const std::string& where,
                         const std::string& reason,
                         const std::string& launch =
                             "launch grid=64 threadgroup=32 registers=16 threadgroup_memory=64\n") {
    const std::string text = "agxsim-kernel 1\n" + launch +
                             "buffer b size=256 fill=zero\nuniform u0_u1 buffer=b\n" + body;
    const fs::path k = write_file("bad.agxk", text);
    const fs::path dump = scratch() / "never.npy";
    auto r =
        agxsim("run " + k.string() + " -q --max-instructions 100000 --dump b=" + dump.string());
    INFO(text);
    INFO(r.err);
    CHECK(r.code == 2);
    CHECK(r.err.find(where) != std::string::npos);
    CHECK(r.err.find(reason) != std::string::npos);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    CHECK(r.out.empty());  // -q: nothing else, not even SystemC's stop notice
    CHECK_FALSE(fs::exists(dump));
    for (const auto& e : fs::directory_iterator(scratch()))
        CHECK(e.path().filename().string().find("never.npy") == std::string::npos);
}

}  // namespace

TEST_CASE("bad kernels are refused with one line and exit 2") {
    expect_kernel_error("  fmad32 r1, r2, r3, r4\n  stop\n",
                        "bad.agxk:5:", "unknown mnemonic 'fmad32'");
    expect_kernel_error("  jmp_exec_any nowhere\n  stop\n",
                        "bad.agxk:5:", "unknown label 'nowhere'");
    expect_kernel_error("  jmp_exec_any end\n  stop\nend:\n", "bad.agxk:7:", "branch into nowhere");
    expect_kernel_error("  pop_exec 1\n  stop\n", "bad.agxk:5:", "exec-mask stack underflow");
    expect_kernel_error("  fadd32 r20, r1, r2\n  stop\n", "bad.agxk:5:", "out of range");
    expect_kernel_error("  device_load r1, u4_u5, r2 slot=0\n  stop\n",
                        "bad.agxk:5:", "outside every buffer");
    expect_kernel_error("  mov_imm r2, 255\n  device_load r1, u0_u1, r2 slot=0\n  stop\n",
                        "bad.agxk:6:", "lane 0 address");
    expect_kernel_error("  get_sr r2, sr52\n  threadgroup_store r1, 64, r2\n  stop\n",
                        "bad.agxk:6:", "outside the launch's threadgroup_memory=64");
    expect_kernel_error("  mov_imm r2, 1\n  threadgroup_load r1, r2, 0\n  stop\n",
                        "bad.agxk:6:", "not aligned");
    expect_kernel_error("loop:\n  jmp_exec_any loop\n  stop\n",
                        "bad.agxk:6:", "ran past --max-instructions=100000");
    expect_kernel_error("  fadd32 r1, r1, r1\n", "bad.agxk:5:", "without 'stop'");
    expect_kernel_error("  fadd32 r1, r1, r1 mask=0xff\n  stop\n",
                        "bad.agxk:5:", "trace attribute");
    expect_kernel_error("  if_icmp r1, 0 n=1\n  stop\n", "bad.agxk:5:", "needs cc=");
    expect_kernel_error("  stop\n", "bad.agxk:3:", "no buffer named 'c'",
                        "launch grid=64 threadgroup=32 registers=16\nuniform u2_u3 buffer=c\n");
    expect_kernel_error("  stop\n", "bad.agxk:2:", "unknown launch key 'gird'",
                        "launch gird=64 threadgroup=32 registers=16\n");
}

TEST_CASE("kernel-only options are refused for a trace") {
    auto r = agxsim("run " + example("ffma_chain.trace") + " --set launch.grid=64");
    CHECK(r.code == 2);
    CHECK(r.err.find("launch values apply to kernels") != std::string::npos);
    r = agxsim("run " + example("ffma_chain.trace") + " --dump y=y.npy");
    CHECK(r.code == 2);
    CHECK(r.err.find("only a kernel has buffers") != std::string::npos);
    r = agxsim("run " + library_kernel("saxpy.agxk") + " --set launch.gridd=64");
    CHECK(r.code == 2);
    CHECK(r.err.find("unknown launch key or parameter") != std::string::npos);
}

TEST_CASE("a kernel that loops forever stops by default, naming the pc it loops at") {
    const fs::path k = write_file("spin.agxk", kSpinKernel);
    for (const std::string mode : {"", " --functional"}) {
        const fs::path dump = scratch() / "spin_out.npy";
        const Result r = agxsim("run " + k.string() + mode + " --dump out=" + dump.string());
        INFO(mode << ": " << r.err);
        CHECK(r.code == 2);
        CHECK(r.err.find("spin.agxk:8: pc 0xc") != std::string::npos);  // in the loop
        CHECK(r.err.find("ran past --max-simd-instructions=1048576") != std::string::npos);
        CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
        CHECK_FALSE(fs::exists(dump));
    }
    // The limit is the user's to set.
    const Result low = agxsim("run " + k.string() + " -q --max-simd-instructions 1000");
    CHECK(low.err.find("ran past --max-simd-instructions=1000 ") != std::string::npos);
}
