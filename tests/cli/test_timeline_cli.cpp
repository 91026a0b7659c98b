// `agxsim run --timeline`: Chrome trace-event JSON with the fields the
// format requires, slices that do not overlap on a track, and issue counts
// that add up to the run's; the window and the size cap.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/cli/cli_run.hpp"

using namespace agx_test;

namespace {

// Checks every event's fields and that no two slices of a track overlap;
// returns the instructions the slices hold.
std::uint64_t check_events(const nlohmann::json& t) {
    REQUIRE(t.contains("traceEvents"));
    std::map<std::pair<int, int>, std::vector<std::pair<std::uint64_t, std::uint64_t>>> tracks;
    std::uint64_t instructions = 0;
    std::map<std::uint64_t, std::pair<std::int64_t, std::int64_t>> requests;  // id: begin, end
    for (const auto& e : t.at("traceEvents")) {
        INFO(e.dump());
        REQUIRE(e.contains("name"));
        REQUIRE(e.contains("ph"));
        REQUIRE(e.contains("pid"));
        const std::string ph = e.at("ph");
        CHECK((ph == "M" || ph == "X" || ph == "C" || ph == "b" || ph == "e"));
        if (ph == "M") {
            CHECK(e.contains("tid"));
            CHECK(e.at("args").contains("name"));
            continue;
        }
        REQUIRE(e.at("ts").is_number());
        if (ph == "b" || ph == "e") {  // a memory request: an async slice
            CHECK(e.at("cat") == "memory");
            auto& [begin, end] = requests[e.at("id").get<std::uint64_t>()];
            (ph == "b" ? begin : end) = e.at("ts").get<std::int64_t>();
            continue;
        }
        if (ph == "X") {
            REQUIRE(e.contains("tid"));
            REQUIRE(e.at("dur").get<std::uint64_t>() >= 1);
            tracks[{e.at("pid").get<int>(), e.at("tid").get<int>()}].emplace_back(
                e.at("ts").get<std::uint64_t>(), e.at("dur").get<std::uint64_t>());
            const auto n = e.at("args").at("instructions").get<std::uint64_t>();
            CHECK(n == e.at("dur").get<std::uint64_t>());  // one issue per cycle in a run
            instructions += n;
        } else {
            CHECK(e.at("args").is_object());
        }
    }
    for (const auto& [id, span] : requests) {
        INFO("memory request " << id);
        CHECK(span.first >= 0);
        CHECK(span.second >= span.first);
    }
    for (auto& [track, slices] : tracks) {
        std::sort(slices.begin(), slices.end());
        for (std::size_t i = 1; i < slices.size(); ++i) {
            INFO("track pid " << track.first << " tid " << track.second << " at "
                              << slices[i].first);
            REQUIRE(slices[i - 1].first + slices[i - 1].second <= slices[i].first);
        }
    }
    return instructions;
}

}  // namespace

TEST_CASE("a timeline is well-formed trace-event JSON whose slices add up to the issues") {
    const fs::path t = scratch() / "t.json", s = scratch() / "s.json";
    const Result r = agxsim("run " + library_kernel("reduce_sum.agxk") +
                            " --cores 2 -q --timeline " + t.string() + " --stats " + s.string());
    INFO(r.err);
    REQUIRE(r.code == 0);
    const auto timeline = nlohmann::json::parse(slurp(t));
    const auto stats = nlohmann::json::parse(slurp(s));
    CHECK(check_events(timeline) == stats.at("simd_instructions").get<std::uint64_t>());
    CHECK(timeline.at("otherData").at("capped") == false);
    // A process per core, a track per scheduler.
    std::size_t cores = 0, schedulers = 0;
    for (const auto& e : timeline.at("traceEvents")) {
        if (e.at("name") == "process_name" && e.at("pid").get<int>() > 0) ++cores;
        if (e.at("name") == "thread_name") ++schedulers;
    }
    CHECK(cores == 2);
    CHECK(schedulers == 8);
    // The device loads' path through the hierarchy: L1 misses, then the L2,
    // the SLC and DRAM, each as async slices.
    std::map<std::string, int> levels;
    for (const auto& e : timeline.at("traceEvents"))
        if (e.at("ph") == "b") ++levels[e.at("name").get<std::string>()];
    for (const char* level : {"core_0.l1d miss", "core_1.l1d miss", "l2", "slc", "dram"}) {
        INFO(level);
        CHECK(levels[level] > 0);
    }
}

TEST_CASE("a timeline window keeps only its cycles, and the cap stops it with a message") {
    const fs::path t = scratch() / "w.json";
    Result r = agxsim("run " + library_kernel("reduce_sum.agxk") + " -q --timeline " + t.string() +
                      " --timeline-window 2000:3000");
    INFO(r.err);
    REQUIRE(r.code == 0);
    const auto w = nlohmann::json::parse(slurp(t));
    check_events(w);
    for (const auto& e : w.at("traceEvents"))
        if (e.at("ph") != "M" && e.at("ph") != "e") {
            CHECK(e.at("ts").get<std::uint64_t>() >= 2000);
            CHECK(e.at("ts").get<std::uint64_t>() < 3000);
        }

    const fs::path c = scratch() / "c.json";
    r = agxsim("run " + library_kernel("reduce_sum.agxk") + " -q --timeline " + c.string() +
               " --timeline-max-events 100");
    REQUIRE(r.code == 0);
    CHECK(r.err.find("the timeline stopped at ") != std::string::npos);
    const auto capped = nlohmann::json::parse(slurp(c));
    CHECK(capped.at("otherData").at("capped") == true);
    CHECK(capped.at("otherData").at("events").get<int>() <= 100);  // a request's pair or nothing
    CHECK(capped.at("otherData").at("events").get<int>() >= 99);

    r = agxsim("run " + library_kernel("reduce_sum.agxk") + " -q --timeline " + c.string() +
               " --timeline-window 30:20");
    CHECK(r.code == 2);
    CHECK(r.err.find("--timeline-window 30:20: the window is empty") != std::string::npos);
}
