// `agxsim run TRACE`: simulate a trace on a machine and report where the
// cycles went.
#include <cstdio>
#include <iomanip>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "sim/cli/commands.hpp"
#include "sim/cli/output_file.hpp"
#include "sim/cli/summary.hpp"
#include "sim/common/errors.hpp"
#include "sim/config/config_loader.hpp"
#include "sim/model/simulation.hpp"
#include "sim/trace/open_trace.hpp"

namespace agx::cli {

namespace {

struct RunArgs {
    std::string trace;
    std::string config = "m1";
    std::vector<std::string> overrides;
    std::string stats;
    std::string cores = "1";
    bool quiet = false;
};

unsigned parse_cores(const std::string& text, const MachineConfig& cfg) {
    if (text == "all") return cfg.cores;
    try {
        std::size_t used = 0;
        const long n = std::stol(text, &used);
        if (used == text.size() && n >= 1 && static_cast<unsigned long>(n) <= cfg.cores)
            return static_cast<unsigned>(n);
    } catch (const std::exception&) {
    }
    throw InputError("--cores " + text, "expected 'all' or a number from 1 to " +
                                            std::to_string(cfg.cores) + " (the cores of " +
                                            cfg.name + ")");
}

int run(const RunArgs& args) {
    const MachineConfig cfg = load_config(args.config, args.overrides);
    const unsigned cores = parse_cores(args.cores, cfg);
    std::unique_ptr<OutputFile> stats_file;
    if (!args.stats.empty()) stats_file = std::make_unique<OutputFile>(args.stats);
    std::unique_ptr<Workload> workload = open_trace(args.trace);

    RunOptions options;
    options.cores = cores;
    const RunResult result = simulate(cfg, *workload, options);

    if (stats_file) {
        stats_file->stream() << std::setw(2) << result.stats << "\n";
        stats_file->commit();
    }
    if (!args.quiet) print_summary(std::cout, cfg, *workload, result);
    return kExitOk;
}

}  // namespace

void add_run_command(CLI::App& app, Action& action) {
    auto args = std::make_shared<RunArgs>();
    CLI::App* cmd = app.add_subcommand("run", "Simulate an instruction trace and print a summary");
    cmd->add_option("trace", args->trace, "Trace file (text format v1, see traces/FORMAT.md)")
        ->required();
    cmd->add_option("-c,--config", args->config,
                    "Machine: a name in configs/ (m1, m1-max, m2, a14) or a JSON path")
        ->capture_default_str();
    cmd->add_option("--set", args->overrides,
                    "Override a config value: path.to.key=value (repeatable)");
    cmd->add_option("--stats", args->stats, "Write every block's statistics as JSON to this file");
    cmd->add_option("--cores", args->cores, "Cores to simulate: a number or 'all'")
        ->capture_default_str();
    cmd->add_flag("-q,--quiet", args->quiet, "Print nothing on success");
    cmd->callback([args, &action] { action = [args] { return run(*args); }; });
}

}  // namespace agx::cli
