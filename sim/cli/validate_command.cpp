// `agxsim validate`: run every benchmark the measurement files name on a
// machine and compare with the hardware.
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "sim/cli/commands.hpp"
#include "sim/cli/count_option.hpp"
#include "sim/cli/sweep_progress.hpp"
#include "sim/common/errors.hpp"
#include "sim/config/chip_family.hpp"
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
    std::string chip;   // the measured chip whose figures to compare with ("": chosen)
    std::string cache;  // a directory of simulations already run ("": none)
    unsigned jobs = 0;
    bool summary_only = false;
    bool strict = false;
};

// "m1, m1-max": the chips, for a message.
std::string list(const std::set<std::string>& chips) {
    std::string s;
    for (const auto& c : chips) s += (s.empty() ? "" : ", ") + c;
    return s;
}

// A measured chip's GPU family and where it comes from: the shipped config of
// that name; else the chip-family table (sim/config/chip_family.hpp); else
// the Metal family the probe recorded for the device ("Apple7"). Empty when
// none says.
struct ChipFamily {
    std::string family;
    std::string by;  // "its config", "the chip-family table", "the probe's device record"
};
ChipFamily family_of(const std::string& chip,
                     const std::vector<validation::MeasurementFile>& files) {
    try {
        return {load_config(chip, {}).family, "its config"};
    } catch (const std::exception&) {
    }
    if (auto f = chip_family(chip)) return {*f, "the chip-family table"};
    for (const auto& file : files)
        for (const auto& m : file.records) {
            if (m.chip != chip || !m.probe.is_object() || !m.probe.contains("device")) continue;
            const auto& d = m.probe["device"];
            if (d.is_object() && d.contains("family") && d["family"].is_string())
                if (auto f = family_from_metal_name(d["family"].get<std::string>()))
                    return {*f, "the probe's device record"};
        }
    return {};
}

// Which measured chips' figures a config is compared with, and the words
// that say so: the one --chip names; else the config's own chip; else the
// chips of its family; else every chip in the files.
std::pair<std::set<std::string>, std::string> chips_to_compare(
    const MachineConfig& cfg, const std::string& chip, const std::set<std::string>& seen,
    const std::vector<validation::MeasurementFile>& measured,
    const std::vector<std::string>& files) {
    if (!chip.empty()) {
        if (!seen.count(chip))
            throw InputError(files.front(), "--chip " + chip +
                                                ": the files hold no figures for it (they hold: " +
                                                (seen.empty() ? "none" : list(seen)) + ")");
        return {{chip}, "the figures measured on " + chip + " (--chip)"};
    }
    if (seen.count(cfg.name)) return {{cfg.name}, "its own chip's figures (" + cfg.name + ")"};
    std::set<std::string> family;
    std::string by;
    for (const auto& c : seen) {
        const ChipFamily f = family_of(c, measured);
        if (f.family != cfg.family) continue;
        family.insert(c);
        by += (by.empty() ? "" : ", ") + c + " by " + f.by;
    }
    if (!family.empty())
        return {family, "the figures of its family, " + cfg.family + ": " + list(family) +
                            " (no figures for '" + cfg.name + "'; family of " + by +
                            "; --chip picks one chip)"};
    if (seen.empty()) throw InputError(files.front(), "the files hold no figures");
    return {seen, "every chip's figures: " + list(seen) + " (none for '" + cfg.name +
                      "' or its family " + cfg.family + "; --chip picks one chip)"};
}

// "chip 'm1'" or "chips 'm1', 'm1-max'", for a message.
std::string chips_named(const std::set<std::string>& chips) {
    std::string s = chips.size() == 1 ? "chip " : "chips ";
    bool first = true;
    for (const auto& c : chips) {
        s += (first ? "'" : ", '") + c + "'";
        first = false;
    }
    return s;
}

