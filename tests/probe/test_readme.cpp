// The README's section for Mac owners, in the order a first-time user needs
// it (build, check, run, validate), and every agxsim-probe command and
// option it names known to the tool.
#include <catch2/catch.hpp>

#include <regex>
#include <set>

#include "probe_test_util.hpp"

using namespace probe_test;

namespace {

std::string mac_section() {
    const std::string readme = slurp(std::filesystem::path(AGX_SOURCE_DIR) / "README.md");
    const auto start = readme.find("## For Mac users: the Metal probe");
    REQUIRE(start != std::string::npos);
    const auto end = readme.find("\n## ", start + 1);
    return readme.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

}  // namespace

TEST_CASE("readme: the Mac section builds, then checks, then runs, then validates") {
    const std::string s = mac_section();
    const auto build = s.find("cmake --build build");
    const auto check = s.find("agxsim-probe check");
    const auto run = s.find("agxsim-probe run --out");
    const auto validate = s.find("agxsim validate --config");
    REQUIRE(build != std::string::npos);
    REQUIRE(check != std::string::npos);
    REQUIRE(run != std::string::npos);
    REQUIRE(validate != std::string::npos);
    CHECK(build < check);
    CHECK(check < run);
    CHECK(run < validate);
    // The first probe command a reader meets is check.
    CHECK(s.find("/agxsim-probe ") == s.find("/agxsim-probe check"));
}

TEST_CASE("readme: every agxsim-probe subcommand and option it names exists") {
    const std::string s = mac_section();
    const std::string exe = AGXSIM_PROBE_EXE;
    const std::regex command(R"(agxsim-probe (check|run|list|gen|compile|suite)\b)");
    std::set<std::string> commands;
    for (auto it = std::sregex_iterator(s.begin(), s.end(), command); it != std::sregex_iterator();
         ++it)
        commands.insert((*it)[1].str());
    CHECK(commands.count("check"));
    CHECK(commands.count("run"));
    std::string help;
    for (const auto& c : commands) help += shell(exe + " " + c + " --help").out;
    // The agxsim commands the section uses, for their options.
    for (const char* c : {"validate", "run", "kernel import"})
        help += shell(std::string(AGXSIM_EXE) + " " + c + " --help").out;
    const std::regex option(R"((--[a-z][a-z0-9-]+))");
    std::set<std::string> options;
    for (auto it = std::sregex_iterator(s.begin(), s.end(), option); it != std::sregex_iterator();
         ++it)
        options.insert((*it)[1].str());
    options.erase("--build");    // cmake's
    options.erase("--version");  // the tool's own flag, not a subcommand's
    for (const auto& o : options) {
        INFO(o);
        CHECK(help.find(o) != std::string::npos);
    }
}
