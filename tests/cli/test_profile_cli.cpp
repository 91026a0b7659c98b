// `agxsim run --profile` and `agxsim profile show`: stalls are charged to
// the instruction that causes them, with the right cause, and the profile's
// counts add up to the run's.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/cli/cli_run.hpp"

using namespace agx_test;

namespace {

// One threadgroup of 8 simds. Every lane stores its own word
// (conflict-free), then reads threadgroup memory 128 bytes from its
// neighbour: all 32 lanes in one bank, 32 passes per access (line 9).
const char* kBankConflicts =
    "agxsim-kernel 1\n"
    "launch grid=256 threadgroup=256 registers=16 threadgroup_memory=4096\n"
    "    get_sr            r1, sr52\n"
    "    shl               r3, r1, 5\n"
    "    iadd32            r2, r1, 7\n"
    "    iadd32            r6, r1, 9\n"
    "    threadgroup_store r1, 0, r1\n"
    "    threadgroup_barrier\n"
    "    threadgroup_load  r4, 0, r3\n"
    "    iadd32            r5, r4, r1\n"
    "    stop\n";

const nlohmann::json* at_line(const nlohmann::json& p, unsigned line) {
    for (const auto& x : p.at("instructions"))
        if (x.at("line").get<unsigned>() == line) return &x;
    return nullptr;
}

}  // namespace

TEST_CASE("a profile charges bank-conflict stalls to the conflicting load, and adds up") {
    const fs::path k = write_file("conflicts.agxk", kBankConflicts);
    const fs::path profile = scratch() / "p.json", stats = scratch() / "s.json";
    const Result r = agxsim("run " + k.string() + " -q --profile " + profile.string() +
                            " --stats " + stats.string());
    INFO(r.err);
    REQUIRE(r.code == 0);
    const auto p = nlohmann::json::parse(slurp(profile));
    const auto s = nlohmann::json::parse(slurp(stats));
    CHECK(p.at("format") == "agxsim-profile 2");
    CHECK(p.at("cycles") == s.at("cycles"));

    // Issues add up to the run's SIMD-instructions, lanes to the active ones.
    std::uint64_t issues = 0;
    for (const auto& x : p.at("instructions")) issues += x.at("issues").get<std::uint64_t>();
    CHECK(issues == s.at("simd_instructions").get<std::uint64_t>());

    const nlohmann::json* load = at_line(p, 9);
    REQUIRE(load);
    CHECK(load->at("mnemonic") == "threadgroup_load");
    CHECK(load->at("text") == "threadgroup_load  r4, 0, r3");
    const auto load_issues = load->at("issues").get<std::uint64_t>();
    CHECK(load_issues == 256 / 32);
    CHECK(load->at("lanes").get<std::uint64_t>() == 256);
    CHECK(load->at("memory").at("bank_passes").get<std::uint64_t>() == 32 * load_issues);

    // Its simds wait on the banks, and most of the banks' waits are its.
    const auto& waits = load->at("waits");
    REQUIRE(waits.contains("threadgroup_bank"));
    std::uint64_t bank_waits = 0;
    for (const auto& x : p.at("instructions"))
        bank_waits += x.at("waits").value("threadgroup_bank", std::uint64_t{0});
    std::uint64_t largest = 0;
    std::string largest_cause;
    for (const auto& [cause, v] : waits.items())
        if (cause != "barrier" && v.get<std::uint64_t>() > largest)
            largest = v.get<std::uint64_t>(), largest_cause = cause;
    CHECK(largest_cause == "threadgroup_bank");
    CHECK(waits.at("threadgroup_bank").get<std::uint64_t>() * 2 > bank_waits);
    // Only threadgroup-memory instructions wait on the banks.
    for (const auto& x : p.at("instructions"))
        if (x.at("waits").contains("threadgroup_bank"))
            CHECK(x.at("mnemonic").get<std::string>().rfind("threadgroup_", 0) == 0);

    // The listing puts the conflicting store and load first.
    const Result show = agxsim("profile show " + profile.string() + " --top 3");
    INFO(show.err);
    CHECK(show.code == 0);
    CHECK(show.out.find("threadgroup_load  r4, 0, r3") != std::string::npos);
    CHECK(show.out.find("32.0 bank passes/req") != std::string::npos);
    CHECK(show.out.find("... 6 more (--top)") != std::string::npos);
}

TEST_CASE("profile show refuses what is not a profile, with one line and exit 2") {
    const fs::path bad = write_file("bad.json", "{\"cycles\": 3}");
    Result r = agxsim("profile show " + bad.string());
    CHECK(r.code == 2);
    CHECK(r.err.find("bad.json: not an agxsim profile") != std::string::npos);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    const fs::path junk = write_file("junk.json", "not json");
    r = agxsim("profile show " + junk.string());
    CHECK(r.code == 2);
    CHECK(r.err.find("junk.json: not JSON") != std::string::npos);
}

TEST_CASE("a trace's profile has one entry per line, with its text") {
    const fs::path profile = scratch() / "t.json";
    const Result r =
        agxsim("run " + example("imad_fadd_mix.trace") + " -q --profile " + profile.string());
    INFO(r.err);
    REQUIRE(r.code == 0);
    const auto p = nlohmann::json::parse(slurp(profile));
    REQUIRE(p.at("instructions").size() >= 2);
    for (const auto& x : p.at("instructions")) {
        CHECK(x.contains("text"));
        CHECK(x.at("text").get<std::string>().rfind(x.at("mnemonic").get<std::string>(), 0) == 0);
    }
}

