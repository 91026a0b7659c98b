// End-to-end tests of `agxsim trace convert` and of `agxsim run` on binary
// traces.
#include <catch2/catch.hpp>

#include "tests/cli/cli_run.hpp"

#include <sys/wait.h>
#include <unistd.h>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

namespace fs = std::filesystem;
using namespace agx_test;

namespace {

std::uint64_t cycles_of(const std::string& trace) {
    const fs::path stats = scratch() / "cycles.json";
    const Result r = agxsim("run -q " + trace + " --stats " + stats.string());
    INFO(r.err);
    REQUIRE(r.code == 0);
    return nlohmann::json::parse(slurp(stats)).at("cycles").get<std::uint64_t>();
}

// Exit 2, one line on stderr naming `where`, and no output file.
void expect_bad_convert(const std::string& in, const std::string& where,
                        const std::string& reason) {
    const fs::path out = scratch() / "bad-out.agxb";
    fs::remove(out);
    const Result r = agxsim("trace convert " + in + " " + out.string());
    INFO("stderr: " << r.err);
    CHECK(r.code == 2);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    CHECK(r.err.find(where) != std::string::npos);
    CHECK(r.err.find(reason) != std::string::npos);
    CHECK_FALSE(fs::exists(out));
    CHECK_FALSE(partial_left(out));
}

}  // namespace

TEST_CASE("trace convert: binary runs to the same cycles as text, and converts back") {
    for (const char* name : {"fadd16_ilp4.trace", "load_wait_use.trace"}) {
        const fs::path bin = scratch() / (std::string(name) + ".agxb");
        const fs::path back = scratch() / (std::string(name) + ".back");
        const Result a = agxsim("trace convert " + example(name) + " " + bin.string());
        INFO(a.err);
        REQUIRE(a.code == 0);
        CHECK(slurp(bin).substr(1, 6) == "AGXTRC");
        CHECK(cycles_of(bin.string()) == cycles_of(example(name)));
        const Result b =
            agxsim("trace convert " + bin.string() + " " + back.string() + " --format text");
        REQUIRE(b.code == 0);
        CHECK(slurp(back).rfind("agxsim-trace 1\n", 0) == 0);
        CHECK(cycles_of(back.string()) == cycles_of(example(name)));
    }
}

TEST_CASE("trace convert: bad input gives exit 2 and no output file") {
    const fs::path bin = scratch() / "good.agxb";
    REQUIRE(agxsim("trace convert " + example("ffma_chain.trace") + " " + bin.string()).code == 0);
    std::string bytes = slurp(bin);

    const fs::path truncated = scratch() / "truncated.agxb";
    std::ofstream(truncated, std::ios::binary) << bytes.substr(0, bytes.size() - 10);
    expect_bad_convert(truncated.string(), "truncated.agxb", "truncated");

    const fs::path corrupt = scratch() / "corrupt.agxb";
    bytes[16] = static_cast<char>(bytes[16] ^ 0x5a);
    std::ofstream(corrupt, std::ios::binary) << bytes;
    expect_bad_convert(corrupt.string(), "corrupt.agxb", "corrupt frame");

    const fs::path version = scratch() / "version.agxb";
    bytes = slurp(bin);
    bytes[8] = 9;
    std::ofstream(version, std::ios::binary) << bytes;
    expect_bad_convert(version.string(), "version.agxb", "version 9 not supported");

    const fs::path text = scratch() / "bad.trace";
    std::ofstream(text)
        << "agxsim-trace 1\nlaunch threads_per_threadgroup=32 threadgroups=1 registers=8\n"
           "simd 0\n  fmad32 r0, r0, r1, r2\nend\n";
    expect_bad_convert(text.string(), "bad.trace:4", "fmad32");
    expect_bad_convert((scratch() / "missing.trace").string(), "missing.trace", "cannot open");

    // The same bad binary file through `run`.
    const Result r = agxsim("run " + corrupt.string());
    CHECK(r.code == 2);
    CHECK(r.err.find("corrupt.agxb") != std::string::npos);
    CHECK(agxsim("trace convert " + example("ffma_chain.trace") + " x --format yaml").code == 2);
}
