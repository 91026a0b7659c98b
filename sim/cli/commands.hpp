// The agxsim subcommands. Each registers itself on the CLI11 app; its action
// runs after parsing and returns the process exit code.
#pragma once

#include <functional>

#include <CLI/CLI.hpp>

namespace agx::cli {

using Action = std::function<int()>;

// Exit codes: 0 success, 2 bad input, 1 internal error, 3 some of the
// simulations a command ran failed (their results are written, and say which).
inline constexpr int kExitOk = 0;
inline constexpr int kExitInternal = 1;
inline constexpr int kExitBadInput = 2;
inline constexpr int kExitSomeRunsFailed = 3;

void add_run_command(CLI::App& app, Action& action);
void add_config_command(CLI::App& app, Action& action);
void add_isa_command(CLI::App& app, Action& action);
void add_trace_command(CLI::App& app, Action& action);

// The `trace` command group (`agxsim trace convert`, ...): created on first
// use, so every file that adds a `trace` subcommand calls this.
CLI::App* trace_group(CLI::App& app);
void add_validate_command(CLI::App& app, Action& action);
void add_data_command(CLI::App& app, Action& action);
void add_suite_command(CLI::App& app, Action& action);
void add_trace_gen_command(CLI::App& app, Action& action);
void add_kernel_command(CLI::App& app, Action& action);
// `agxsim kernel import`, added to the `kernel` group.
void add_kernel_import_command(CLI::App& kernel_group, Action& action);
// `agxsim kernel compile`, added to the `kernel` group.
void add_kernel_compile_command(CLI::App& kernel_group, Action& action);
void add_profile_command(CLI::App& app, Action& action);
void add_sweep_command(CLI::App& app, Action& action);
void add_stats_command(CLI::App& app, Action& action);

}  // namespace agx::cli
