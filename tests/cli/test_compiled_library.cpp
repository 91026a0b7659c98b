// The kernel library in OpenCL C (traces/kernels/cl/): each twin compiles
// with Mesa's AGX compiler, runs, and leaves every buffer as its
// hand-written kernel does (bit for bit; softmax, whose sums the compiler
// orders differently, within the 1e-5 its reference test allows), so the
// hand-written kernel's reference check (tests/library/, tests/systemc/)
// holds for the twin too. Each run's figures are the README's row
// (traces/kernels/README.md, "Hand-written against compiled"): a change
// that moves one fails here, printing the row to paste. Without the
// compiler each test exits 77 (skipped).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/kernel/opencl_compile.hpp"
#include "tests/cli/cli_run.hpp"
#include "tests/kernel_support.hpp"

using namespace agx_test;

namespace {

std::string kernels_dir() {
    return std::string(AGX_SOURCE_DIR) + "/traces/kernels/";
}

// The buffers the twin's launch declares.
std::vector<std::string> buffers_of(const std::string& name) {
    std::vector<std::string> out;
    std::istringstream in(slurp(kernels_dir() + "cl/" + name + ".launch"));
    for (std::string line; std::getline(in, line);) {
        std::istringstream words(line);
        std::string keyword, buffer;
        if (words >> keyword >> buffer && keyword == "buffer") out.push_back(buffer);
    }
    return out;
}

struct Run {
    nlohmann::json stats;
    unsigned registers = 0;  // half-registers per thread
};

// Runs `path` on m1 with its stats and every buffer dumped as `tag`.
Run run(const std::string& path, const std::string& name, const std::string& tag,
        const std::string& extra = "") {
    const fs::path stats = scratch() / (name + "." + tag + ".json");
    std::string args = "run " + path + " --config m1 -q --stats " + stats.string() + extra;
    for (const auto& b : buffers_of(name))
        args += " --dump " + b + "=" + (scratch() / (name + "." + tag + "." + b)).string();
    const Result r = agxsim(args);
    INFO(args);
    INFO(r.err);
    REQUIRE(r.code == 0);
    Run out;
    out.stats = nlohmann::json::parse(slurp(stats));
    return out;
}

// The register cache's hit rate over every scheduler.
double hit_rate(const nlohmann::json& j) {
    double hits = 0, misses = 0;
    for (const auto& [core, c] : j.at("gpu").items()) {
        if (core.rfind("core_", 0) != 0) continue;
        for (const auto& [sched, s] : c.items())
            if (sched.rfind("scheduler_", 0) == 0 && s.contains("register_cache")) {
                hits += s["register_cache"]["hits"].get<double>();
                misses += s["register_cache"]["misses"].get<double>();
            }
    }
    return hits + misses > 0 ? hits / (hits + misses) : 0;
}

// The two largest stall causes as shares of all scheduler-cycles (one core
// of m1: four schedulers).
std::string top_stalls(const nlohmann::json& j) {
    std::vector<std::pair<std::uint64_t, std::string>> stalls;
    for (const auto& [cause, v] : j.at("stall_scheduler_cycles").items())
        stalls.emplace_back(v.get<std::uint64_t>(), cause);
    std::sort(stalls.begin(), stalls.end(), [](const auto& a, const auto& b) {
        return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
    const double scheduler_cycles = j.at("cycles").get<double>() * 4;
    std::string out;
    for (std::size_t i = 0; i < std::min<std::size_t>(2, stalls.size()); ++i)
        if (stalls[i].first > 0)
            out += (out.empty() ? "" : ", ") + stalls[i].second + " " +
                   fixed(100 * static_cast<double>(stalls[i].first) / scheduler_cycles, 0) + "%";
    return out;
}

// `registers=N` of a kernel file's launch or `compiled` line.
unsigned registers_in(const std::string& text) {
    std::smatch m;
    const std::regex re("\\bregisters=([0-9]+)");
    REQUIRE(std::regex_search(text, m, re));
    return static_cast<unsigned>(std::stoul(m[1].str()));
}

// The buffers of the run tagged `tag` against the hand-written kernel's.
void compare_buffers_with(const std::string& name, const std::string& tag) {
    for (const auto& b : buffers_of(name)) {
        const std::string hand = slurp(scratch() / (name + ".hand." + b));
        const std::string compiled = slurp(scratch() / (name + "." + tag + "." + b));
        INFO(name << ": buffer " << b);
        REQUIRE(hand.size() == compiled.size());
        if (name == "softmax" && b == "out") {
            std::vector<float> x(hand.size() / 4), y(hand.size() / 4);
            std::memcpy(x.data(), hand.data(), hand.size());
            std::memcpy(y.data(), compiled.data(), compiled.size());
            for (std::size_t i = 0; i < x.size(); ++i)
                REQUIRE(std::fabs(x[i] - y[i]) <= 1e-5f * std::fabs(x[i]));
        } else {
            CHECK(hand == compiled);
        }
    }
}

void check_twin(const std::string& name) {
    agx::test::need_compiler();
    const std::string hand_path = kernels_dir() + name + ".agxk";
    const std::string cl_path = kernels_dir() + "cl/" + name + ".cl";
    const Run hand = run(hand_path, name, "hand");
    const Run compiled = run(cl_path, name, "cl");
    compare_buffers_with(name, "cl");

    const Result k = agxsim("kernel compile " + cl_path);
    REQUIRE(k.code == 0);
    const unsigned hand_registers = registers_in(slurp(hand_path));
    const unsigned cl_registers = registers_in(k.out);
    auto pair = [](const std::string& a, const std::string& b) { return a + " / " + b; };
    const std::string row =
        "| " + name + " | " +
        pair(std::to_string(hand.stats.at("cycles").get<std::uint64_t>()),
             std::to_string(compiled.stats.at("cycles").get<std::uint64_t>())) +
        " | " +
        pair(std::to_string(hand.stats.at("simd_instructions").get<std::uint64_t>()),
             std::to_string(compiled.stats.at("simd_instructions").get<std::uint64_t>())) +
        " | " + pair(std::to_string(hand_registers), std::to_string(cl_registers)) + " | " +
        pair(fixed(100 * hit_rate(hand.stats), 0) + "%",
             fixed(100 * hit_rate(compiled.stats), 0) + "%") +
        " | " + top_stalls(hand.stats) + " | " + top_stalls(compiled.stats) + " |";
    const auto rows = marked_table_rows("traces/kernels/README.md", "<!-- compiled-table -->",
                                        "<!-- /compiled-table -->");
    const bool present = std::any_of(rows.begin(), rows.end(), [&](const std::string& line) {
        return line.rfind(row, 0) == 0 && line.size() > row.size() + 2;
    });
    if (!present)
        std::printf(
            "traces/kernels/README.md needs this row (then a sentence on what the compiler did "
            "differently and ' |'):\n%s\n",
            row.c_str());
    CHECK(present);

    // The same twin with register-cache hints inferred from liveness.
    const Run live = run(cl_path, name, "live", " --register-hints liveness");
    compare_buffers_with(name, "live");
    const auto cycles = [](const Run& r) { return r.stats.at("cycles").get<double>(); };
    const auto miss_share = [](const Run& r) {
        return fixed(100 *
                         r.stats.at("stall_scheduler_cycles")
                             .at("register_cache_miss")
                             .get<double>() /
                         (r.stats.at("cycles").get<double>() * 4),
                     0) +
               "%";
    };
    const std::string hints_row =
        "| " + name + " | " +
        pair(std::to_string(compiled.stats.at("cycles").get<std::uint64_t>()),
             std::to_string(live.stats.at("cycles").get<std::uint64_t>())) +
        " | " + fixed(100 * (cycles(live) / cycles(compiled) - 1), 1) + "% | " +
        pair(fixed(100 * hit_rate(compiled.stats), 0) + "%",
             fixed(100 * hit_rate(live.stats), 0) + "%") +
        " | " + pair(miss_share(compiled), miss_share(live)) + " |";
    const auto hint_rows = marked_table_rows("traces/kernels/README.md", "<!-- hints-table -->",
                                             "<!-- /hints-table -->");
    const bool hints_present =
        std::find(hint_rows.begin(), hint_rows.end(), hints_row) != hint_rows.end();
    if (!hints_present)
        std::printf("traces/kernels/README.md needs this hints row:\n%s\n", hints_row.c_str());
    CHECK(hints_present);
}

}  // namespace

TEST_CASE("compiled twin: saxpy") {
    check_twin("saxpy");
}
TEST_CASE("compiled twin: reduce_sum") {
    check_twin("reduce_sum");
}
TEST_CASE("compiled twin: collatz") {
    check_twin("collatz");
}
TEST_CASE("compiled twin: stream_triad") {
    check_twin("stream_triad");
}
TEST_CASE("compiled twin: histogram256") {
    check_twin("histogram256");
}
TEST_CASE("compiled twin: transpose") {
    check_twin("transpose");
}
TEST_CASE("compiled twin: transpose_padded") {
    check_twin("transpose_padded");
}
TEST_CASE("compiled twin: softmax") {
    check_twin("softmax");
}
TEST_CASE("compiled twin: stencil5") {
    check_twin("stencil5");
}
TEST_CASE("compiled twin: scan") {
    check_twin("scan");
}
TEST_CASE("compiled twin: sgemm_tiled") {
    check_twin("sgemm_tiled");
}
TEST_CASE("compiled twin: sgemm_simd_matrix") {
    check_twin("sgemm_simd_matrix");
}
TEST_CASE("compiled twin: sgemm_simd_matrix_tiled") {
    check_twin("sgemm_simd_matrix_tiled");
}

TEST_CASE("compiled twin: every library kernel has one, and the table a row for each") {
    std::vector<std::string> hand, twins;
    for (const auto& e : fs::directory_iterator(kernels_dir())) {
        if (e.path().extension() == ".agxk") hand.push_back(e.path().stem().string());
    }
    for (const auto& e : fs::directory_iterator(kernels_dir() + "cl"))
        if (e.path().extension() == ".cl") twins.push_back(e.path().stem().string());
    std::sort(hand.begin(), hand.end());
    std::sort(twins.begin(), twins.end());
    CHECK(hand == twins);
    const auto rows = marked_table_rows("traces/kernels/README.md", "<!-- compiled-table -->",
                                        "<!-- /compiled-table -->");
    CHECK(rows.size() == hand.size());
}
