// The README's section for Mac owners, in the order a first-time user needs
// it (build, check, run, validate), and every agxsim-probe command and
// option it names known to the tool.
#include <catch2/catch.hpp>

#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

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

TEST_CASE("readme: the Mac section's check, run and validate, as written, end in a report") {
    // The section's own command lines, run in order in a directory of their
    // own, on the fake backend and a part of the suite (the only additions).
    const std::string s = mac_section();
    std::vector<std::string> lines;
    std::istringstream in(s);
    bool code = false;
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("```", 0) == 0) {
            code = !code;
            continue;
        }
        if (!code) continue;
        if (line.rfind("build/validation/probe/agxsim-probe check", 0) == 0 ||
            line.rfind("build/validation/probe/agxsim-probe run", 0) == 0 ||
            line.rfind("build/agxsim validate", 0) == 0)
            lines.push_back(line.substr(0, line.find('#')));
    }
    REQUIRE(lines.size() == 3);
    const auto dir = scratch() / "mac_section";
    std::filesystem::create_directories(dir);
    for (std::string line : lines) {
        const bool probe = line.rfind("build/validation/probe/agxsim-probe", 0) == 0;
        const std::string exe = probe ? AGXSIM_PROBE_EXE : AGXSIM_EXE;
        line = exe + line.substr(line.find(' '));
        if (probe) line += " --backend fake --only float_instructions/FADD32/";
        const Result r = shell("cd " + quoted(dir.string()) + " && " + line);
        INFO(line << "\n" << r.out << r.err);
        REQUIRE(r.code == 0);
    }
    for (const char* f :
         {"results.json", "report/summary.json", "report/results.csv", "report/correlation.svg"})
        CHECK(std::filesystem::is_regular_file(dir / f));
    CHECK(slurp(dir / "report/results.csv").find("float_instructions/FADD32/throughput") !=
          std::string::npos);
}
