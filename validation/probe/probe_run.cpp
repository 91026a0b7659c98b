#include "validation/probe/probe_run.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "sim/common/errors.hpp"
#include "validation/probe/chip_table.hpp"
#include "validation/probe/elapsed.hpp"
#include "validation/probe/figures.hpp"
#include "validation/probe/launch_plan.hpp"
#include "validation/probe/msl_ops.hpp"

namespace agx::probe {

using validation::BenchmarkDefinition;
using validation::Measurement;

namespace {

// Warm-up stops once two runs in a row agree this closely (the clock is up).
constexpr double kSettled = 0.02;

// One kernel of a benchmark (N, or 2N for the steady method) and its times.
struct KernelRun {
    Kernel kernel;
    PipelineInfo pipeline;
    std::vector<double> warmup, trials;  // seconds
    std::string timing;                  // "counters", "command_buffer" or "mixed"
};

std::string format(double v, int decimals = 3) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

nlohmann::json device_json(const RunContext& c) {
    return {{"name", c.device.name},
            {"chip", c.chip},
            {"family", c.device.family},
            {"cores", c.cores},
            {"os", c.device.os},
            {"backend", c.device.backend},
            {"clock_ghz", c.clock_ghz},
            {"clock_source", c.clock_source},
            {"threadgroup_memory_per_core_assumed", c.device.threadgroup_memory_per_core},
            {"stage_boundary_counters", c.device.stage_boundary_counters}};
}

double time_once(Backend& backend, KernelRun& run, const Dispatch& dispatch) {
    const Elapsed e = elapsed(backend.run(run.pipeline, dispatch));
    run.timing = run.timing.empty() || run.timing == e.source ? e.source : "mixed";
    return e.seconds;
}

class BenchmarkMeasurer {
  public:
    BenchmarkMeasurer(Backend& backend, const RunContext& ctx, const RunOptions& options)
        : backend_(backend), ctx_(ctx), options_(options) {}

    Measurement measure(const SuiteEntry& entry) {
        Measurement m;
        m.id = entry.id + "/" + ctx_.chip;
        m.chip = ctx_.chip;
        m.clock_ghz = ctx_.clock_ghz;
        m.kind = entry.kind;
        m.benchmark = entry.def;
        m.probe["device"] = device_json(ctx_);
        try {
            measure_into(entry.def, m);
        } catch (const GeneratorError& e) {
            not_measured(m, std::string("cannot generate the kernel: ") + e.what());
        } catch (const BackendError& e) {
            not_measured(m, e.what());
        } catch (const std::invalid_argument& e) {
            not_measured(m, e.what());
        }
        return m;
    }

    // Keeps the GPU busy with the first kernel that compiles until it has
    // run `warmup_seconds`: an idle GPU starts at a low clock and ramps up.
    nlohmann::json warm_device(const std::vector<SuiteEntry>& entries) {
        for (const auto& e : entries) {
            try {
                KernelRun r{generate_kernel(e.def, e.def.repetitions), {}, {}, {}, {}};
                r.pipeline = backend_.compile(r.kernel, "");
                const LaunchPlan plan = plan_for(e.def, r.pipeline.max_threads_per_threadgroup);
                double total = 0;
                while (total < options_.warmup_seconds && r.warmup.size() < 100000) {
                    r.warmup.push_back(time_once(backend_, r, dispatch_of(plan, r.kernel)));
                    total += r.warmup.back();
                }
                return {{"benchmark", e.id},
                        {"dispatches", r.warmup.size()},
                        {"seconds", total},
                        {"first_seconds", r.warmup.empty() ? 0.0 : r.warmup.front()},
                        {"last_seconds", r.warmup.empty() ? 0.0 : r.warmup.back()}};
            } catch (const GeneratorError&) {
                continue;  // not measurable: try the next
            } catch (const std::invalid_argument&) {
                continue;
            }
        }
        return nullptr;
    }

  private:
    // The definition's launch on this device: its own waves when it names
    // them (else --waves) and its threadgroups per core.
    LaunchPlan plan_for(const BenchmarkDefinition& def, std::uint32_t max_threads) const {
        return plan_launch(def.simds_per_core, ctx_.device, ctx_.cores, max_threads,
                           def.waves > 1 ? def.waves : options_.waves, def.resident_threadgroups);
    }

    void not_measured(Measurement& m, const std::string& why) {
        m.value.reset();
        m.qualifier.clear();
        m.raw.clear();
        m.provenance = "agxsim-probe " + std::string(kProbeVersion) + ": not measured: " + why;
        m.probe["not_measured"] = why;
    }

