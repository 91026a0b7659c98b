// The text trace's memory checks: `buffer` lines, aligned lane accesses,
// threadgroup addresses within the launch's threadgroup memory. All are
// found when the trace is opened, before any simulation.
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include <catch2/catch.hpp>

#include "sim/common/errors.hpp"
#include "sim/trace/text_trace.hpp"
#include "tests/unit/temp_file.hpp"

using namespace agx;
using test::TempTrace;

namespace {

const std::string kHead =
    "agxsim-trace 1\n"
    "launch threads_per_threadgroup=32 threadgroups=1 registers=16 threadgroup_memory=256\n";

// Opening `text` fails with a message holding `line` (":N:") and `reason`.
void expect_error(const std::string& text, const std::string& line, const std::string& reason) {
    TempTrace t(text);
    try {
        open_text_trace(t.path());
        FAIL("no error for:\n" << text);
    } catch (const InputError& e) {
        const std::string msg = e.what();
        INFO(msg);
        CHECK(msg.find(t.path() + line) != std::string::npos);
        CHECK(msg.find(reason) != std::string::npos);
    }
}

}  // namespace

TEST_CASE("buffer lines declare device memory, accesses inside them are accepted",
          "[memory][trace]") {
    TempTrace t(kHead +
                "buffer base=0x10000 size=4096\n"
                "buffer base=0x20000 size=128   # a second one\n"
                "simd 0\n"
                "  device_load r4 slot=0 addr=0x10000+4*lane\n"
                "  device_load r5 slot=0 addr=0x10f80+4*lane\n"
                "  device_store r4 slot=1 addr=0x20000+4*lane\n"
                "  device_load r6 addr=0x90000 mask=0x0\n"  // no active lane: no address to check
                "  threadgroup_load r7 addr=0+8*lane\n"
                "end\n");
    auto w = open_text_trace(t.path());
    CHECK(w->launch().threadgroup_memory_bytes == 256);
}

TEST_CASE("a device access outside every declared buffer is an error naming its line",
          "[memory][trace]") {
    expect_error(
        kHead + "buffer base=0x10000 size=128\nsimd 0\n  device_load r4 addr=0x10004+4*lane\nend\n",
        ":5:", "lane 31 address 0x10080 (4 bytes) is outside every declared buffer");
}

TEST_CASE("without buffer lines, device addresses are not checked", "[memory][trace]") {
    TempTrace t(kHead + "simd 0\n  device_load r4 addr=0x7777770+4*lane\nend\n");
    CHECK_NOTHROW(open_text_trace(t.path()));
}

TEST_CASE("a misaligned lane access is an error naming its line", "[memory][trace]") {
    expect_error(kHead + "simd 0\n  device_load r4 addr=0x1002+4*lane\nend\n",
                 ":4:", "lane 0 address 0x1002 is not aligned to its 4-byte access");
    // 6-byte lanes need 2-byte alignment only.
    TempTrace ok(kHead + "simd 0\n  device_store r4l_r4h_r5l addr=0x42+6*lane\nend\n");
    CHECK_NOTHROW(open_text_trace(ok.path()));
}

TEST_CASE("threadgroup accesses must lie within the launch's threadgroup memory",
          "[memory][trace]") {
    expect_error(kHead + "simd 0\n  threadgroup_load r4 addr=160+4*lane\nend\n", ":4:",
                 "lane 24 address 0x100 (4 bytes) is outside the launch's threadgroup_memory=256");
    TempTrace ok(kHead +
                 "simd 0\n  threadgroup_load r4 addr=128+4*lane\nend\n");  // ends at byte 256
    CHECK_NOTHROW(open_text_trace(ok.path()));
}

TEST_CASE("malformed buffer lines", "[memory][trace]") {
    expect_error(kHead + "buffer base=0x10\nsimd 0\nend\n", ":3:", "buffer needs base= and size=");
    expect_error(kHead + "buffer base=0x10 size=0\nsimd 0\nend\n",
                 ":3:", "size must be at least 1");
    expect_error(kHead + "buffer base=0x10 size=8 align=4\nsimd 0\nend\n",
                 ":3:", "unknown key 'align'");
    expect_error(kHead + "simd 0\nend\nbuffer base=0x10 size=8\n",
                 ":5:", "'buffer' must come before");
}
