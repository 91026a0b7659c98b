// The stall causes are listed once (sim/timing/stall_cause.hpp); the README
// carries that list as a table, row for row (docs/statistics.md has it from
// the statistics' declarations: tests/systemc/test_stats_doc.cpp).
#include <catch2/catch.hpp>

#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "sim/timing/stall_cause.hpp"

using namespace agx;

namespace {

std::vector<std::string> lines_of(const std::string& relative) {
    std::ifstream in(std::string(AGX_SOURCE_DIR) + "/" + relative);
    REQUIRE(in);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

// The rows of the table headed `| cause | meaning |`.
std::vector<std::string> cause_table(const std::vector<std::string>& lines) {
    std::vector<std::string> rows;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        if (lines[i] != "| cause | meaning |") continue;
        for (std::size_t j = i + 2; j < lines.size() && lines[j].rfind("| ", 0) == 0; ++j)
            rows.push_back(lines[j]);
        break;
    }
    return rows;
}

}  // namespace

TEST_CASE("every stall cause has a distinct name and a meaning") {
    std::set<std::string> names;
    for (std::size_t c = 0; c < kStallCauseCount; ++c) {
        const StallCauseInfo& info = stall_cause_info(static_cast<StallCause>(c));
        CHECK(names.insert(info.name).second);
        CHECK(std::string(info.meaning).size() > 10);
    }
}

TEST_CASE("the README lists the stall causes and the profile's not_selected as the code does") {
    std::vector<std::string> expected;
    for (std::size_t c = 0; c < kStallCauseCount; ++c) {
        const StallCauseInfo& info = stall_cause_info(static_cast<StallCause>(c));
        expected.push_back(std::string("| `") + info.name + "` | " + info.meaning + " |");
    }
    // And the one other name a profile gives a wait.
    expected.push_back(std::string("| `") + kNotSelectedInfo.name + "` | " +
                       kNotSelectedInfo.meaning + " |");
    for (const char* doc : {"README.md"}) {
        INFO(doc);
        const auto rows = cause_table(lines_of(doc));
        std::ostringstream want;
        for (const auto& e : expected) want << e << "\n";
        INFO("the table should read:\n" << want.str());
        CHECK(rows == expected);
    }
}
