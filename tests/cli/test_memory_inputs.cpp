// Bad memory input end to end: misaligned accesses, addresses outside the
// declared buffers or the launch's threadgroup memory, and runs the deadlock
// detector stops give one line naming the file and line and exit code 2;
// a wait with nothing outstanding is fine.
#include <catch2/catch.hpp>

#include "tests/cli/cli_run.hpp"

#include <sys/wait.h>
#include <unistd.h>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace fs = std::filesystem;
using namespace agx_test;

namespace {

const std::string kHead =
    "agxsim-trace 1\n"
    "launch threads_per_threadgroup=32 threadgroups=1 registers=16 threadgroup_memory=256\n";

void expect_bad(const std::string& args, const std::string& where, const std::string& reason) {
    const fs::path stats = scratch() / "stats.json";
    fs::remove(stats);
    const Result r = agxsim(args + " --stats " + stats.string());
    INFO("args: " << args << "\nstderr: " << r.err);
    CHECK(r.code == 2);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    CHECK(r.err.find(where) != std::string::npos);
    CHECK(r.err.find(reason) != std::string::npos);
    CHECK_FALSE(fs::exists(stats));
}

}  // namespace

TEST_CASE("memory input errors: misaligned, outside the buffers, outside threadgroup memory",
          "[memory]") {
    const fs::path misaligned = write_file(
        "misaligned.trace", kHead + "simd 0\n  device_load r4 addr=0x1002+4*lane\nend\n");
    expect_bad("run " + misaligned.string() + " --config m1",
               "misaligned.trace:4:", "not aligned to its 4-byte access");

    const fs::path outside = write_file(
        "outside.trace",
        kHead + "buffer base=0x1000 size=128\nsimd 0\n  device_load r4 addr=0x1000+8*lane\nend\n");
    expect_bad("run " + outside.string() + " --config m1",
               "outside.trace:5:", "outside every declared buffer");

    const fs::path tg =
        write_file("tg.trace", kHead + "simd 0\n  threadgroup_store r4 addr=256+4*lane\nend\n");
    expect_bad("run " + tg.string() + " --config m1",
               "tg.trace:4:", "outside the launch's threadgroup_memory=256");
}

TEST_CASE(
    "the deadlock detector ends a run without progress with one line saying what each simd waits "
    "on",
    "[memory]") {
    const std::string trace = std::string(AGX_SOURCE_DIR) + "/traces/examples/load_wait_use.trace";
    expect_bad(
        "run " + trace +
            " --config m1 --set core.deadlock_cycles=1000 --set memory.slc.hit_latency_ns=4000",
        "load_wait_use.trace", "core.deadlock_cycles = 1000");
}

TEST_CASE(
    "a wait with nothing outstanding completes at once, and a barrier without the simds that ended",
    "[memory]") {
    const fs::path ok = write_file(
        "ok.trace",
        "agxsim-trace 1\n"
        "launch threads_per_threadgroup=64 threadgroups=1 registers=16\n"
        "simd 0\n  wait 1\n  threadgroup_barrier\n  fadd32 r0, r0, r1\n  threadgroup_barrier\nend\n"
        "simd 1\n  threadgroup_barrier\nend\n");
    const Result r = agxsim("run " + ok.string() + " --config m1");
    INFO(r.err);
    CHECK(r.code == 0);
    CHECK(r.out.find("simd instructions 5") != std::string::npos);
}