    void measure_into(const BenchmarkDefinition& def, Measurement& m) {
        const bool steady = def.method == BenchmarkDefinition::Method::Steady;
        std::vector<KernelRun> runs;
        runs.push_back({generate_kernel(def, def.repetitions), {}, {}, {}, {}});
        if (steady) runs.push_back({generate_kernel(def, 2 * def.repetitions), {}, {}, {}, {}});
        std::uint32_t max_threads = 1024;
        for (auto& r : runs) {
            r.pipeline = backend_.compile(r.kernel, options_.archive_dir);
            max_threads = std::min(max_threads, r.pipeline.max_threads_per_threadgroup);
        }
        // Both runs of the steady method launch alike, so only the repetitions differ.
        const LaunchPlan plan = plan_for(def, max_threads);

        for (auto& r : runs) {
            const Dispatch d = dispatch_of(plan, r.kernel);
            const unsigned least = std::max(1u, options_.warmup);
            for (unsigned i = 0; i < least; ++i) r.warmup.push_back(time_once(backend_, r, d));
            // Then on until the clock has settled, up to four times as many.
            while (r.warmup.size() < 4u * least) {
                const std::size_t n = r.warmup.size();
                if (n >= 2 &&
                    std::abs(r.warmup[n - 1] - r.warmup[n - 2]) <= kSettled * r.warmup[n - 2])
                    break;
                r.warmup.push_back(time_once(backend_, r, d));
            }
        }
        // Trials interleave the kernels, so a drift in clock touches both alike.
        for (unsigned t = 0; t < std::max(1u, options_.trials); ++t)
            for (auto& r : runs)
                r.trials.push_back(time_once(backend_, r, dispatch_of(plan, r.kernel)));

        Work work;
        work.repetitions = def.repetitions;
        work.bodies_per_repetition = def.bodies_per_repetition();
        work.simds_per_core = plan.simd_work_per_core();
        auto cycles = [&](double s) { return cycles_from_seconds(s, ctx_.clock_ghz); };
        std::vector<double> per_trial;
        double value = 0;
        if (steady) {
            for (std::size_t t = 0; t < runs[0].trials.size(); ++t)
                per_trial.push_back(
                    steady_figure(cycles(runs[0].trials[t]), cycles(runs[1].trials[t]), work));
            value = steady_figure(cycles(statistics(runs[0].trials).best),
                                  cycles(statistics(runs[1].trials).best), work);
        } else {
            for (double s : runs[0].trials)
                per_trial.push_back(figure_from_cycles(cycles(s), work));
            value = figure_from_cycles(cycles(statistics(runs[0].trials).best), work);
        }

        double spread = std::numeric_limits<double>::infinity();
        const bool positive =
            std::all_of(per_trial.begin(), per_trial.end(), [](double f) { return f > 0; });
        if (positive) spread = statistics(per_trial).spread;
        record(m, runs, plan, value, per_trial, spread);
    }

    void record(Measurement& m, const std::vector<KernelRun>& runs, const LaunchPlan& plan,
                double value, const std::vector<double>& per_trial, double spread) {
        nlohmann::json kernels = nlohmann::json::array();
        std::string timing;
        for (const auto& r : runs) {
            const Statistics s = statistics(r.trials);
            nlohmann::json pipeline = {
                {"max_total_threads_per_threadgroup", r.pipeline.max_threads_per_threadgroup},
                {"thread_execution_width", r.pipeline.thread_execution_width},
                {"registers", r.pipeline.registers ? nlohmann::json(*r.pipeline.registers)
                                                   : nlohmann::json(nullptr)}};
            if (!r.pipeline.archive.empty()) pipeline["binary_archive"] = r.pipeline.archive;
            kernels.push_back({{"repetitions", r.kernel.repetitions},
                               {"unroll", r.kernel.unroll},
                               {"loops", r.kernel.loops},
                               {"tail", r.kernel.tail},
                               {"pipeline", pipeline},
                               {"warmup_seconds", r.warmup},
                               {"trial_seconds", r.trials},
                               {"best_seconds", s.best},
                               {"median_seconds", s.median},
                               {"spread", s.spread},
                               {"timing", r.timing}});
            timing = timing.empty() || timing == r.timing ? r.timing : "mixed";
        }
        m.probe["kernels"] = kernels;
        m.probe["launch"] = {{"threadgroups", plan.threadgroups},
                             {"threads_per_threadgroup", plan.threads_per_threadgroup},
                             {"active_simds", plan.active_simds},
                             {"threadgroups_per_core", plan.groups_per_core},
                             {"threadgroup_memory_bytes", plan.threadgroup_memory_bytes},
                             {"waves", plan.waves},
                             {"simd_work_per_core", plan.simd_work_per_core()}};
        m.probe["figure_trials"] = per_trial;
        m.probe["figure_spread"] =
            std::isfinite(spread) ? nlohmann::json(spread) : nlohmann::json(nullptr);

        const unsigned trials = static_cast<unsigned>(per_trial.size());
        if (value <= 0) {
            not_measured(m,
                         "the 2N run was not slower than the N run (" + format(value) + " cycles)");
            return;
        }
        m.value = value;
        m.raw = format(value);
        m.qualifier = spread > options_.max_spread ? "~" : "";
        m.probe["figure"] = value;
        const std::string source = timing == "counters" ? "stage-boundary counter timestamps"
                                   : timing == "command_buffer"
                                       ? "command buffer GPUStartTime/GPUEndTime"
                                       : "counters and command buffer times";
        m.provenance = "agxsim-probe " + std::string(kProbeVersion) + " (" + ctx_.device.backend +
                       ") on " + ctx_.device.name + ", " + ctx_.device.family + ", " +
                       std::to_string(ctx_.cores) + " cores, " + ctx_.device.os + "; " +
                       format(ctx_.clock_ghz) + " GHz from the " + ctx_.clock_source +
                       "; best of " + std::to_string(trials) + " trials, spread " +
                       (std::isfinite(spread) ? format(100 * spread, 1) + "%" : "undefined") +
                       "; timing: " + source;
        if (ctx_.device.backend == "fake")
            m.provenance = "SYNTHETIC (fake backend, not hardware): " + m.provenance;
    }

