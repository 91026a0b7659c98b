// End-to-end tests of the agxsim command-line tool: the examples run, the
// statistics file is written, and every kind of bad input gives one line
// naming the file and the line or key, exit code 2, and no output file.
#include <catch2/catch.hpp>

#include "tests/cli/cli_run.hpp"

#include <sys/wait.h>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

namespace fs = std::filesystem;
using namespace agx_test;

namespace {

std::size_t lines(const std::string& s) {
    std::size_t n = 0;
    for (char c : s) n += c == '\n';
    return n + (!s.empty() && s.back() != '\n');
}

// One bad-input case: exit 2, one line on stderr naming `where`, and no
// statistics file left behind.
void expect_bad_input(const std::string& args, const std::string& where,
                      const std::string& reason_part) {
    const fs::path stats = scratch() / "bad-stats.json";
    fs::remove(stats);
    const Result r = agxsim(args + " --stats " + stats.string());
    INFO("args: " << args << "\nstderr: " << r.err);
    CHECK(r.code == 2);
    CHECK(lines(r.err) == 1);
    CHECK(r.err.find(where) != std::string::npos);
    CHECK(r.err.find(reason_part) != std::string::npos);
    CHECK_FALSE(fs::exists(stats));
    CHECK_FALSE(partial_left(stats));
}

const char* kGoodTrace =
    "agxsim-trace 1\n"
    "launch threads_per_threadgroup=32 threadgroups=1 registers=16 threadgroup_memory=0\n"
    "simd 0\n"
    "  fadd32 r0, r0, r1\n"
    "end\n";

}  // namespace

TEST_CASE("run writes statistics with numeric cycles and simd_instructions") {
    const fs::path stats = scratch() / "out.json";
    fs::remove(stats);
    const Result r =
        agxsim("run " + example("ffma_chain.trace") + " --config m1 --stats " + stats.string());
    INFO(r.err);
    REQUIRE(r.code == 0);
    CHECK(r.out.find("cycles") != std::string::npos);
    REQUIRE(fs::exists(stats));
    const auto j = nlohmann::json::parse(slurp(stats));
    CHECK(j.at("cycles").is_number_unsigned());
    CHECK(j.at("simd_instructions").get<std::uint64_t>() == 1000);
    CHECK(j.at("gpu").at("core_0").at("scheduler_0").at("register_cache").contains("hits"));
    CHECK(j.at("gpu").contains("dram"));
}

TEST_CASE("every example trace runs on every shipped config") {
    for (const char* cfg : {"m1", "m1-max", "m2", "a14"})
        for (const char* t : {"ffma_chain.trace", "fadd16_ilp4.trace", "imad_fadd_mix.trace",
                              "load_wait_use.trace"}) {
            const Result r = agxsim(std::string("run -q ") + example(t) + " --config " + cfg);
            INFO(cfg << " " << t << ": " << r.err);
            CHECK(r.code == 0);
        }
}

TEST_CASE("config show prints the resolved config as JSON") {
    const Result r = agxsim("config show m2");
    REQUIRE(r.code == 0);
    const auto j = nlohmann::json::parse(r.out);
    CHECK(j.contains("core"));
    const Result plain = agxsim("config show m2 --no-sources --set core.l1d.size_bytes=16384");
    REQUIRE(plain.code == 0);
    CHECK(nlohmann::json::parse(plain.out).at("core").at("l1d").at("size_bytes") == 16384);
}

TEST_CASE("version and help flags succeed") {
    CHECK(agxsim("--version").code == 0);
    CHECK(agxsim("run --help").code == 0);
    CHECK(agxsim("config show --help").code == 0);
}

TEST_CASE("a config override changes the simulated machine") {
    const std::string t = example("ffma_chain.trace");
    const Result a = agxsim("run -q " + t + " --stats " + (scratch() / "a.json").string());
    const Result b = agxsim("run -q " + t + " --set core.timing.f32_arith.latency=10 --stats " +
                            (scratch() / "b.json").string());
    REQUIRE(a.code == 0);
    REQUIRE(b.code == 0);
    const auto ca =
        nlohmann::json::parse(slurp(scratch() / "a.json")).at("cycles").get<std::uint64_t>();
    const auto cb =
        nlohmann::json::parse(slurp(scratch() / "b.json")).at("cycles").get<std::uint64_t>();
    CHECK(cb > ca);
}

TEST_CASE("bad input: malformed JSON config") {
    const fs::path cfg = write_file("malformed.json", "{ \"extends\": \"m1.json\", ");
    expect_bad_input("run " + example("ffma_chain.trace") + " --config " + cfg.string(),
                     "malformed.json", "");
}

TEST_CASE("bad input: unknown config key") {
    const fs::path cfg =
        write_file("unknown-key.json",
                   "{ \"extends\": \"" + std::string(AGX_SOURCE_DIR) +
                       "/configs/m1.json\", \"core\": { \"l1d\": { \"sise_bytes\": 4096 } } }");
    expect_bad_input("run " + example("ffma_chain.trace") + " --config " + cfg.string(),
                     "unknown-key.json", "core.l1d.sise_bytes");
}

TEST_CASE("bad input: bad --set") {
    expect_bad_input("run " + example("ffma_chain.trace") + " --set core.l1d.nope=3",
                     "core.l1d.nope", "");
}

TEST_CASE("bad input: missing config") {
    expect_bad_input("run " + example("ffma_chain.trace") + " --config no-such-chip",
                     "no-such-chip", "");
}

TEST_CASE("bad input: unknown mnemonic") {
    std::string text = kGoodTrace;
    text.replace(text.find("fadd32"), 6, "fmad32");
    const fs::path t = write_file("unknown-mnemonic.trace", text);
    expect_bad_input("run " + t.string(), "unknown-mnemonic.trace:4", "fmad32");
}

TEST_CASE("bad input: register out of range") {
    std::string text = kGoodTrace;
    text.replace(text.find("r1\n"), 2, "r40");
    const fs::path t = write_file("register-range.trace", text);
    expect_bad_input("run " + t.string(), "register-range.trace:4", "r40");
}

TEST_CASE("bad input: truncated trace") {
    std::string text = kGoodTrace;
    text.resize(text.find("end"));
    const fs::path t = write_file("truncated.trace", text);
    expect_bad_input("run " + t.string(), "truncated.trace", "");
}

TEST_CASE("bad input: missing trace file") {
    expect_bad_input("run " + (scratch() / "does-not-exist.trace").string(), "does-not-exist.trace",
                     "");
}

TEST_CASE("bad input: unknown option and bad core count") {
    CHECK(agxsim("run --frobnicate x").code == 2);
    expect_bad_input("run " + example("ffma_chain.trace") + " --cores 99", "--cores 99", "");
}
