// `agxsim sweep`: what-if studies (docs/sweeps.md). `check` validates a sweep
// description, `run` runs its points as processes on this machine (or one
// shard of them), `slurm` hands the shards to a Slurm job array, `collect`
// merges the shards, `plot` draws the results.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "sim/cli/commands.hpp"
#include "sim/cli/count_option.hpp"
#include "sim/cli/sweep_progress.hpp"
#include "sim/cli/workload_input.hpp"
#include "sim/common/errors.hpp"
#include "sim/common/output_file.hpp"
#include "sim/config/config_loader.hpp"
#include "sim/sweep/external_command.hpp"
#include "sim/sweep/metrics.hpp"
#include "sim/sweep/process_pool.hpp"
#include "sim/sweep/results_csv.hpp"
#include "sim/sweep/slurm_script.hpp"
#include "sim/sweep/sweep_dir.hpp"
#include "sim/sweep/sweep_plot.hpp"
#include "sim/sweep/sweep_spec.hpp"
#include "sim/sweep/sweep_table.hpp"
#include "validation/lib/measurement.hpp"

namespace agx::cli {

namespace {

namespace fs = std::filesystem;
using namespace agx::sweep;

// A sweep whose points did not all succeed (or, for collect, are not all
// there) exits kExitSomeRunsFailed.
constexpr int kExitInterrupted = 130;

bool is_launch_key(const std::string& key) {
    return key.rfind("launch.", 0) == 0;
}

std::vector<std::string> config_sets(const std::vector<std::string>& sets) {
    std::vector<std::string> out;
    for (const std::string& s : sets)
        if (!is_launch_key(s)) out.push_back(s);
    return out;
}

// Everything that can be checked without simulating: every config with every
// value of every axis, every combination the points make, every workload
// with every launch its points give it. Throws InputError naming the sweep
// file and the entry.
void validate_sweep(const SweepSpec& spec) {
    const std::string& file = spec.file;
    std::vector<MachineConfig> configs;
    for (std::size_t i = 0; i < spec.configs.size(); ++i) {
        try {
            configs.push_back(load_config(spec.configs[i], config_sets(spec.sets)));
        } catch (const InputError& e) {
            throw InputError(file + ": configs[" + std::to_string(i) + "] " + spec.configs[i],
                             e.what());
        }
    }
    std::set<std::string> labels;
    for (const std::string& c : spec.configs)
        if (!labels.insert(config_label(c)).second)
            throw InputError(file + ": configs",
                             "two configs are both named '" + config_label(c) + "'");
    // Each axis value on its own, so that an error names it.
    for (const Axis& a : spec.axes) {
        for (const auto& v : a.values) {
            const std::string entry = file + ": axes " + a.key + "=" + value_text(v);
            try {
                if (a.key == "cores") {
                    for (const MachineConfig& cfg : configs) parse_cores(value_text(v), cfg);
                } else if (!is_launch_key(a.key)) {
                    std::vector<std::string> sets = config_sets(spec.sets);
                    sets.push_back(a.key + "=" + value_text(v));
                    for (const std::string& c : spec.configs) load_config(c, sets);
                }
            } catch (const InputError& e) {
                throw InputError(entry, e.what());
            }
        }
    }
    try {
        for (const MachineConfig& cfg : configs) parse_cores(spec.cores, cfg);
    } catch (const InputError& e) {
        throw InputError(file + ": cores", e.what());
    }
    // Every combination, once each.
    std::set<std::string> seen_configs, seen_launches;
    const std::size_t n = point_count(spec);
    for (std::size_t i = 0; i < n; ++i) {
        const Point p = point_at(spec, i);
        const std::vector<std::string> sets = point_sets(spec, p);
        const WorkloadSpec& w = spec.workloads[p.workload];
        const std::string where = file + ": point " + std::to_string(i) + " (" + w.name + " on " +
                                  config_label(spec.configs[p.config]) + ")";
        std::string config_key = spec.configs[p.config];
        for (const std::string& s : config_sets(sets)) config_key += "\n" + s;
        if (seen_configs.insert(config_key).second) {
            try {
                const MachineConfig cfg = load_config(spec.configs[p.config], config_sets(sets));
                parse_cores(point_cores(spec, p), cfg);
            } catch (const InputError& e) {
                throw InputError(where, e.what());
            }
        }
        std::string launch_key = std::to_string(p.workload);
        KernelOptions kernel;
        for (const std::string& s : sets)
            if (is_launch_key(s)) {
                launch_key += "\n" + s;
                kernel.launch_sets.push_back(s.substr(7));
            }
        if (!seen_launches.insert(launch_key).second) continue;
        try {
            if (w.kind == WorkloadSpec::Kind::suite) {
                if (!kernel.launch_sets.empty())
                    throw InputError("launch." + kernel.launch_sets.front(),
                                     "a suite benchmark has no launch to set");
                const auto m = validation::read_measurements(w.path);
                const bool found =
                    std::any_of(m.records.begin(), m.records.end(), [&](const auto& r) {
                        return r.id == w.suite_id || r.id.find(w.suite_id) != std::string::npos;
                    });
                if (!found) throw InputError(w.path, "no benchmark with id '" + w.suite_id + "'");
            } else {
                open_workload(w.path, kernel);
            }
        } catch (const InputError& e) {
            throw InputError(where, e.what());
        }
    }
}

std::vector<std::string> point_args(const SweepSpec& spec, const Point& p) {
    const WorkloadSpec& w = spec.workloads[p.workload];
    std::vector<std::string> args;
    if (w.kind == WorkloadSpec::Kind::suite)
        args = {"suite", "run", w.suite_id, "--measurements", w.path};
    else
        args = {"run", w.path, "--cores", point_cores(spec, p), "--quiet"};
    args.push_back("--config");
    args.push_back(spec.configs[p.config]);
    for (const std::string& s : point_sets(spec, p)) {
        args.push_back("--set");
        args.push_back(s);
    }
    return args;
}

bool needs_a_run_to_check(const SweepSpec& spec) {
    for (const std::string& m : spec.metrics)
        if (!is_builtin_metric(m)) return true;
    return false;
}

// A key path no run has is a typo in the description.
void check_metrics(const SweepSpec& spec, const nlohmann::json& stats) {
    for (const std::string& m : spec.metrics)
        if (!metric_value(stats, m))
            throw InputError(
                spec.file + ": metrics " + m,
                "not a number in the run's statistics (see `agxsim run --stats` for the keys)");
}

unsigned default_jobs() {
    return std::max(1u, std::thread::hardware_concurrency());
}

// --- sweep check ------------------------------------------------------------

struct CheckArgs {
    std::string sweep;
};

int check(const CheckArgs& args) {
    const SweepSpec spec = read_sweep(args.sweep);
    validate_sweep(spec);
    auto count = [](std::size_t n, const char* what) {
        return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
    };
    std::cout << spec.file << ": " << count(point_count(spec), "point") << " ("
              << count(spec.workloads.size(), "workload") << " x "
              << count(spec.configs.size(), "config");
    for (std::size_t d = 0; d < spec.dimensions; ++d) {
        std::string keys;
        for (const Axis& a : spec.axes)
            if (a.dimension == d) keys += (keys.empty() ? "" : "+") + a.key;
        std::cout << " x " << spec.dimension_size[d] << " " << keys;
    }
    std::cout << "), " << spec.metrics.size() << " metrics\n";
    return kExitOk;
}

// --- sweep run --------------------------------------------------------------

struct RunSweepArgs {
    std::string sweep, out, shard;
    unsigned jobs = 0;
    // A point's wall-time limit: an hour, far past any shipped study's
    // slowest point (minutes), so that only a point that never ends meets it.
    unsigned point_seconds = 3600;
    bool retry_failed = false, no_progress = false;
};

int run_sweep(const RunSweepArgs& args) {
    const SweepSpec spec = read_sweep(args.sweep);
    const bool sharded = !args.shard.empty();
    const Shard shard = sharded ? parse_shard(args.shard) : Shard{};
    validate_sweep(spec);
    PoolOptions pool;
    pool.executable = self_executable();
    pool.jobs = args.jobs ? args.jobs : default_jobs();
    pool.point_seconds = args.point_seconds;

    // A metric that names a key of the statistics can only be checked against
    // a run's: on a fresh start, run the shard's first point before anything
    // is written, so that a typo costs one point and leaves nothing behind.
    std::optional<PointOutcome> first;
    if (!fs::exists(results_path(args.out, shard, sharded)) && needs_a_run_to_check(spec)) {
        std::size_t i = 0;
        while (i < point_count(spec) && !shard.contains(i)) ++i;
        if (i < point_count(spec)) {
            PoolOptions alone = pool;
            alone.jobs = 1;
            alone.scratch_dir =
                (fs::temp_directory_path() / ("agxsim-sweep-" + std::to_string(::getpid())))
                    .string();
            const bool complete = run_pool({{i, point_args(spec, point_at(spec, i))}}, alone,
                                           [&](const PointOutcome& o) {
                                               first = o;
                                               return true;
                                           });
            std::error_code ec;
            fs::remove_all(alone.scratch_dir, ec);
            if (!complete) return kExitInterrupted;
            if (first && first->ok) check_metrics(spec, first->stats);
        }
    }

    claim_directory(args.out, spec);
    if (sharded) fs::create_directories(shards_dir(args.out));
    ResultsFile results(results_path(args.out, shard, sharded), results_header(spec));
    const std::size_t status_col = results_header(spec).size() - 2;
    if (first && !results.rows().count(first->index))
        results.append(results_row(spec, point_at(spec, first->index), *first));
    if (args.retry_failed)
        results.drop_rows([&](const std::vector<std::string>& r) { return r[status_col] != "ok"; });

    std::vector<PointJob> jobs;
    const std::size_t n = point_count(spec);
    std::size_t mine = 0, done_before = 0, failed_before = 0;
    for (std::size_t i = 0; i < n; ++i) {
        if (!shard.contains(i)) continue;
        ++mine;
        const auto it = results.rows().find(i);
        if (it != results.rows().end()) {
            // The point this run checked the metrics on is done, but not before.
            if (first && first->index == i) continue;
            ++done_before;
            failed_before += it->second[status_col] != "ok";
            continue;
        }
        jobs.push_back({i, point_args(spec, point_at(spec, i))});
    }

    // The scratch files of this results file's points: this run's alone
    // while it holds its lock, so what a killed run left there can go.
    pool.scratch_dir =
        args.out + "/scratch/" +
        (sharded ? std::to_string(shard.index) + "-of-" + std::to_string(shard.count) : "local");
    std::error_code ec;
    fs::remove_all(pool.scratch_dir, ec);
    if (done_before > 0)
        std::cerr << "agxsim: sweep " << spec.name << ": " << done_before << " of " << mine
                  << " points already in " << results_path(args.out, shard, sharded)
                  << ", running the other " << jobs.size() << "\n";
    SweepProgress progress(mine, done_before, failed_before, !args.no_progress);
    if (first)
        progress.point_done(
            first->ok,
            first->ok ? "" : "point " + std::to_string(first->index) + ": " + first->error);
    std::optional<InputError> metric_error;
    const bool complete = run_pool(jobs, pool, [&](const PointOutcome& o) {
        const Point p = point_at(spec, o.index);
        if (o.ok) {
            try {
                check_metrics(spec, o.stats);
            } catch (const InputError& e) {
                metric_error = e;
                return false;
            }
        }
        results.append(results_row(spec, p, o));
        progress.point_done(o.ok, o.ok ? "" : "point " + std::to_string(o.index) + ": " + o.error);
        return true;
    });
    progress.finish();
    fs::remove_all(pool.scratch_dir, ec);
    fs::remove(args.out + "/scratch", ec);  // only when empty: other shards may be running
    if (metric_error) throw *metric_error;
    if (!complete) {
        std::cerr << "agxsim: sweep interrupted; the finished points are in "
                  << results_path(args.out, shard, sharded)
                  << ", and the same command resumes it\n";
        return kExitInterrupted;
    }
    // Rows are appended as points finish; the finished file lists them by
    // point, as `sweep collect` writes it.
    results.sort_by_point();
    std::size_t failed = 0;
    for (const auto& [k, r] : results.rows()) failed += r[status_col] != "ok";
    std::cerr << "agxsim: sweep " << spec.name << ": " << mine - failed << " of " << mine
              << " points ok"
              << (failed ? ", " + std::to_string(failed) +
                               " failed (their errors are in the error column; "
                               "--retry-failed runs them again)"
                         : "")
              << " -> " << results_path(args.out, shard, sharded) << "\n";
    return failed ? kExitSomeRunsFailed : kExitOk;
}

// --- sweep slurm ------------------------------------------------------------

struct SlurmArgs {
    std::string sweep, out, partition, time_limit;
    std::size_t array_limit = 0, shards = 0;
    unsigned cpus_per_task = 1;
    bool dry_run = false, wait = false;
};

std::string absolute(const std::string& p) {
    return fs::absolute(p).lexically_normal().string();
}

int slurm(const SlurmArgs& args) {
    const SweepSpec spec = read_sweep(args.sweep);
    validate_sweep(spec);
    const std::size_t n = point_count(spec);
    SlurmOptions o;
    o.executable = self_executable();
    o.sweep_file = absolute(args.sweep);
    o.out_dir = absolute(args.out);
    o.shards = args.shards ? std::min(args.shards, n) : std::min<std::size_t>(n, 100);
    o.partition = args.partition;
    o.time_limit = args.time_limit;
    o.array_limit = args.array_limit;
    o.cpus_per_task = std::max(1u, args.cpus_per_task);
    o.job_name = "agxsim-" + spec.name;
    // The script is written (and every option of it checked) before the
    // directory is claimed: a refused option leaves no sweep.json behind.
    const std::string text = slurm_script(o);
    claim_directory(args.out, spec);
    fs::create_directories(o.out_dir + "/slurm");
    const std::string script = o.out_dir + "/slurm/sweep.sbatch";
    write_file_atomically(script, text);
    std::cout << "wrote " << script << ": " << o.shards << " array tasks for " << n << " points\n";
    if (args.dry_run) {
        std::cout << "submit it with: sbatch " << script << "\n";
        return kExitOk;
    }
    std::vector<std::string> sbatch = {"sbatch", "--parsable"};
    if (args.wait) sbatch.push_back("--wait");
    sbatch.push_back(script);
    const CommandResult r = run_external(sbatch);
    if (!r.started)
        throw InputError("sbatch", "cannot run it (" + r.error + "); the script is " + script +
                                       ": submit it where Slurm is installed");
    std::string id = r.out;
    while (!id.empty() && (id.back() == '\n' || id.back() == '\r')) id.pop_back();
    if (!args.wait && r.exit_code != 0)
        throw InputError("sbatch " + script,
                         "failed (exit " + std::to_string(r.exit_code) + "): " + r.err_last_line);
    if (!args.wait) {
        std::cout << "submitted job array " << id << "; when `squeue -j " << id
                  << "` lists nothing, run: agxsim sweep collect " << args.out << "\n";
        return kExitOk;
    }
    std::cout << "job array " << id << " finished"
              << (r.exit_code == 0
                      ? ""
                      : " with failed tasks (exit " + std::to_string(r.exit_code) + ")")
              << "; merge its shards with: agxsim sweep collect " << args.out << "\n";
    return r.exit_code == 0 ? kExitOk : kExitSomeRunsFailed;
}

// --- sweep collect ----------------------------------------------------------

struct CollectArgs {
    std::string dir;
};

int collect(const CollectArgs& args) {
    const SweepSpec spec = read_directory(args.dir);
    const std::vector<std::string> header = results_header(spec);
    const std::size_t status_col = header.size() - 2, error_col = header.size() - 1;
    std::map<std::size_t, std::vector<std::string>> rows;
    std::vector<std::string> files;
    std::error_code ec;
    if (fs::is_directory(shards_dir(args.dir), ec))
        for (const auto& e : fs::directory_iterator(shards_dir(args.dir)))
            if (e.path().extension() == ".csv") files.push_back(e.path().string());
    std::sort(files.begin(), files.end());
    if (files.empty())
        throw InputError(args.dir,
                         "holds no shard results (shards/*.csv): have the array's tasks run?");
    for (const std::string& f : files) {
        const ResultsTable t = read_results(f);
        if (t.header != header)
            throw InputError(f, "holds other columns than the directory's sweep");
        check_rows_are_points(spec, t, f);
        for (const auto& r : t.rows) {
            const std::size_t point = std::stoul(r[0]);
            auto [it, inserted] = rows.emplace(point, r);
            if (!inserted && it->second[status_col] != "ok") it->second = r;  // an ok row wins
        }
    }
    ResultsTable merged;
    merged.header = header;
    std::size_t failed = 0;
    std::vector<std::size_t> missing;
    const std::size_t n = point_count(spec);
    for (std::size_t i = 0; i < n; ++i) {
        const auto it = rows.find(i);
        if (it == rows.end()) {
            missing.push_back(i);
            continue;
        }
        failed += it->second[status_col] != "ok";
        merged.rows.push_back(it->second);
    }
    const std::string out = args.dir + "/results.csv";
    // Under the results' lock: a sweep running into the directory appends
    // to the file, and a merge written over it would lose its rows.
    const ResultsLock lock(out, "a sweep is appending to it: collect once it has finished");
    write_results(out, merged);
    std::cout << "collected " << merged.rows.size() << " of " << n << " points from "
              << files.size() << " shard files into " << out << ": " << merged.rows.size() - failed
              << " ok, " << failed << " failed, " << missing.size() << " missing\n";
    std::size_t shown = 0;
    for (const auto& r : merged.rows)
        if (r[status_col] != "ok" && shown++ < 10)
            std::cout << "  failed: point " << r[0] << " (" << r[1] << " on " << r[2]
                      << "): " << r[error_col] << "\n";
    if (!missing.empty()) {
        std::string list;
        for (std::size_t i = 0; i < std::min<std::size_t>(missing.size(), 20); ++i)
            list += (i ? ", " : "") + std::to_string(missing[i]);
        if (missing.size() > 20) list += ", ...";
        std::cout << "  missing: points " << list
                  << " (rerun their shards: the same `sweep run --shard I/N` resumes)\n";
    }
    return failed || !missing.empty() ? kExitSomeRunsFailed : kExitOk;
}

// --- sweep plot -------------------------------------------------------------

struct PlotArgs {
    std::string dir, out;
    std::vector<std::string> metrics;
    bool normalise = false;
};

// A finished directory's results, checked against its sweep, for plot and
// table; and the metrics asked for (default: the sweep's first), each a
// column of them.
struct DirectoryResults {
    SweepSpec spec;
    ResultsTable table;
    std::vector<std::string> metrics;
};

DirectoryResults read_directory_results(const std::string& dir,
                                        const std::vector<std::string>& metrics) {
    DirectoryResults d;
    d.spec = read_directory(dir);
    const std::string results = dir + "/results.csv";
    if (!fs::exists(results))
        throw InputError(
            dir, "has no results.csv (run `agxsim sweep run`, or `sweep collect` after Slurm)");
    d.table = read_results(results);
    if (d.table.header != results_header(d.spec))
        throw InputError(results, "holds other columns than the directory's sweep");
    check_rows_are_points(d.spec, d.table, results);
    d.metrics = metrics.empty() ? std::vector<std::string>{d.spec.metrics.front()} : metrics;
    for (const std::string& m : d.metrics)
        if (d.table.column(m) == SIZE_MAX)
            throw InputError("--metric " + m, "not a column of " + results);
    return d;
}

int plot(const PlotArgs& args) {
    const DirectoryResults d = read_directory_results(args.dir, args.metrics);
    const SweepSpec& spec = d.spec;
    const ResultsTable& table = d.table;
    PlotOptions o;
    o.metrics = d.metrics;
    o.normalise = args.normalise;
    o.out_dir = args.out.empty() ? args.dir + "/plots" : args.out;
    const std::vector<std::string> written = write_sweep_plots(spec, table, o);
    for (const std::string& f : written) std::cout << "wrote " << f << "\n";
    if (written.empty()) std::cout << "nothing to plot: the sweep has no axes and one config\n";
    return kExitOk;
}

// --- sweep table ------------------------------------------------------------

struct TableArgs {
    std::string dir;
    std::vector<std::string> metrics;
};

int table(const TableArgs& args) {
    const DirectoryResults d = read_directory_results(args.dir, args.metrics);
    std::cout << sweep_tables(d.spec, d.table, d.metrics);
    return kExitOk;
}

}  // namespace

void add_sweep_command(CLI::App& app, Action& action) {
    CLI::App* cmd = app.add_subcommand(
        "sweep", "What-if studies: many points, in parallel or on Slurm (docs/sweeps.md)");
    cmd->require_subcommand(1);

    auto ca = std::make_shared<CheckArgs>();
    CLI::App* c = cmd->add_subcommand("check", "Validate a sweep description and count its points");
    c->add_option("sweep", ca->sweep, "Sweep description (JSON)")->required();
    c->callback([ca, &action] { action = [ca] { return check(*ca); }; });

    auto ra = std::make_shared<RunSweepArgs>();
    CLI::App* r = cmd->add_subcommand(
        "run", "Run a sweep's points on this machine, resuming where it stopped");
    r->add_option("sweep", ra->sweep, "Sweep description (JSON)")->required();
    r->add_option("-o,--out", ra->out, "Output directory (results.csv)")->required();
    add_count_option(*r, "-j,--jobs", ra->jobs, "Points at once (default: the machine's cores)", 1,
                     1024);
    r->add_option("--shard", ra->shard,
                  "Only shard I of N (points whose number is I mod N), into shards/");
    add_count_option(*r, "--point-seconds", ra->point_seconds,
                     "Wall-time limit of each point: one still running after it is killed and "
                     "recorded as failed")
        ->capture_default_str();
    r->add_flag("--retry-failed", ra->retry_failed, "Run the points that failed again");
    r->add_flag("--no-progress", ra->no_progress, "No progress bar (a line per minute instead)");
    r->callback([ra, &action] { action = [ra] { return run_sweep(*ra); }; });

    auto sa = std::make_shared<SlurmArgs>();
    CLI::App* s = cmd->add_subcommand(
        "slurm", "Write (and submit) a Slurm job array that runs a sweep's shards");
    s->add_option("sweep", sa->sweep, "Sweep description (JSON)")->required();
    s->add_option("-o,--out", sa->out, "Output directory, on storage the nodes share")->required();
    s->add_option("--partition", sa->partition, "Slurm partition (default: the cluster's)");
    s->add_option("--time", sa->time_limit, "Time limit per array task (sbatch --time)");
    add_count_option(*s, "--array-limit", sa->array_limit,
                     "Array tasks running at once (default: no limit)");
    add_count_option(*s, "--shards", sa->shards,
                     "Array tasks (default: one per point, at most 100)");
    add_count_option(*s, "--cpus-per-task", sa->cpus_per_task,
                     "CPUs per task: points each task runs at once")
        ->capture_default_str();
    s->add_flag("--dry-run", sa->dry_run, "Only write the script");
    s->add_flag("--wait", sa->wait, "Wait for the array to finish (sbatch --wait)");
    s->callback([sa, &action] { action = [sa] { return slurm(*sa); }; });

    auto la = std::make_shared<CollectArgs>();
    CLI::App* l = cmd->add_subcommand("collect", "Merge a sweep's shard results into results.csv");
    l->add_option("dir", la->dir, "The sweep's output directory")->required();
    l->callback([la, &action] { action = [la] { return collect(*la); }; });

    auto pa = std::make_shared<PlotArgs>();
    CLI::App* p = cmd->add_subcommand(
        "plot", "Draw a sweep's results as SVG: a line chart per axis, a heatmap per pair");
    p->add_option("dir", pa->dir, "The sweep's output directory")->required();
    p->add_option("--metric", pa->metrics,
                  "Metric to draw (a results.csv column; default: the first; repeatable)");
    p->add_flag("--normalise", pa->normalise,
                "Divide each line by its value at the baseline point");
    p->add_option("-o,--out", pa->out, "Directory for the SVGs (default: DIR/plots)");
    p->callback([pa, &action] { action = [pa] { return plot(*pa); }; });

    auto ta = std::make_shared<TableArgs>();
    CLI::App* t = cmd->add_subcommand(
        "table", "Print a sweep's results as Markdown: a row per workload, a column per config");
    t->add_option("dir", ta->dir, "The sweep's output directory")->required();
    t->add_option("--metric", ta->metrics,
                  "Metric to tabulate (a results.csv column; default: the first; repeatable)");
    t->callback([ta, &action] { action = [ta] { return table(*ta); }; });
}

}  // namespace agx::cli
