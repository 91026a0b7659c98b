// `agxsim profile show FILE`: a profile written by `agxsim run --profile`,
// as an annotated listing sorted by the simd-cycles each instruction waited.
#include <iostream>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "sim/cli/commands.hpp"
#include "sim/cli/count_option.hpp"
#include "sim/common/errors.hpp"
#include "sim/common/json_input.hpp"
#include "sim/stats/instruction_profile.hpp"

namespace agx::cli {

namespace {

int show(const std::string& path, std::size_t top) {
    const nlohmann::json p = read_json_file(path, "profile", nullptr, "not JSON");
    std::cout << format_profile(p, path, top);
    return kExitOk;
}

}  // namespace

void add_profile_command(CLI::App& app, Action& action) {
    CLI::App* group =
        app.add_subcommand("profile", "Per-instruction profiles (agxsim run --profile)");
    group->require_subcommand(1);
    auto path = std::make_shared<std::string>();
    auto top = std::make_shared<std::size_t>(40);
    CLI::App* cmd = group->add_subcommand(
        "show", "Print a profile as a listing sorted by the simd-cycles each instruction waited");
    cmd->add_option("profile", *path, "A profile written by agxsim run --profile")->required();
    add_count_option(*cmd, "--top", *top, "Instructions to list")->capture_default_str();
    cmd->callback([=, &action] { action = [=] { return show(*path, *top); }; });
}

}  // namespace agx::cli