TEST_CASE(
    "run --report writes the summary, the profile and a CPI stack of the chip and each core") {
    const fs::path dir = scratch() / "report";
    Result r = agxsim("run " + std::string(AGX_SOURCE_DIR) +
                      "/traces/kernels/reduce_sum.agxk --cores 2 -q --report " + dir.string());
    INFO(r.err);
    REQUIRE(r.code == 0);
    for (const char* f :
         {"summary.txt", "stats.json", "profile.json", "profile.txt", "cpi_stack.svg"})
        CHECK(fs::exists(dir / f));
    CHECK(slurp(dir / "summary.txt").find("cycles") != std::string::npos);
    CHECK(slurp(dir / "profile.txt").find("profile of ") == 0);
    const std::string svg = slurp(dir / "cpi_stack.svg");
    CHECK(svg.rfind("<svg", 0) == 0);
    CHECK(svg.find("</svg>") != std::string::npos);
    for (const char* bar : {">chip (2 cores)<", ">core 0<", ">core 1<"})
        CHECK(svg.find(bar) != std::string::npos);
    CHECK(svg.find(">  scheduler") == std::string::npos);  // a chip's bars are its cores'
    // Nothing runs past the right edge: each left-anchored text, at most 7 px
    // a character in the 12 px font, ends inside the 900 px picture.
    for (auto at = svg.find("<text x=\""); at != std::string::npos;
         at = svg.find("<text x=\"", at + 1)) {
        const auto close = svg.find('>', at), end = svg.find("</text>", close);
        if (svg.substr(at, close - at).find("text-anchor") != std::string::npos) continue;
        const double x = std::stod(svg.substr(at + 9));
        INFO(svg.substr(at, end - at));
        CHECK(x + 7.0 * static_cast<double>(end - close - 1) <= 900);
    }
    CHECK(svg.find("<title>issue: 1.000 cycles per instruction</title>") != std::string::npos);
    // Only the run's own directory, nothing left beside it.
    for (const auto& e : fs::directory_iterator(scratch()))
        CHECK(e.path().filename().string().find("report.partial") == std::string::npos);

    // An existing report is not overwritten; a failed run leaves none.
    r = agxsim("run " + example("ffma_chain.trace") + " -q --report " + dir.string());
    CHECK(r.code == 2);
    CHECK(r.err.find("exists and is not an empty directory") != std::string::npos);
    const fs::path bad = write_file("bad.agxk",
                                    "agxsim-kernel 1\nlaunch grid=32 threadgroup=32 registers=8\n"
                                    "  device_load r1, u0_u1, 0 slot=0\n  stop\n");
    const fs::path never = scratch() / "never";
    r = agxsim("run " + bad.string() + " -q --report " + never.string());
    CHECK(r.code == 2);
    CHECK_FALSE(fs::exists(never));
    for (const auto& e : fs::directory_iterator(scratch()))
        CHECK(e.path().filename().string().find("never.partial") == std::string::npos);
}

TEST_CASE(
    "a profile's stalls are the summary's scheduler-cycles, and a barrier's wait is the "
    "barrier's") {
    // Kernels with barriers: the bank-conflict kernel above (one), the
    // reduction (one) and the histogram (two), on one core and on eight.
    const fs::path conflicts = write_file("conflicts_stalls.agxk", kBankConflicts);
    const std::string lib = std::string(AGX_SOURCE_DIR) + "/traces/kernels/";
    for (const std::string& run : std::vector<std::string>{
             conflicts.string(), lib + "reduce_sum.agxk",
             lib + "histogram256.agxk --set launch.max=3", lib + "histogram256.agxk --cores all"}) {
        INFO(run);
        const fs::path profile = scratch() / "stalls_p.json", stats = scratch() / "stalls_s.json";
        const Result r = agxsim("run " + run + " -q --profile " + profile.string() + " --stats " +
                                stats.string());
        INFO(r.err);
        REQUIRE(r.code == 0);
        const auto p = nlohmann::json::parse(slurp(profile));
        const auto s = nlohmann::json::parse(slurp(stats));
        CHECK(p.at("stall_unit") == "scheduler-cycles");

        // Cause by cause, the profile's scheduler-cycles are the summary's.
        std::map<std::string, std::uint64_t> charged;
        for (const auto& [cause, v] : p.at("stalls_without_instruction").items())
            charged[cause] += v.get<std::uint64_t>();
        for (const auto& x : p.at("instructions"))
            for (const auto& [cause, v] : x.at("stalls").items())
                charged[cause] += v.get<std::uint64_t>();
        for (const auto& [cause, v] : s.at("stall_scheduler_cycles").items()) {
            INFO(cause);
            CHECK(charged[cause] == v.get<std::uint64_t>());
        }
        for (const auto& [cause, v] : charged)
            CHECK(s.at("stall_scheduler_cycles").contains(cause));
        // Only the scheduler with no simd has no instruction to charge.
        for (const auto& [cause, v] : p.at("stalls_without_instruction").items())
            CHECK(cause == "no_simd");

        // Barrier stalls and barrier waits are charged to the barrier itself.
        std::uint64_t barrier_waits = 0;
        for (const auto& x : p.at("instructions")) {
            const bool is_barrier = x.at("mnemonic") == "threadgroup_barrier";
            const auto w = x.at("waits").value("barrier", std::uint64_t{0});
            const auto st = x.at("stalls").value("barrier", std::uint64_t{0});
            INFO(x.dump());
            if (!is_barrier) {
                CHECK(w == 0);
                CHECK(st == 0);
            }
            barrier_waits += w;
        }
        CHECK(barrier_waits > 0);
    }
}
