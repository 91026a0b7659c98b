// `agxsim validate`: run every benchmark the measurement files name on a
// machine and compare with the hardware.
#include <algorithm>
#include <iostream>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "sim/cli/commands.hpp"
#include "sim/common/errors.hpp"
#include "sim/config/config_loader.hpp"
#include "validation/lib/report.hpp"
#include "validation/lib/runner.hpp"

namespace agx::cli {

namespace {

struct ValidateArgs {
    std::string config = "m1-max";
    std::vector<std::string> overrides;
    std::vector<std::string> measurements;
    std::string report;
    std::string only;
    unsigned jobs = 0;
    bool summary_only = false;
    bool strict = false;
};

int validate(const ValidateArgs& args) {
    using namespace agx::validation;
    const MachineConfig cfg = load_config(args.config, args.overrides);

    ValidationReport report;
    report.config = cfg.name;
    const auto fitted = fitted_figures(cfg.sources);
    std::set<std::string> chips_seen;
    for (const auto& path : args.measurements) {
        const MeasurementFile file = read_measurements(path);
        for (const auto& m : file.records) {
            chips_seen.insert(m.chip);
            if (m.chip != cfg.name) continue;
            if (!args.only.empty() && m.id.find(args.only) == std::string::npos) continue;
            ValidationRow row{m, {}, false, false, "", "", "", 0.0};
            row.unsupported = unsupported_reason(m.benchmark);
            if (const auto f = fitted.find(m.id); f != fitted.end()) row.fitted = f->second;
            if (!row.unsupported.empty() && args.strict)
                throw InputError(path + ": " + m.id,
                                 row.unsupported.substr(row.unsupported.find(": ") + 2) +
                                     " (--strict refuses the file)");
            report.rows.push_back(std::move(row));
        }
    }
    if (report.rows.empty()) {
        std::string have;
        for (const auto& c : chips_seen) have += (have.empty() ? "" : ", ") + c;
        throw InputError(args.measurements.front(),
                         "no figures for chip '" + cfg.name + "'" +
                             (args.only.empty() ? "" : " matching '" + args.only + "'") +
                             " (the files hold: " + (have.empty() ? "none" : have) + ")");
    }

    // Measured figures (and memory sweeps); each distinct definition is simulated once.
    std::vector<BenchmarkDefinition> defs;
    std::vector<std::size_t> def_of(report.rows.size(), SIZE_MAX);
    for (std::size_t i = 0; i < report.rows.size(); ++i) {
        // Memory sweeps are simulated at every point, measured or not: the
        // staircase plot draws the whole simulated curve.
        if (!report.rows[i].measured.value && !report.rows[i].measured.benchmark.memory) continue;
        if (!report.rows[i].unsupported.empty()) continue;
        const BenchmarkDefinition& b = report.rows[i].measured.benchmark;
        nlohmann::json key = to_json(b);
        key.erase("name");
        std::size_t found = SIZE_MAX;
        for (std::size_t d = 0; d < defs.size() && found == SIZE_MAX; ++d) {
            nlohmann::json other = to_json(defs[d]);
            other.erase("name");
            if (other == key) found = d;
        }
        if (found == SIZE_MAX) {
            found = defs.size();
            defs.push_back(b);
        }
        def_of[i] = found;
    }
    const unsigned jobs = args.jobs ? args.jobs : std::max(1u, std::thread::hardware_concurrency());
    const auto figures = simulate_benchmarks(cfg, defs, jobs);
    for (std::size_t i = 0; i < report.rows.size(); ++i) {
        if (def_of[i] == SIZE_MAX) continue;
        report.rows[i].simulated = figures[def_of[i]];
        report.rows[i].ran = true;
    }
    summarise(report);
    if (!args.summary_only) print_table(std::cout, report);
    print_summary(std::cout, report);
    if (!args.report.empty()) {
        write_report(args.report, report);
        std::cout << "report written to " << args.report
                  << "/ (summary.json, results.csv, correlation.svg)\n";
    }
    if (report.failed > 0) {
        std::cerr << "agxsim: validate: the simulation of " << report.failed << " of "
                  << report.rows.size() << " rows failed (the rows marked 'failed' say why)\n";
        return kExitSomeRunsFailed;
    }
    return kExitOk;
}

}  // namespace

void add_validate_command(CLI::App& app, Action& action) {
    auto args = std::make_shared<ValidateArgs>();
    CLI::App* cmd = app.add_subcommand(
        "validate", "Run the benchmarks of measurement files and compare with them");
    cmd->add_option("-c,--config", args->config, "Machine: a name in configs/ or a JSON path")
        ->capture_default_str();
    cmd->add_option(
           "-m,--measurements", args->measurements,
           "Measurement files (validation/data/*.json) or reference CSVs (metal-benchmarks layout)")
        ->required()
        ->check(CLI::ExistingFile);
    cmd->add_option("--report", args->report,
                    "Write summary.json, results.csv and correlation.svg here");
    cmd->add_option("--set", args->overrides,
                    "Override a config value: path.to.key=value (repeatable)");
    cmd->add_option("--only", args->only, "Only the figures whose id contains this text");
    cmd->add_option("-j,--jobs", args->jobs, "Simulations at once (default: the host's cores)");
    cmd->add_flag("--strict", args->strict,
                  "Refuse a file with a row the model cannot simulate (default: list such rows and "
                  "run the others)");
    cmd->add_flag("--summary-only", args->summary_only,
                  "Print the summary without the per-figure table");
    cmd->callback([args, &action] { action = [args] { return validate(*args); }; });
}

}  // namespace agx::cli
