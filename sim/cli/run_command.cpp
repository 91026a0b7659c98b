// `agxsim run TRACE`: simulate a trace on a machine and report where the
// cycles went.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <unistd.h>
#include <iomanip>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sim/cli/commands.hpp"
#include "sim/cli/count_option.hpp"
#include "sim/cli/summary.hpp"
#include "sim/cli/workload_input.hpp"
#include "sim/common/errors.hpp"
#include "sim/common/output_file.hpp"
#include "sim/config/config_loader.hpp"
#include "sim/model/simulation.hpp"
#include "sim/stats/cpi_stack_svg.hpp"
#include "sim/stats/instruction_profile.hpp"
#include "sim/stats/timeline.hpp"
#include "sim/timing/occupancy.hpp"
#include "sim/timing/sampling_plan.hpp"
#include "sim/trace/functional_run.hpp"

namespace agx::cli {

namespace {

struct RunArgs {
    std::string trace;
    std::string config = "m1";
    std::vector<std::string> overrides;
    std::string stats;
    std::string profile;
    std::string timeline, timeline_window;
    std::string report;
    std::uint64_t timeline_max_events = 500'000;
    std::string cores = "1";
    bool quiet = false;
    bool functional = false;
    bool sample = false;
    std::string sample_plan;
    KernelOptions kernel;
    std::vector<std::string> dumps;  // NAME=FILE
};

// A kernel buffer to write after the run, opened before it (so that a bad
// path fails first) and completed only if the run succeeds.
struct Dump {
    std::size_t buffer;
    bool npy;
    std::unique_ptr<OutputFile> file;
    std::string name, path;
};

std::vector<Dump> open_dumps(const std::vector<std::string>& specs, kernel::KernelWorkload* k) {
    std::vector<Dump> dumps;
    for (const std::string& spec : specs) {
        const auto eq = spec.find('=');
        if (eq == std::string::npos || eq == 0 || eq + 1 == spec.size())
            throw InputError("--dump " + spec, "expected NAME=FILE (a buffer of the kernel)");
        if (!k) throw InputError("--dump " + spec, "only a kernel has buffers to dump");
        const std::string name = spec.substr(0, eq), path = spec.substr(eq + 1);
        const auto buffer = k->memory().find_buffer(name);
        if (!buffer) {
            std::string names;
            for (std::size_t i = 0; i < k->memory().buffer_count(); ++i)
                if (k->memory().spec(i).name != "(stack)")
                    names += (names.empty() ? "" : ", ") + k->memory().spec(i).name;
            throw InputError("--dump " + spec, "the kernel has no buffer '" + name + "' (" +
                                                   (names.empty() ? "none" : names) + ")");
        }
        const bool npy = path.size() > 4 && path.compare(path.size() - 4, 4, ".npy") == 0;
        dumps.push_back({*buffer, npy, std::make_unique<OutputFile>(path), name, path});
    }
    return dumps;
}

// Writes each buffer after a successful run, then completes every file.
// Returns a line per file saying what it holds, for the summary.
std::vector<std::string> write_dumps(std::vector<Dump>& dumps, kernel::KernelWorkload* k) {
    std::vector<std::string> written;
    for (Dump& d : dumps) {
        if (d.npy)
            k->memory().dump_npy(d.buffer, d.file->stream());
        else
            k->memory().dump_raw(d.buffer, d.file->stream());
    }
    for (Dump& d : dumps) {
        d.file->commit();
        written.push_back(d.path + " (buffer " + d.name + ", " +
                          std::to_string(k->memory().spec(d.buffer).size) + " bytes" +
                          (d.npy ? ", NumPy .npy" : ", raw") + ")");
    }
    return written;
}

// What a run wrote, after its summary: a line per output.
void print_written(std::ostream& out, const std::vector<std::string>& written) {
    for (const std::string& w : written) out << "wrote " << w << "\n";
}

// `A:B`, `A:` or `:B` in cycles.
void parse_window(const std::string& text, TimelineOptions& o) {
    const auto colon = text.find(':');
    auto number = [&](const std::string& s, Cycle fallback) -> Cycle {
        if (s.empty()) return fallback;
        char* end = nullptr;
        const unsigned long long v = std::strtoull(s.c_str(), &end, 10);
        if (*end != '\0' || s[0] == '-')
            throw InputError("--timeline-window " + text,
                             "expected A:B in cycles (either may be empty)");
        return v;
    };
    if (colon == std::string::npos)
        throw InputError("--timeline-window " + text,
                         "expected A:B in cycles (either may be empty)");
    o.from = number(text.substr(0, colon), 0);
    o.to = number(text.substr(colon + 1), kNever);
    if (o.to <= o.from)
        throw InputError("--timeline-window " + text, "the window is empty (B <= A)");
}

// `--functional`: the kernel's instructions with no timing, for its results.
int run_functional(const RunArgs& args, const MachineConfig& cfg, unsigned cores) {
    for (const auto& [given, option] : {std::pair{!args.stats.empty(), "--stats"},
                                        {!args.profile.empty(), "--profile"},
                                        {!args.timeline.empty(), "--timeline"},
                                        {!args.report.empty(), "--report"},
                                        {!args.timeline_window.empty(), "--timeline-window"}})
        if (given)
            throw InputError("--functional", std::string("runs without timing, so it has no ") +
                                                 (option + 2) + " to write: drop " + option);
    OpenedWorkload opened = open_workload(args.trace, args.kernel);
    if (!opened.kernel)
        throw InputError(args.trace, "--functional runs kernels (a trace has no results to check)");
    std::vector<Dump> dumps = open_dumps(args.dumps, opened.kernel);
    // As many threadgroups at a time as the simulated cores would hold.
    const Residency residency = compute_residency(cfg.core, opened.kernel->launch(), args.trace);
    const std::uint32_t window = residency.threadgroups_per_core * cores;
    const auto start = std::chrono::steady_clock::now();
    const std::uint64_t executed = run_functional(*opened.kernel, window);
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const std::vector<std::string> written = write_dumps(dumps, opened.kernel);
    if (!args.quiet) {
        print_functional_summary(std::cout, cfg, *opened.kernel, executed, window, secs);
        print_written(std::cout, written);
    }
    return kExitOk;
}

int run(RunArgs args) {
    take_launch_overrides(args.overrides, args.kernel);
    declare_input(resolve_config_path(args.config));
    const MachineConfig cfg = load_config(args.config, args.overrides);
    const unsigned cores = parse_cores(args.cores, cfg);
    if (args.functional) {
        if (args.sample || !args.sample_plan.empty())
            throw InputError("--sample", "samples a timed run; --functional has no timing");
        return run_functional(args, cfg, cores);
    }
    std::optional<SamplingPlan> sampling;
    if (args.sample || !args.sample_plan.empty())
        sampling = parse_sampling_plan(args.sample_plan, "--sample-plan " + args.sample_plan);
    std::unique_ptr<OutputFile> stats_file;
    if (!args.stats.empty()) stats_file = std::make_unique<OutputFile>(args.stats);
    std::unique_ptr<OutputFile> profile_file;
    if (!args.profile.empty()) profile_file = std::make_unique<OutputFile>(args.profile);
    TimelineOptions timeline_options;
    timeline_options.max_events = args.timeline_max_events;
    if (!args.timeline_window.empty()) parse_window(args.timeline_window, timeline_options);
    std::unique_ptr<OutputDirectory> report;
    if (!args.report.empty())
        report = std::make_unique<OutputDirectory>(args.report, "--report " + args.report);
    std::unique_ptr<OutputFile> timeline_file;
    std::unique_ptr<Timeline> timeline;
    if (!args.timeline.empty()) {
        timeline_file = std::make_unique<OutputFile>(args.timeline);
        timeline = std::make_unique<Timeline>(timeline_file->stream(), timeline_options,
                                              cfg.core.schedulers);
    } else if (!args.timeline_window.empty()) {
        throw InputError("--timeline-window", "needs --timeline FILE");
    }
    OpenedWorkload opened = open_workload(args.trace, args.kernel);
    Workload* workload = opened.workload.get();
    std::vector<Dump> dumps = open_dumps(args.dumps, opened.kernel);
    // A compiled kernel's profile shows the compiled kernel's lines.
    const std::vector<std::string>* listing =
        opened.kernel && !opened.kernel->program().text_lines.empty()
            ? &opened.kernel->program().text_lines
            : nullptr;

    RunOptions options;
    options.cores = cores;
    options.sampling = sampling;
    InstructionProfile profile;
    ObserverList observers;
    if (profile_file || report) observers.add(&profile);
    observers.add(timeline.get());
    if (!observers.empty()) options.observer = &observers;
    options.memory_observer = timeline.get();
    const RunResult result = simulate(cfg, *workload, options);

    std::vector<std::string> written = write_dumps(dumps, opened.kernel);
    if (stats_file) {
        stats_file->stream() << std::setw(2) << result.stats << "\n";
        stats_file->commit();
        written.push_back(args.stats + " (statistics, docs/statistics.md)");
    }
    if (timeline) {
        timeline->finish(result.cycles);
        timeline_file->commit();
        written.push_back(args.timeline + " (timeline: " + std::to_string(timeline->events()) +
                          " events, trace-event JSON)");
        if (timeline->capped())
            std::cerr << "agxsim: the timeline stopped at " << timeline->events()
                      << " events (cycle " << timeline->capped_at()
                      << "): narrow it with --timeline-window A:B or raise --timeline-max-events\n";
    }
    if (profile_file) {
        profile_file->stream() << std::setw(1)
                               << profile.to_json(args.trace, cfg.name, result.cycles, listing)
                               << "\n";
        profile_file->commit();
        written.push_back(args.profile + " (instruction profile, `agxsim profile show`)");
    }
    if (report) {
        std::ostringstream summary;
        print_summary(summary, cfg, *workload, result);
        write_file_atomically(report->file("summary.txt"), summary.str());
        std::ostringstream stats;
        stats << std::setw(2) << result.stats << "\n";
        write_file_atomically(report->file("stats.json"), stats.str());
        const nlohmann::json p = profile.to_json(args.trace, cfg.name, result.cycles, listing);
        std::ostringstream pj;
        pj << std::setw(1) << p << "\n";
        write_file_atomically(report->file("profile.json"), pj.str());
        write_file_atomically(report->file("profile.txt"), format_profile(p, args.trace, 60));
        std::ostringstream svg;
        write_cpi_stack_svg(svg, result.stats,
                            "Where the cycles went: " + workload->name() + " on " + cfg.name);
        write_file_atomically(report->file("cpi_stack.svg"), svg.str());
        report->commit();
        written.push_back(args.report +
                          "/ (summary.txt, stats.json, profile.json, profile.txt, cpi_stack.svg)");
    }
    if (!args.quiet) {
        print_summary(std::cout, cfg, *workload, result);
        print_written(std::cout, written);
    }
    return kExitOk;
}

}  // namespace

void add_run_command(CLI::App& app, Action& action) {
    auto args = std::make_shared<RunArgs>();
    CLI::App* cmd = app.add_subcommand("run", "Simulate an instruction trace and print a summary");
    cmd->add_option("trace", args->trace,
                    "Trace (traces/FORMAT.md) or kernel (traces/KERNEL.md) to simulate")
        ->required();
    cmd->add_option("-c,--config", args->config,
                    "Machine: a name in configs/ (m1, m1-max, m2, a14) or a JSON path")
        ->capture_default_str();
    cmd->add_option("--set", args->overrides,
                    "Override a config value: path.to.key=value, or a kernel's launch: "
                    "launch.KEY=value (repeatable)");
    cmd->add_option("--stats", args->stats, "Write every block's statistics as JSON to this file");
    cmd->add_option("--profile", args->profile,
                    "Write a per-instruction profile as JSON (agxsim profile show FILE prints it)");
    cmd->add_option("--report", args->report,
                    "Write a report directory: summary.txt, stats.json, profile.json and .txt, "
                    "cpi_stack.svg (the stall breakdown per core and scheduler)");
    cmd->add_option("--timeline", args->timeline,
                    "Write a timeline (Chrome trace-event JSON: open it in ui.perfetto.dev)");
    cmd->add_option("--timeline-window", args->timeline_window,
                    "Only cycles A to B in the timeline (A:B, either may be empty)");
    add_count_option(*cmd, "--timeline-max-events", args->timeline_max_events,
                     "Stop the timeline after this many events")
        ->capture_default_str();
    cmd->add_option("--cores", args->cores, "Cores to simulate: a number or 'all'")
        ->capture_default_str();
    cmd->add_flag("-q,--quiet", args->quiet, "Print nothing on success");
    cmd->add_flag("--functional", args->functional,
                  "Kernels: execute with no timing, for results and --dump only (threadgroups "
                  "run as many at a time as --cores hold)");
    cmd->add_flag("--sample", args->sample,
                  "Sampled simulation: the first waves of threadgroups and then one wave in "
                  "ten in detail, measured after a warm stretch in detail, the rest executed "
                  "with no timing; cycles and stall shares are estimated, with a 95% bound "
                  "(docs/performance.md, 'Sampled simulation')");
    cmd->add_option("--sample-plan", args->sample_plan,
                    "The sampling's waves, implies --sample: warmup=2,period=10,sample=1,warm=1,"
                    "early=1,tolerance=0.1,min_wave=128 (any of the keys; early=0: skipped "
                    "ranges wait for the threadgroups before them even when independent)");
    cmd->add_option("--dump", args->dumps,
                    "Kernels: write a buffer's final contents, NAME=FILE (.npy by extension, "
                    "else raw bytes; repeatable)");
    add_kernel_options(*cmd, args->kernel);
    cmd->callback([args, &action] { action = [args] { return run(*args); }; });
}

}  // namespace agx::cli
