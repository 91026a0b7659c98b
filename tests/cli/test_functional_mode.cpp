// `agxsim run --functional` and `--sample`: every kernel of the library
// leaves its buffers exactly as the timed run does, and options that need
// timing are refused.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/cli/cli_run.hpp"

using namespace agx_test;

namespace {

// The buffer names a kernel file declares (`buffer NAME ...` lines).
std::vector<std::string> buffer_names(const fs::path& kernel) {
    std::vector<std::string> names;
    std::ifstream in(kernel);
    for (std::string line; std::getline(in, line);) {
        std::istringstream words(line);
        std::string first, name;
        if (words >> first >> name && first == "buffer") names.push_back(name);
    }
    return names;
}

// Runs `kernel` with every buffer dumped under `tag`; returns the dumps' bytes.
std::vector<std::string> run_dumping(const fs::path& kernel, const std::string& extra,
                                     const std::string& tag) {
    std::string dumps;
    const auto names = buffer_names(kernel);
    for (const std::string& n : names)
        dumps += " --dump " + n + "=" + (scratch() / (tag + "_" + n + ".bin")).string();
    const Result r = agxsim("run " + kernel.string() + " -q" + extra + dumps);
    INFO(kernel.string() << extra << "\n" << r.err);
    REQUIRE(r.code == 0);
    std::vector<std::string> bytes;
    for (const std::string& n : names) bytes.push_back(slurp(scratch() / (tag + "_" + n + ".bin")));
    return bytes;
}

}  // namespace

TEST_CASE("functional run: every library kernel's buffers are the timed run's, byte for byte") {
    unsigned kernels = 0;
    for (const auto& entry : fs::directory_iterator(fs::path(AGX_SOURCE_DIR) / "traces/kernels")) {
        if (entry.path().extension() != ".agxk") continue;
        ++kernels;
        const auto timed = run_dumping(entry.path(), "", "timed");
        const auto functional = run_dumping(entry.path(), " --functional", "functional");
        REQUIRE(timed.size() == functional.size());
        for (std::size_t b = 0; b < timed.size(); ++b) {
            INFO(entry.path().filename().string() << " buffer " << b);
            CHECK(!timed[b].empty());
            CHECK(timed[b] == functional[b]);
        }
    }
    CHECK(kernels >= 13);
}

TEST_CASE("functional run: threadgroups that wait on earlier ones finish with all cores resident") {
    // The scan's look-back spins on its predecessors' flags: on 32 cores many
    // threadgroups run side by side, and each must still see its
    // predecessors' sums.
    const fs::path scan = fs::path(AGX_SOURCE_DIR) / "traces/kernels/scan.agxk";
    const auto timed = run_dumping(scan, " --config m1-max --cores all", "timed");
    const auto functional =
        run_dumping(scan, " --config m1-max --cores all --functional", "functional");
    CHECK(timed == functional);
}

TEST_CASE("functional run: what needs timing is refused in one line, and nothing is written") {
    const std::string saxpy = std::string(AGX_SOURCE_DIR) + "/traces/kernels/saxpy.agxk";
    for (const std::string option : {"--stats", "--profile", "--timeline", "--report"}) {
        const fs::path out = scratch() / "refused_output";
        const Result r = agxsim("run " + saxpy + " --functional " + option + " " + out.string() +
                                " --dump y=" + (scratch() / "refused_y.bin").string());
        INFO(option << ": " << r.err);
        CHECK(r.code == 2);
        CHECK(r.err.find("--functional") != std::string::npos);
        CHECK(r.err.find(option) != std::string::npos);
        CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
        CHECK_FALSE(fs::exists(out));
        CHECK_FALSE(fs::exists(scratch() / "refused_y.bin"));
    }
    const Result trace = agxsim("run " + std::string(AGX_SOURCE_DIR) +
                                "/traces/examples/ffma_chain.trace --functional");
    INFO(trace.err);
    CHECK(trace.code == 2);
    CHECK(trace.err.find("runs kernels") != std::string::npos);
}

TEST_CASE("sampled run: every library kernel's buffers are the full run's, byte for byte") {
    // Waves of the threadgroups one core holds, two waves in three skipped
    // (no warm wave): every kernel's default launch skips some of its
    // threadgroups.
    const std::string plan = " --sample-plan warmup=2,period=3,sample=1,warm=0,min_wave=1";
    unsigned kernels = 0, skipping = 0;
    for (const auto& entry : fs::directory_iterator(fs::path(AGX_SOURCE_DIR) / "traces/kernels")) {
        if (entry.path().extension() != ".agxk") continue;
        ++kernels;
        const auto functional = run_dumping(entry.path(), " --functional", "functional");
        const auto sampled = run_dumping(entry.path(), plan, "sampled");
        REQUIRE(functional.size() == sampled.size());
        for (std::size_t b = 0; b < sampled.size(); ++b) {
            INFO(entry.path().filename().string() << " buffer " << b);
            CHECK(functional[b] == sampled[b]);
        }
        const Result r = agxsim("run " + entry.path().string() + plan);
        INFO(r.err);
        REQUIRE(r.code == 0);
        if (r.out.find(" with no timing") != std::string::npos &&
            r.out.find(", 0 with no timing") == std::string::npos)
            ++skipping;
    }
    CHECK(kernels >= 13);
    CHECK(skipping >= kernels - 2);
}

TEST_CASE("sampled run: a bad plan, or sampling a functional run, is one line and exit 2") {
    const std::string saxpy = std::string(AGX_SOURCE_DIR) + "/traces/kernels/saxpy.agxk";
    for (const std::string extra : {" --sample-plan period=0", " --sample-plan sample=10",
                                    " --sample-plan speed=2", " --sample --functional"}) {
        const fs::path out = scratch() / "refused_sample_y.bin";
        const Result r = agxsim("run " + saxpy + extra + " --dump y=" + out.string());
        INFO(extra << ": " << r.err);
        CHECK(r.code == 2);
        CHECK(r.err.find("--sample") != std::string::npos);
        CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
        CHECK_FALSE(fs::exists(out));
    }
}

TEST_CASE("sampled run: the summary says whether the skipped ranges ran early, and why not") {
    const std::string kernels = std::string(AGX_SOURCE_DIR) + "/traces/kernels/";
    const std::string line = "  sampled           ";
    Result r = agxsim("run " + kernels + "stencil5.agxk --sample");
    REQUIRE(r.code == 0);
    CHECK(r.out.find(line + "threadgroups independent: each skipped range ran when skipped\n") !=
          std::string::npos);
    r = agxsim("run " + kernels + "stencil5.agxk --sample-plan early=0");
    REQUIRE(r.code == 0);
    CHECK(r.out.find(line + "each skipped range ran once the threadgroups before it were done "
                            "(--sample-plan early=0)\n") != std::string::npos);
    r = agxsim("run " + kernels + "saxpy.agxk --sample --set launch.n=1048576");
    REQUIRE(r.code == 0);
    CHECK(r.out.find(line + "each skipped range ran once the threadgroups before it were done "
                            "(buffer 'y' is loaded (line 18) and stored (line 21))\n") !=
          std::string::npos);
    // A launch too small to skip anything says nothing of ranges.
    r = agxsim("run " + kernels + "saxpy.agxk --sample");
    REQUIRE(r.code == 0);
    CHECK(r.out.find(" 0 with no timing\n") != std::string::npos);
    CHECK(r.out.find("skipped range") == std::string::npos);
}
