// `agxsim suite run`: simulate one benchmark of a measurement file (or a
// reference CSV) in this process and print where its cycles went, the tool
// for understanding a row that `agxsim validate` gets wrong.
#include <iomanip>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "sim/cli/commands.hpp"
#include "sim/cli/count_option.hpp"
#include "sim/cli/summary.hpp"
#include "sim/common/errors.hpp"
#include "sim/common/output_file.hpp"
#include "sim/config/config_loader.hpp"
#include "sim/model/simulation.hpp"
#include "validation/lib/measurement.hpp"
#include "validation/lib/memory_workload.hpp"
#include "validation/lib/runner.hpp"
#include "validation/lib/suite_workload.hpp"

namespace agx::cli {

namespace {
struct SuiteArgs {
    std::string id;
    std::string measurements;
    std::string config = "m1-max";
    std::vector<std::string> overrides;
    std::string stats;
    std::uint32_t repetitions = 0;
};

int run_one(const SuiteArgs& args) {
    using namespace agx::validation;
    const MachineConfig cfg = load_config(args.config, args.overrides);
    const MeasurementFile file = read_measurements(args.measurements);
    const Measurement* found = nullptr;
    for (const auto& m : file.records)
        if (m.id == args.id ||
            (!found && m.id.find(args.id) != std::string::npos && m.chip == cfg.name))
            found = &m;
    if (!found)
        throw InputError(args.measurements, "no figure with id '" + args.id + "' for " + cfg.name);
    const BenchmarkDefinition& def = found->benchmark;
    const std::uint32_t reps = args.repetitions ? args.repetitions : def.repetitions;
    std::unique_ptr<OutputFile> stats_file;
    if (!args.stats.empty()) stats_file = std::make_unique<OutputFile>(args.stats);
    // The run's summary, and its statistics when asked for.
    auto report = [&](const Workload& w, const RunResult& r) {
        print_summary(std::cout, cfg, w, r);
        if (stats_file) {
            stats_file->stream() << std::setw(2) << r.stats << "\n";
            stats_file->commit();
        }
        return kExitOk;
    };
    // The figure as validate computes it, by the record's method: `total` is
    // this run's cycles; `steady` the cycles this run of 2N repetitions takes
    // beyond one of N, so that the fixed cost of starting and draining falls
    // out. SystemC runs one simulation per process, so the N run goes to a
    // child process (validate's runner); this one shows the breakdown.
    const bool steady = def.method == BenchmarkDefinition::Method::Steady;
    const std::uint32_t shown = steady ? 2 * reps : reps;
    Cycle base = 0;
    if (steady) {
        BenchmarkDefinition n_run = def;
        n_run.repetitions = reps;
        n_run.method = BenchmarkDefinition::Method::Total;
        const SimulatedFigure n = simulate_benchmarks(cfg, {n_run}, 1).front();
        if (!n.error.empty()) throw std::runtime_error("simulation failed: " + n.error);
        base = n.cycles;
    }
    auto cycles_of = [&](const RunResult& r) { return r.cycles > base ? r.cycles - base : 0; };
    const char* method = steady ? "steady method: the 2N-repetition run less the N one, as validate"
                                : "total method, as validate";
    if (def.memory) {  // a memory benchmark: its own workload, cores and figure
        MemoryWorkload w(def, cfg, shown);
        RunOptions options;
        options.cores = w.cores();
        const RunResult r = simulate(cfg, w, options);
        std::cout << found->id << ": " << memory_kind_name(def.memory->kind) << ", " << w.cores()
                  << " cores, " << w.simds_per_core() << " simds/core, N = " << reps
                  << " repetitions; the breakdown below is of the run of " << shown << "\n";
        std::cout << "  figure (" << method
                  << "): " << memory_figure(def, cfg, cycles_of(r), reps, w.simds_per_core()) << " "
                  << memory_figure_unit(def.memory->kind) << "; measured "
                  << (found->raw.empty() ? "-" : found->raw) << "\n";
        return report(w, r);
    }
    SuiteWorkload w(def, cfg.core, shown);
    const RunResult r = simulate(cfg, w, {});
    std::cout << found->id << ": " << def.body_label() << ", ILP " << def.ilp << ", "
              << w.simds_per_core() << " simds/core, " << def.register_bits << "-bit, "
              << operand_shape_name(def.operand_shape) << ", N = " << reps
              << " repetitions; the breakdown below is of the run of " << shown << "\n";
    std::cout << "  figure (" << method << "): "
              << figure_from_cycles(def, cfg.core.schedulers, cycles_of(r), reps,
                                    w.simds_per_core())
              << " cycles per body per scheduler; measured "
              << (found->raw.empty() ? "-" : found->raw) << "\n";
    return report(w, r);
}
}  // namespace

void add_suite_command(CLI::App& app, Action& action) {
    CLI::App* cmd = app.add_subcommand("suite", "Benchmark suite");
    cmd->require_subcommand(1);
    auto args = std::make_shared<SuiteArgs>();
    CLI::App* run = cmd->add_subcommand(
        "run", "Simulate one benchmark of a measurement file and show its cycles");
    run->add_option("id", args->id,
                    "Figure id, or a part of it (first match for the config's chip)")
        ->required();
    run->add_option("-m,--measurements", args->measurements, "Measurement file or reference CSV")
        ->required()
        ->check(CLI::ExistingFile);
    run->add_option("-c,--config", args->config, "Machine")->capture_default_str();
    run->add_option("--set", args->overrides,
                    "Override a config value: path.to.key=value (repeatable)");
    add_count_option(*run, "--repetitions", args->repetitions,
                     "Override the benchmark's repetitions");
    run->add_option("--stats", args->stats, "Write the run's statistics as JSON");
    run->callback([args, &action] { action = [args] { return run_one(*args); }; });
}

}  // namespace agx::cli