int validate(const ValidateArgs& args) {
    using namespace agx::validation;
    const MachineConfig cfg = load_config(args.config, args.overrides);

    std::vector<MeasurementFile> files;
    std::set<std::string> chips_seen;
    for (const auto& path : args.measurements) {
        files.push_back(read_measurements(path));
        for (const auto& m : files.back().records) chips_seen.insert(m.chip);
    }
    const auto [chips, how] =
        chips_to_compare(cfg, args.chip, chips_seen, files, args.measurements);

    ValidationReport report;
    report.config = cfg.name;
    const auto fitted = fitted_figures(cfg.sources);
    // Latencies measured in cycles of another clock: both figures go to ns,
    // so that they compare as times whatever clock domain each level is in.
    std::vector<bool> in_ns;
    for (std::size_t f = 0; f < files.size(); ++f) {
        const std::string& path = args.measurements[f];
        for (auto m : files[f].records) {
            if (!chips.count(m.chip)) continue;
            if (!args.only.empty() && m.id.find(args.only) == std::string::npos) continue;
            const bool ns = m.kind == FigureKind::MemoryLatency && m.unit == "cycles" &&
                            m.clock_ghz > 0 && std::fabs(m.clock_ghz - cfg.clock_ghz) > 1e-9;
            if (ns) {
                if (m.value) m.value = *m.value / m.clock_ghz;
                m.unit = "ns";
            }
            in_ns.push_back(ns);
            ValidationRow row{m, {}, false, false, "", "", "", 0.0};
            row.unsupported = unsupported_reason(m.benchmark);
            if (const auto fit = fitted.find(m.id); fit != fitted.end()) row.fitted = fit->second;
            if (!row.unsupported.empty() && args.strict)
                throw InputError(path + ": " + m.id,
                                 row.unsupported.substr(row.unsupported.find(": ") + 2) +
                                     " (--strict refuses the file)");
            report.rows.push_back(std::move(row));
        }
    }
    if (report.rows.empty()) {
        const std::string have = list(chips_seen);
        throw InputError(args.measurements.front(),
                         "no figures for " + chips_named(chips) +
                             (args.only.empty() ? "" : " matching '" + args.only + "'") +
                             " (the files hold: " + (have.empty() ? "none" : have) + ")");
    }
    // Said once every row is read: a refused file prints its one error line alone.
    std::cout << "agxsim validate: config " << cfg.name << " (" << cfg.family << ", "
              << cfg.clock_ghz << " GHz) against " << how << "\n";
    if (std::find(in_ns.begin(), in_ns.end(), true) != in_ns.end())
        std::cout << "  latencies measured in cycles of another clock are compared in ns (the "
                     "config's cycles at "
                  << cfg.clock_ghz << " GHz, the chip's at its own)\n";

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
    // A terminal sees the simulations go by (a large file takes minutes); a
    // log or a pipe gets the report alone.
    std::unique_ptr<SweepProgress> progress;
    const bool terminal = ::isatty(STDERR_FILENO) != 0;
    std::optional<SimulationCache> cache;
    if (!args.cache.empty()) cache.emplace(args.cache);
    const auto on_done = [&](bool ok, std::size_t total) {
        if (!terminal) return;
        if (!progress)
            progress =
                std::make_unique<SweepProgress>(total, 0, 0, true, "validate", "simulations");
        progress->point_done(ok, ok ? "" : "a simulation failed (its row says why)");
    };
    const auto figures = simulate_benchmarks(cfg, defs, jobs, on_done, cache ? &*cache : nullptr);
    if (progress) progress->finish();
    for (std::size_t i = 0; i < report.rows.size(); ++i) {
        if (def_of[i] == SIZE_MAX) continue;
        report.rows[i].simulated = figures[def_of[i]];
        if (in_ns[i]) report.rows[i].simulated.value /= cfg.clock_ghz;
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
    cmd->add_option("--chip", args->chip,
                    "Compare with the figures measured on this chip (default: the config's "
                    "own, else its family's, else every chip's; the first line says which)");
    cmd->add_option("--cache", args->cache,
                    "Keep each simulation's result in this directory, and read those already "
                    "there for the same executable, config and benchmark instead of simulating "
                    "them again (docs/validation.md)");
    add_count_option(*cmd, "-j,--jobs", args->jobs,
                     "Simulations at once (default: the host's cores)", 1, 1024);
    cmd->add_flag("--strict", args->strict,
                  "Refuse a file with a row the model cannot simulate (default: list such rows and "
                  "run the others)");
    cmd->add_flag("--summary-only", args->summary_only,
                  "Print the summary without the per-figure table");
    cmd->callback([args, &action] { action = [args] { return validate(*args); }; });
}

}  // namespace agx::cli