    Backend& backend_;
    const RunContext& ctx_;
    const RunOptions& options_;
};

}  // namespace

RunContext resolve_context(const DeviceInfo& device, const RunOptions& options) {
    RunContext c;
    c.device = device;
    if (options.threadgroup_memory_per_core)
        c.device.threadgroup_memory_per_core = options.threadgroup_memory_per_core;
    c.chip = options.chip.empty() ? device.chip : options.chip;
    if (c.chip.empty())
        throw InputError("--chip", "the device '" + device.name + "' names no chip; give --chip");
    c.cores = options.cores ? options.cores : device.cores;
    if (c.cores == 0)
        throw InputError("--cores",
                         "the GPU core count of '" + device.name + "' is unknown; give --cores");
    if (options.clock_ghz) {
        if (*options.clock_ghz <= 0) throw InputError("--clock-ghz", "must be positive");
        c.clock_ghz = *options.clock_ghz;
        c.clock_source = "--clock-ghz option";
    } else if (const auto ghz = clock_ghz_of_chip(c.chip)) {
        c.clock_ghz = *ghz;
        c.clock_source = "chip table";
    } else {
        throw InputError("--clock-ghz",
                         "no clock known for chip '" + c.chip + "'; give --clock-ghz");
    }
    return c;
}

validation::MeasurementFile run_suite(Backend& backend, const std::vector<SuiteEntry>& entries,
                                      const RunOptions& options) {
    const RunContext ctx = resolve_context(backend.device(), options);
    validation::MeasurementFile file;
    const bool fake = ctx.device.backend == "fake";
    file.description =
        std::string(fake ? "SYNTHETIC timings from agxsim-probe's fake backend, not hardware: "
                         : "") +
        "agxsim-probe " + kProbeVersion + " measurements on " + ctx.device.name + " (" +
        ctx.device.family + ", " + std::to_string(ctx.cores) + " cores, " + ctx.device.os +
        ") at " + format(ctx.clock_ghz) + " GHz (" + ctx.clock_source + "), benchmarks from " +
        (options.suite_source.empty() ? std::string("(unnamed)") : options.suite_source);
    file.probe = {
        {"tool", "agxsim-probe"},
        {"version", kProbeVersion},
        {"device", device_json(ctx)},
        {"suite", options.suite_source},
        {"method",
         {{"waves", options.waves},
          {"trials", options.trials},
          {"warmup", options.warmup},
          {"warmup_seconds", options.warmup_seconds},
          {"max_spread", options.max_spread},
          {"figure", "cycles x 4 / (repetitions x bodies per repetition x simds per core)"}}}};

    BenchmarkMeasurer measurer(backend, ctx, options);
    if (options.warmup_seconds > 0) file.probe["device_warmup"] = measurer.warm_device(entries);
    std::size_t n = 0;
    for (const auto& e : entries) {
        Measurement m = measurer.measure(e);
        ++n;
        if (options.log) {
            *options.log << "[" << n << "/" << entries.size() << "] " << m.id << ": ";
            if (m.value)
                *options.log << m.qualifier << m.raw << " cycles";
            else
                *options.log << "not measured (" << m.probe.value("not_measured", "") << ")";
            *options.log << "\n";
        }
        file.records.push_back(std::move(m));
    }
    return file;
}

}  // namespace agx::probe
