// README.md's quick-start "what if" examples: each `agxsim run` line that
// sets a config value must show an effect, or the example teaches nothing
// (`--set core.active_simds=0` on a trace of one simd once changed nothing).
// Each is run as written and without its --set values, and the cycles must
// differ; that the --set values name keys the config has is the config
// reader's to check.
#include <catch2/catch.hpp>

#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/cli/cli_run.hpp"

using namespace agx_test;

namespace {

// The `build/agxsim run` lines of README.md with a `--set core.` or
// `--set memory.`, without the program name and the comment.
std::vector<std::string> what_if_examples() {
    std::ifstream in(fs::path(AGX_SOURCE_DIR) / "README.md");
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("build/agxsim run ", 0) != 0) continue;
        // Paths are the source tree's, as README's commands run from it.
        line = "run " + std::string(AGX_SOURCE_DIR) + "/" +
               line.substr(std::string("build/agxsim run ").size());
        const auto hash = line.find("  #");
        if (hash != std::string::npos) line.resize(hash);
        while (!line.empty() && line.back() == ' ') line.pop_back();
        if (line.find("--set core.") != std::string::npos ||
            line.find("--set memory.") != std::string::npos)
            lines.push_back(line);
    }
    return lines;
}

std::uint64_t cycles(const std::string& command) {
    const fs::path stats = scratch() / "example.json";
    const Result r = agxsim(command + " -q --stats " + stats.string());
    INFO(command << "\n" << r.err);
    REQUIRE(r.code == 0);
    return nlohmann::json::parse(slurp(stats)).at("cycles").get<std::uint64_t>();
}

}  // namespace

TEST_CASE("README.md: every what-if example changes the cycles it claims to change") {
    const auto examples = what_if_examples();
    REQUIRE(examples.size() >= 2);
    const std::regex set(R"( --set (core|memory)\.[^ ]+)");
    for (const std::string& example : examples) {
        const std::string without = std::regex_replace(example, set, "");
        INFO(example);
        CHECK(without != example);
        CHECK(cycles(example) != cycles(without));
    }
}
