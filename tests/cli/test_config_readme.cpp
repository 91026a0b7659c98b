// configs/README.md's table of timing classes gives each class's issue
// interval and latency; this test reads them back from the shipped m1 config
// (and the A14 figure where the table names one), so a recalibrated class
// fails here until the table says the same.
#include <catch2/catch.hpp>

#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/cli/cli_run.hpp"

using namespace agx_test;

namespace {

// "`simd_reduce_float`, `_iadd`" -> simd_reduce_float, simd_reduce_iadd: a
// name that starts with '_' replaces the first name's last part.
std::vector<std::string> class_names(const std::string& cell) {
    std::vector<std::string> names;
    const std::regex quoted("`([a-z0-9_]+)`");
    for (std::sregex_iterator it(cell.begin(), cell.end(), quoted), end; it != end; ++it) {
        std::string n = (*it)[1];
        if (n[0] == '_' && !names.empty()) n = names[0].substr(0, names[0].rfind('_')) + n;
        names.push_back(n);
    }
    return names;
}

// "15, 17, 15" -> {15, 17, 15}; "1 (A14: 2)" -> {1}, with a14 = 2.
std::vector<int> figures(const std::string& cell, int* a14) {
    const auto paren = cell.find('(');
    std::vector<int> v;
    std::stringstream in(cell.substr(0, paren));
    for (std::string x; std::getline(in, x, ',');) v.push_back(std::stoi(x));
    *a14 = -1;
    if (paren != std::string::npos) {
        const auto colon = cell.find("A14:", paren);
        if (colon != std::string::npos) *a14 = std::stoi(cell.substr(colon + 4));
    }
    return v;
}

int value(const nlohmann::json& timing, const std::string& cls, const char* key) {
    INFO(cls << "." << key);
    REQUIRE(timing.contains(cls));
    return timing.at(cls).at(key).at("value").get<int>();
}

}  // namespace

TEST_CASE("configs/README.md: the timing classes' table holds the shipped values") {
    const auto m1 = nlohmann::json::parse(slurp(std::string(AGX_SOURCE_DIR) + "/configs/m1.json"));
    const auto a14 =
        nlohmann::json::parse(slurp(std::string(AGX_SOURCE_DIR) + "/configs/a14.json"));
    const auto& timing = m1.at("core").at("timing");
    std::stringstream doc(slurp(std::string(AGX_SOURCE_DIR) + "/configs/README.md"));
    bool in_table = false;
    std::set<std::string> seen;
    for (std::string line; std::getline(doc, line);) {
        if (line.rfind("| class | issue | latency |", 0) == 0) {
            in_table = true;
            continue;
        }
        if (!in_table) continue;
        if (line.rfind("|", 0) != 0) break;
        if (line.find("---") != std::string::npos) continue;
        const auto cells = table_cells(line);
        REQUIRE(cells.size() >= 3);
        INFO(line);
        const auto names = class_names(cells[0]);
        REQUIRE_FALSE(names.empty());
        int issue_a14 = -1, latency_a14 = -1;
        const auto issue = figures(cells[1], &issue_a14);
        const auto latency = figures(cells[2], &latency_a14);
        REQUIRE((issue.size() == 1 || issue.size() == names.size()));
        REQUIRE((latency.size() == 1 || latency.size() == names.size()));
        for (std::size_t i = 0; i < names.size(); ++i) {
            CHECK(value(timing, names[i], "issue_interval") == issue[issue.size() == 1 ? 0 : i]);
            CHECK(value(timing, names[i], "latency") == latency[latency.size() == 1 ? 0 : i]);
            if (issue_a14 >= 0)
                CHECK(a14.at("core").at("timing").at(names[i]).at("issue_interval").at("value") ==
                      issue_a14);
            seen.insert(names[i]);
        }
    }
    // Every class the config times is in the table.
    for (const auto& [cls, unused] : timing.items()) {
        INFO(cls);
        CHECK(seen.count(cls) == 1);
    }
}
