#include "validation/probe/probe_run.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <memory>
#include <tuple>

#include "sim/common/errors.hpp"
#include "validation/probe/chip_table.hpp"
#include "validation/probe/elapsed.hpp"
#include "validation/probe/figures.hpp"
#include "validation/probe/launch_plan.hpp"
#include "validation/probe/msl_ops.hpp"

namespace agx::probe {

using validation::BenchmarkDefinition;
using validation::Measurement;
using validation::MeasurementFile;

namespace {

constexpr double kSettled = 0.02;      // a kernel's warm-up: two runs in a row this close
constexpr double kRateSettled = 0.01;  // the device warm-up: two batches' rates this close
constexpr unsigned kSchedulers = 4;    // per core
constexpr std::size_t kCrossChecks = 8;
// A body's steady figure can be no lower than one cycle: a scheduler issues
// at most one instruction per cycle, and every body holds one at least (the
// lowest figure of the reference tables is 1.0). Less the clock check's and
// the trials' allowance, a figure below this means the compiler removed work
// from the chain (fast math lets it reassociate a chain of adds into one
// multiply). A total-method figure carries the kernel's fixed cost, which
// hides such a loss, so only steady figures are held to it.
constexpr double kIssueFloor = 0.8;

using WallClock = std::chrono::steady_clock;

double seconds_since(WallClock::time_point t0) {
    return std::chrono::duration<double>(WallClock::now() - t0).count();
}

std::string format(double v, int decimals = 3) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

std::string percent(double fraction) {
    return format(100 * fraction, 1) + "%";
}

// One kernel of a benchmark (N, or 2N for the steady method), compiled.
struct Compiled {
    Kernel kernel;
    PipelineInfo pipeline;
};

// A benchmark ready to time, or why it cannot be.
struct Prepared {
    const SuiteEntry* entry = nullptr;
    std::vector<Compiled> kernels;
    std::optional<LaunchPlan> plan;
    std::string error;
    bool not_expressible = false;  // the generator refused: Metal cannot express it
};

// The probe kernel's own fixed cost at one launch shape: the control group
// (an empty body: the seeds loaded, the sink stored) at a Total benchmark's
// occupancy, threadgroups per core, waves and register width. Its cycles
// per wave are the fixed cost every wave of those benchmarks pays, which
// their Total figures include: their records carry it as overhead_cycles,
// in place of the reference kernel's.
struct ControlGroup {
    SuiteEntry entry;
    Prepared prepared;
    std::optional<double> overhead_cycles;  // per wave; absent: `error` says why
    std::string error;
    nlohmann::json json;
};

using ControlKey = std::tuple<std::uint32_t, std::uint32_t, std::uint32_t, std::uint32_t>;

ControlKey control_key(const BenchmarkDefinition& def) {
    return {def.simds_per_core, def.resident_threadgroups, def.waves, def.register_bits};
}

// Whether a definition's figure includes the kernel's fixed cost.
bool pays_overhead(const BenchmarkDefinition& def) {
    return def.method == BenchmarkDefinition::Method::Total && !def.memory;
}

BenchmarkDefinition control_definition(const BenchmarkDefinition& def) {
    BenchmarkDefinition c;
    c.name = "agxsim-probe/control/" + std::to_string(def.register_bits) + "bit/simds" +
             std::to_string(def.simds_per_core);
    if (def.resident_threadgroups)
        c.name += "/threadgroups" + std::to_string(def.resident_threadgroups);
    if (def.waves > 1) c.name += "/waves" + std::to_string(def.waves);
    c.body = {};
    c.ilp = 1;
    c.simds_per_core = def.simds_per_core;
    c.register_bits = def.register_bits;
    c.repetitions = 1440;  // the figure's divisor only: an empty body has no code to repeat
    c.resident_threadgroups = def.resident_threadgroups;
    c.waves = def.waves;
    c.method = BenchmarkDefinition::Method::Total;
    return c;
}

nlohmann::json pipeline_json(const PipelineInfo& p) {
    nlohmann::json j = {
        {"max_total_threads_per_threadgroup", p.max_threads_per_threadgroup},
        {"thread_execution_width", p.thread_execution_width},
        {"registers", p.registers ? nlohmann::json(*p.registers) : nlohmann::json(nullptr)}};
    if (!p.archive.empty()) j["binary_archive"] = p.archive;
    if (!p.archive_error.empty()) j["binary_archive_error"] = p.archive_error;
    return j;
}

// The record's body is what the kernel runs: each operation with the
// instructions its expression adds on the same chain (msl_ops.hpp's
// companions), so that `agxsim validate` simulates what was measured.
// m.probe["companions"] says what was added to which operation, and why. An
// operation the generator cannot write keeps its body: nothing ran.
void record_companions(Measurement& m) {
    if (m.benchmark.memory) return;
    nlohmann::json added = nlohmann::json::array();
    for (auto& item : m.benchmark.body) {
        std::string recorded;
        std::vector<ResolvedTerm> terms;
        try {
            recorded = with_companions(item.op, m.benchmark.register_bits);
            terms = resolve_operation(item.op, m.benchmark.register_bits);
        } catch (const GeneratorError&) {
            continue;
        }
        if (recorded == item.op) continue;
        nlohmann::json why = nlohmann::json::array();
        for (const auto& t : terms)
            if (!t.op->companion.empty())
                why.push_back({{"operation", t.op->name},
                               {"companion", t.op->companion},
                               {"why", t.op->note}});
        added.push_back({{"operation", item.op}, {"recorded_as", recorded}, {"terms", why}});
        item.op = recorded;
    }
    if (!added.empty()) m.probe["companions"] = added;
}

nlohmann::json launch_json(const LaunchPlan& plan) {
    return {{"threadgroups", plan.threadgroups},
            {"threads_per_threadgroup", plan.threads_per_threadgroup},
            {"active_simds", plan.active_simds},
            {"threadgroups_per_core", plan.groups_per_core},
            {"threadgroup_memory_bytes", plan.threadgroup_memory_bytes},
            {"waves", plan.waves},
            {"simd_work_per_core", plan.simd_work_per_core()}};
}

// Steps 1 to 7 of a run, shared with `check`.
class Session {
  public:
    Session(Backend& backend, const RunOptions& options)
        : backend_(backend), options_(options), ctx_(resolve_context(backend.device(), options)) {
        clock_entry_.id = clock_definition().name;
        clock_entry_.kind = validation::FigureKind::Throughput;
        clock_entry_.def = clock_definition();
    }

    const RunContext& context() const { return ctx_; }
    bool clock_ok() const { return clock_ok_; }
    const nlohmann::json& timing() const { return timing_; }

    void log(const std::string& line) const {
        if (options_.log) *options_.log << line << "\n";
    }

    nlohmann::json device_json() const {
        const DeviceInfo& d = ctx_.device;
        return {{"name", d.name},
                {"chip", ctx_.chip},
                {"family", d.family},
                {"cores", ctx_.cores},
                {"os", d.os},
                {"backend", d.backend},
                {"found_by", d.device_source},
                {"compile_options", d.compile_options},
                {"clock_ghz", ctx_.clock_ghz},
                {"clock_source", ctx_.clock_source},
                {"table_clock_ghz", ctx_.table_clock_ghz ? nlohmann::json(*ctx_.table_clock_ghz)
                                                         : nlohmann::json(nullptr)},
                {"threadgroup_memory_per_core_assumed", d.threadgroup_memory_per_core},
                {"counters_sampled", d.stage_boundary_counters},
                {"counters_note", d.counters_note},
                // Used: sampled, and the samples held timestamps.
                {"stage_boundary_counters", source_ == TimingSource::Counters}};
    }

    // Step 1 for one benchmark: its kernels generated and compiled, its launch planned.
    Prepared prepare(const SuiteEntry& entry) {
        Prepared p;
        p.entry = &entry;
        const BenchmarkDefinition& def = entry.def;
        try {
            p.kernels.push_back({generate_kernel(def, def.repetitions), {}});
            if (def.method == BenchmarkDefinition::Method::Steady)
                p.kernels.push_back({generate_kernel(def, 2 * def.repetitions), {}});
        } catch (const GeneratorError& e) {
            p.kernels.clear();
            p.error = std::string("cannot generate the kernel: ") + e.what();
            p.not_expressible = true;
            return p;
        }
        try {
            std::uint32_t max_threads = 1024;
            for (auto& k : p.kernels) {
                k.pipeline = backend_.compile(k.kernel, options_.archive_dir);
                max_threads = std::min(max_threads, k.pipeline.max_threads_per_threadgroup);
            }
            // Both runs of the steady method launch alike, so only the repetitions differ.
            p.plan = plan_for(def, max_threads);
        } catch (const BackendError& e) {
            p.error = e.what();
        } catch (const std::invalid_argument& e) {
            p.error = e.what();
        }
        return p;
    }

    Prepared prepare_clock() { return prepare(clock_entry_); }

    // Step 2: the clock kernel back to back, `in_flight` command buffers at a
    // time, until two batches in a row run at the same rate (GPU seconds per
    // dispatch) and at least warmup_seconds of GPU time have passed.
    nlohmann::json warm_up(const Prepared& clock) {
        nlohmann::json j = {{"kernel", clock_entry_.id}, {"in_flight", options_.in_flight}};
        if (!clock.error.empty()) {
            j["error"] = "the clock kernel: " + clock.error;
            log("[warm-up] not done: " + j["error"].get<std::string>());
            return j;
        }
        const Compiled& k = clock.kernels.front();
        const Dispatch d = dispatch_of(*clock.plan, k.kernel);
        const unsigned n = std::max(1u, options_.in_flight);
        std::vector<double> rates;
        double total = 0;
        std::size_t dispatches = 0;
        bool settled = false;
        try {
            while (total < options_.warmup_max_seconds && !settled) {
                const auto times = backend_.run_batch(repeated(k.pipeline, d, n), n);
                double sum = 0;
                for (const auto& t : times) sum += command_buffer_seconds(t);
                total += sum;
                dispatches += times.size();
                rates.push_back(sum / static_cast<double>(times.size()));
                const std::size_t r = rates.size();
                settled = total >= options_.warmup_seconds && r >= 2 &&
                          std::abs(rates[r - 1] - rates[r - 2]) <= kRateSettled * rates[r - 2];
            }
        } catch (const BackendError& e) {
            j["error"] = e.what();
        }
        j["dispatches"] = dispatches;
        j["gpu_seconds"] = total;
        j["settled"] = settled;
        j["seconds_per_dispatch_by_batch"] = rates;
        if (!rates.empty()) {
            j["first_seconds"] = rates.front();
            j["last_seconds"] = rates.back();
        }
        if (j.contains("error"))
            log("[warm-up] failed after " + std::to_string(dispatches) +
                " dispatches: " + j["error"].get<std::string>());
        else
            log("[warm-up] " + format(total, 2) + " s of GPU time in " +
                std::to_string(dispatches) + " dispatches (" + std::to_string(n) + " in flight): " +
                (settled ? "settled at " + format(rates.back() * 1e3, 2) + " ms per dispatch"
                         : "NOT settled after " + format(options_.warmup_max_seconds, 1) +
                               " s, last " + format(rates.back() * 1e3, 2) + " ms per dispatch") +
                " (first " + format(rates.front() * 1e3, 2) + " ms)");
        return j;
    }

    // Steps 3 and 4: trials of the clock kernel at N and 2N, interleaved. The
    // first check chooses the run's timing source from its dispatches.
    ClockCheck check_clock(const Prepared& clock, const char* when) {
        ClockCheck c;
        c.json = {{"kernel", clock_entry_.id}, {"tolerance", options_.clock_tolerance}};
        if (!clock.error.empty()) {
            c.error = "the clock kernel: " + clock.error;
        } else {
            try {
                measure_clock(clock, c);
            } catch (const BackendError& e) {
                c.error = e.what();
            } catch (const std::exception& e) {
                c.error = std::string("internal error: ") + e.what();
            }
        }
        if (!c.error.empty()) {
            c.json["error"] = c.error;
            c.message = "the clock could not be checked: " + c.error;
        }
        c.json["ok"] = c.ok;
        c.json["message"] = c.message;
        log(std::string("[clock") + when + "] " + c.message);
        return c;
    }

    // Uses a check's measured clock where the context has none (a chip the
    // table does not know), and remembers whether the figures can be trusted.
    void adopt(const ClockCheck& c) {
        clock_ok_ = c.ok;
        if (ctx_.clock_ghz > 0) return;
        if (c.measured && c.measured_clock_ghz > 0) {
            ctx_.clock_ghz = c.measured_clock_ghz;
            ctx_.clock_source = "measured";
            clock_ok_ = true;
        } else {
            no_clock_ = "no clock for chip '" + ctx_.chip +
                        "': it is not in the chip table, --clock-ghz was not given, and the clock "
                        "kernel could not be measured (" +
                        (c.error.empty() ? std::string("no result") : c.error) + ")";
        }
    }

    // Step 6 for one benchmark. A failure costs this benchmark only.
    Measurement measure(const Prepared& p) {
        const SuiteEntry& entry = *p.entry;
        Measurement m;
        m.id = entry.id + "/" + ctx_.chip;
        m.chip = ctx_.chip;
        m.clock_ghz = ctx_.clock_ghz;
        m.kind = entry.kind;
        m.benchmark = entry.def;
        record_companions(m);
        if (pays_overhead(entry.def)) record_overhead(m);
        m.probe["device"] = device_json();
        if (!p.kernels.empty()) {
            nlohmann::json kernels = nlohmann::json::array();
            for (const auto& k : p.kernels)
                kernels.push_back({{"repetitions", k.kernel.repetitions},
                                   {"pipeline", pipeline_json(k.pipeline)}});
            m.probe["kernels"] = kernels;
        }
        if (!p.error.empty()) {
            not_measured(m, p.error);
            return m;
        }
        if (ctx_.clock_ghz <= 0) {
            not_measured(m, no_clock_);
            return m;
        }
        try {
            measure_into(p, m);
        } catch (const BackendError& e) {
            not_measured(m, e.what());
        } catch (const std::invalid_argument& e) {
            not_measured(m, e.what());
        } catch (const std::exception& e) {
            not_measured(m, std::string("internal error: ") + e.what());
        }
        return m;
    }

    // Step 1 for the control group: one control kernel for each launch shape
    // of the selection's Total benchmarks, compiled.
    void prepare_controls(const std::vector<SuiteEntry>& entries) {
        std::size_t failed = 0;
        for (const auto& e : entries) {
            if (!pays_overhead(e.def) || controls_.count(control_key(e.def))) continue;
            auto c = std::make_unique<ControlGroup>();
            c->entry.def = control_definition(e.def);
            c->entry.id = c->entry.def.name;
            c->entry.kind = validation::FigureKind::Control;
            c->prepared = prepare(c->entry);
            if (!c->prepared.error.empty()) {
                c->error = "the control kernel " + c->entry.id + ": " + c->prepared.error;
                log("[compile] " + c->error);
                ++failed;
            }
            controls_.emplace(control_key(e.def), std::move(c));
        }
        if (!controls_.empty())
            log("[compile] " + std::to_string(controls_.size() - failed) + " of " +
                std::to_string(controls_.size()) + " control kernels compiled");
    }

    // The control kernels prepare_controls compiled (or failed to), for `check`.
    std::vector<const Prepared*> control_kernels() const {
        std::vector<const Prepared*> out;
        for (const auto& [key, c] : controls_) out.push_back(&c->prepared);
        return out;
    }

    // Step 5: each control kernel measured as a benchmark (warm-up runs,
    // trials, the best), before any benchmark: its cycles per wave are the
    // probe kernel's own fixed cost at that launch. Their results, for the
    // file.
    nlohmann::json measure_controls() {
        nlohmann::json out = nlohmann::json::array();
        for (auto& [key, c] : controls_) {
            nlohmann::json j = {{"kernel", c->entry.id},
                                {"simds_per_core", c->entry.def.simds_per_core},
                                {"register_bits", c->entry.def.register_bits}};
            if (c->error.empty()) {
                const Measurement m = measure(c->prepared);
                if (m.probe.contains("launch")) j["launch"] = m.probe.at("launch");
                if (m.value) {
                    const auto& k = m.probe.at("kernels").at(0);
                    const double best = k.at("best_seconds").get<double>();
                    c->overhead_cycles =
                        cycles_from_seconds(best, ctx_.clock_ghz) / c->prepared.plan->waves;
                    j["best_seconds"] = best;
                    j["trial_seconds"] = k.at("trial_seconds");
                    j["timing"] = k.at("timing");
                    j["figure"] = *m.value;
                    j["overhead_cycles"] = *c->overhead_cycles;
                    log("[control] " + c->entry.id + ": " + format(*c->overhead_cycles, 1) +
                        " cycles per wave, the fixed cost of the probe's kernels at this launch");
                } else {
                    c->error = "the control kernel " + c->entry.id +
                               " was not measured: " + m.probe.value("not_measured", "");
                }
            }
            if (!c->error.empty()) {
                j["error"] = c->error;
                log("[control] " + c->error);
            }
            c->json = j;
            out.push_back(j);
        }
        return out;
    }

    // One dispatch of each of the benchmark's kernels, its wall time: what
    // `check` estimates a run's length from.
    double time_once(const Prepared& p) {
        double wall = 0;
        for (const auto& k : p.kernels) {
            const auto t0 = WallClock::now();
            backend_.run(k.pipeline, dispatch_of(*p.plan, k.kernel));
            wall += seconds_since(t0);
        }
        return wall;
    }

    const std::vector<std::string>& fallbacks() const { return fallbacks_; }

  private:
    // A Total figure includes the kernel's fixed cost: the record carries the
    // one its control kernel measured (the suite's is the reference
    // kernel's), or the suite's and why not.
    void record_overhead(Measurement& m) const {
        const double suite = m.benchmark.overhead_cycles;
        const auto it = controls_.find(control_key(m.benchmark));
        if (it != controls_.end() && it->second->overhead_cycles) {
            const ControlGroup& c = *it->second;
            m.benchmark.overhead_cycles = *c.overhead_cycles;
            m.probe["overhead"] = {
                {"overhead_cycles", *c.overhead_cycles},
                {"source", "measured"},
                {"control_kernel", c.entry.id},
                {"suite_overhead_cycles", suite},
                {"what",
                 "the probe kernel's own fixed cost per wave: its control kernel (an "
                 "empty body at this benchmark's launch and register width), cycles per "
                 "wave of its best trial; the suite's figure is the reference kernel's"}};
            return;
        }
        const std::string why =
            it == controls_.end() ? std::string("no control kernel was prepared for this launch")
            : it->second->error.empty() ? std::string("the control kernel is not measured yet")
                                        : it->second->error;
        m.probe["overhead"] = {
            {"overhead_cycles", suite},
            {"source", "the suite's definition (the reference kernel's fixed cost)"},
            {"reason", "the control group could not be measured: " + why}};
    }

    // The definition's launch on this device: its own waves when it names
    // them (else --waves) and its threadgroups per core.
    LaunchPlan plan_for(const BenchmarkDefinition& def, std::uint32_t max_threads) const {
        return plan_launch(def.simds_per_core, ctx_.device, ctx_.cores, max_threads,
                           def.waves > 1 ? def.waves : options_.waves, def.resident_threadgroups);
    }

    // Chooses the run's timing source from the first dispatches that were
    // timed: the counters when every one of them has counter samples that
    // agree with its command buffer's times (elapsed.hpp's tolerance), else
    // the command buffer, and why.
    void choose_timing(const std::vector<DispatchTiming>& sample, const std::string& from) {
        if (source_) return;
        std::string reason;
        nlohmann::json checks = nlohmann::json::array();
        bool agree = true, compared = false;
        if (!ctx_.device.stage_boundary_counters) {
            source_ = TimingSource::CommandBuffer;
            reason = ctx_.device.counters_note.empty()
                         ? "the device samples no stage-boundary counters"
                         : ctx_.device.counters_note;
        } else {
            source_ = TimingSource::Counters;
            reason = "the stage-boundary counter samples held timestamps on every dispatch of " +
                     from + " (" + std::to_string(sample.size()) +
                     "), each within the tolerance of its command buffer's time";
        }
        for (std::size_t i = 0; i < sample.size(); ++i) {
            const CrossCheck c = cross_check(sample[i]);
            if (c.counter_seconds) {
                compared = true;
                agree = agree && c.agree;
            }
            if (i < kCrossChecks) {
                nlohmann::json e = {{"command_buffer_seconds", c.command_buffer_seconds}};
                if (c.counter_seconds) {
                    e["counters_seconds"] = *c.counter_seconds;
                    e["agree"] = c.agree;
                } else {
                    e["counters"] = c.problem;
                }
                checks.push_back(e);
            }
            if (*source_ != TimingSource::Counters) continue;
            if (!c.counter_seconds) {
                source_ = TimingSource::CommandBuffer;
                reason = "stage-boundary counters are sampled, but on dispatch " +
                         std::to_string(i + 1) + " of " + from + ": " + c.problem;
            } else if (!c.agree) {
                source_ = TimingSource::CommandBuffer;
                reason =
                    "the stage-boundary counters disagree with the command buffer on "
                    "dispatch " +
                    std::to_string(i + 1) + " of " + from + " (" + describe_disagreement(c) +
                    "), where " + counter_tolerance_text() +
                    ": the command buffer times every dispatch";
            }
        }
        timing_ = {
            {"source", timing_source_name(*source_)},
            {"reason", reason},
            {"chosen_on", from},
            {"cross_checked", sample.size()},
            {"cross_check", checks},
            {"cross_check_agrees", compared ? nlohmann::json(agree) : nlohmann::json(nullptr)},
            {"tolerance",
             {{"rule", counter_tolerance_text()},
              {"counter_excess", kCounterExcess},
              {"gap", kCounterGap},
              {"gap_seconds", kCounterGapSeconds}}},
            {"submission", "every measured dispatch is queued back to back with up to " +
                               std::to_string(in_flight()) + " command buffers in flight"}};
        log(std::string("[timing] ") + timing_source_name(*source_) +
            " for every dispatch: " + reason);
    }

    unsigned in_flight() const { return std::max(1u, options_.in_flight); }

    // `rounds` runs of each kernel, interleaved (N, 2N, N, 2N, ...) so that
    // a drift touches both, queued back to back; each kernel's times in order.
    std::vector<std::vector<DispatchTiming>> run_rounds(const std::vector<const Compiled*>& kernels,
                                                        const LaunchPlan& plan, unsigned rounds) {
        std::vector<Submission> batch;
        for (unsigned r = 0; r < rounds; ++r)
            for (const Compiled* k : kernels)
                batch.push_back({k->pipeline, dispatch_of(plan, k->kernel)});
        const auto times = backend_.run_batch(batch, in_flight());
        if (times.size() != batch.size())
            throw BackendError("run_batch returned " + std::to_string(times.size()) +
                               " times for " + std::to_string(batch.size()) + " dispatches");
        std::vector<std::vector<DispatchTiming>> out(kernels.size());
        for (std::size_t i = 0; i < times.size(); ++i) out[i % kernels.size()].push_back(times[i]);
        return out;
    }

    void measure_clock(const Prepared& clock, ClockCheck& c) {
        const Compiled& n = clock.kernels.at(0);
        const Compiled& n2 = clock.kernels.at(1);
        const auto runs = run_rounds({&n, &n2}, *clock.plan, std::max(3u, options_.trials));
        const std::vector<DispatchTiming>& tn = runs[0];
        const std::vector<DispatchTiming>& t2 = runs[1];
        std::vector<DispatchTiming> all;
        for (std::size_t t = 0; t < tn.size(); ++t) {
            all.push_back(tn[t]);
            all.push_back(t2[t]);
        }
        choose_timing(all, "the clock kernel");
        const TimingSource source = source_for(all).first;
        auto best = [&](const std::vector<DispatchTiming>& ts) {
            double b = std::numeric_limits<double>::infinity();
            for (const auto& t : ts) b = std::min(b, elapsed(t, source));
            return b;
        };
        const double sn = best(tn), s2 = best(t2);
        const double dt = s2 - sn;
        const BenchmarkDefinition& def = clock_entry_.def;
        const double simd_work = clock.plan->simd_work_per_core();
        c.json["timing"] = timing_source_name(source);
        c.json["best_seconds"] = {sn, s2};
        c.json["repetitions"] = {n.kernel.repetitions, n2.kernel.repetitions};
        c.json["launch"] = launch_json(*clock.plan);
        if (dt <= 0) {
            c.error = "the 2N run was not slower than the N run (" + format(sn * 1e3) + " and " +
                      format(s2 * 1e3) + " ms)";
            return;
        }
        // The 2N run's extra FADD32s, per scheduler, at one per cycle.
        const double instructions =
            static_cast<double>(n2.kernel.repetitions - n.kernel.repetitions) * def.ilp *
            simd_work / kSchedulers;
        c.measured = true;
        c.measured_clock_ghz = instructions / dt / 1e9;
        c.json["measured_clock_ghz"] = c.measured_clock_ghz;
        c.json["assumed_clock_ghz"] = ctx_.clock_ghz;
        c.json["assumed_clock_source"] = ctx_.clock_source;
        if (ctx_.clock_ghz <= 0) {
            c.ok = true;
            c.message = "FADD32 at full occupancy puts the GPU at " + format(c.measured_clock_ghz) +
                        " GHz (one FADD32 per scheduler per " + "cycle); chip '" + ctx_.chip +
                        "' is not in the clock table, so the run computes cycles at this clock";
            return;
        }
        Work work;
        work.repetitions = n.kernel.repetitions;
        work.bodies_per_repetition = def.bodies_per_repetition();
        work.simds_per_core = simd_work;
        work.schedulers = kSchedulers;
        c.figure = steady_figure(cycles_from_seconds(sn, ctx_.clock_ghz),
                                 cycles_from_seconds(s2, ctx_.clock_ghz), work);
        c.json["figure_cycles"] = c.figure;
        const double off = c.measured_clock_ghz / ctx_.clock_ghz - 1;
        c.ok = std::abs(c.figure - 1) <= options_.clock_tolerance;
        const std::string at = "FADD32 throughput " + format(c.figure) + " cycles at " +
                               format(ctx_.clock_ghz) + " GHz (" + ctx_.clock_source +
                               "): the GPU ran at " + format(c.measured_clock_ghz) + " GHz";
        c.message =
            c.ok ? at + ", within " + percent(options_.clock_tolerance) + " of 1 cycle"
                 : "THE GPU IS NOT AT THE ASSUMED CLOCK: " + at + ", " + percent(std::abs(off)) +
                       (off < 0 ? " below" : " above") + " the assumed clock (tolerance " +
                       percent(options_.clock_tolerance) + "); its figures are marked approximate";
    }

    // A dispatch's time for deciding when its kernel has settled: the
    // counters' where they agree with the command buffer, else the command
    // buffer's.
    static double trusted_seconds(const DispatchTiming& t) {
        const CrossCheck c = cross_check(t);
        return c.agree ? *c.counter_seconds : c.command_buffer_seconds;
    }

    // The source a set of dispatches is timed by: the run's, unless it is the
    // counters and one of them has none, or counters that disagree with its
    // command buffer (then the command buffer, and why).
    std::pair<TimingSource, std::string> source_for(const std::vector<DispatchTiming>& ts) const {
        const TimingSource run = source_.value_or(TimingSource::CommandBuffer);
        if (run == TimingSource::CommandBuffer) return {run, ""};
        for (std::size_t i = 0; i < ts.size(); ++i) {
            const CrossCheck c = cross_check(ts[i]);
            if (!c.counter_seconds) return {TimingSource::CommandBuffer, c.problem};
            if (!c.agree)
                return {TimingSource::CommandBuffer,
                        "the counters disagree with the command buffer on dispatch " +
                            std::to_string(i + 1) + " (" + describe_disagreement(c) + "), where " +
                            counter_tolerance_text()};
        }
        return {run, ""};
    }

    void not_measured(Measurement& m, const std::string& why) const {
        m.value.reset();
        m.qualifier.clear();
        m.raw.clear();
        m.provenance = "agxsim-probe " + std::string(kProbeVersion) + ": not measured: " + why;
        m.probe["not_measured"] = why;
    }

    // A kernel's warm-up runs (at least `warmup`, then `warmup` more until
    // its last two agree) and its trials, interleaved with the other
    // kernel's so a drift touches both, each round queued back to back.
    void measure_into(const Prepared& p, Measurement& m) {
        const BenchmarkDefinition& def = p.entry->def;
        const bool steady = def.method == BenchmarkDefinition::Method::Steady;
        std::vector<const Compiled*> runs;
        for (const auto& k : p.kernels) runs.push_back(&k);
        const unsigned least = std::max(1u, options_.warmup);
        std::vector<std::vector<DispatchTiming>> warm(runs.size());
        auto settled = [&] {
            for (const auto& w : warm) {
                const std::size_t n = w.size();
                if (n < 2) return false;
                const double a = trusted_seconds(w[n - 2]), b = trusted_seconds(w[n - 1]);
                if (std::abs(b - a) > kSettled * a) return false;
            }
            return true;
        };
        do {
            const auto more = run_rounds(runs, *p.plan, least);
            for (std::size_t i = 0; i < runs.size(); ++i)
                warm[i].insert(warm[i].end(), more[i].begin(), more[i].end());
        } while (warm[0].size() < 4u * least && !settled());
        const auto trials = run_rounds(runs, *p.plan, std::max(1u, options_.trials));

        std::vector<DispatchTiming> every;
        for (std::size_t i = 0; i < p.kernels.size(); ++i) {
            every.insert(every.end(), warm[i].begin(), warm[i].end());
            every.insert(every.end(), trials[i].begin(), trials[i].end());
        }
        choose_timing(every, p.entry->id);
        const auto [source, fallback] = source_for(every);
        if (!fallback.empty()) {
            m.probe["timing_fallback"] = "the run times by the counters, but " + fallback +
                                         ": every dispatch of this benchmark is timed by its "
                                         "command buffer";
            fallbacks_.push_back(p.entry->id);
        }
        auto seconds = [&, source = source](const std::vector<DispatchTiming>& ts) {
            std::vector<double> out;
            for (const auto& t : ts) out.push_back(elapsed(t, source));
            return out;
        };

        Work work;
        work.repetitions = def.repetitions;
        work.bodies_per_repetition = def.bodies_per_repetition();
        work.simds_per_core = p.plan->simd_work_per_core();
        auto cycles = [&](double s) { return cycles_from_seconds(s, ctx_.clock_ghz); };
        std::vector<std::vector<double>> best_trials;
        for (const auto& t : trials) best_trials.push_back(seconds(t));
        std::vector<double> per_trial;
        double value = 0;
        if (steady) {
            for (std::size_t t = 0; t < best_trials[0].size(); ++t)
                per_trial.push_back(
                    steady_figure(cycles(best_trials[0][t]), cycles(best_trials[1][t]), work));
            value = steady_figure(cycles(statistics(best_trials[0]).best),
                                  cycles(statistics(best_trials[1]).best), work);
        } else {
            for (double s : best_trials[0])
                per_trial.push_back(figure_from_cycles(cycles(s), work));
            value = figure_from_cycles(cycles(statistics(best_trials[0]).best), work);
        }
        double spread = std::numeric_limits<double>::infinity();
        if (std::all_of(per_trial.begin(), per_trial.end(), [](double f) { return f > 0; }))
            spread = statistics(per_trial).spread;

        nlohmann::json kernels = nlohmann::json::array();
        for (std::size_t i = 0; i < p.kernels.size(); ++i) {
            const Compiled& k = p.kernels[i];
            const Statistics s = statistics(best_trials[i]);
            kernels.push_back({{"repetitions", k.kernel.repetitions},
                               {"unroll", k.kernel.unroll},
                               {"loops", k.kernel.loops},
                               {"tail", k.kernel.tail},
                               {"pipeline", pipeline_json(k.pipeline)},
                               {"warmup_seconds", seconds(warm[i])},
                               {"trial_seconds", best_trials[i]},
                               {"best_seconds", s.best},
                               {"median_seconds", s.median},
                               {"spread", s.spread},
                               {"timing", timing_source_name(source)}});
        }
        m.probe["kernels"] = kernels;
        m.probe["launch"] = launch_json(*p.plan);
        m.probe["figure_trials"] = per_trial;
        m.probe["figure_spread"] =
            std::isfinite(spread) ? nlohmann::json(spread) : nlohmann::json(nullptr);
        if (value <= 0) {
            not_measured(m,
                         "the 2N run was not slower than the N run (" + format(value) + " cycles)");
            return;
        }
        if (steady && !def.body.empty() && value < kIssueFloor) {
            not_measured(m, "the figure, " + format(value) +
                                " cycles per body, is below one cycle, the least any instruction "
                                "issues in: the compiler shortened the chain (fast math may "
                                "reassociate it); --precise compiles without that");
            return;
        }
        m.value = value;
        m.raw = format(value);
        m.qualifier = spread > options_.max_spread || !clock_ok_ ? "~" : "";
        m.probe["figure"] = value;
        const std::string via = source == TimingSource::Counters
                                    ? "stage-boundary counter timestamps"
                                    : "command buffer GPUStartTime/GPUEndTime";
        m.provenance = "agxsim-probe " + std::string(kProbeVersion) + " (" + ctx_.device.backend +
                       ") on " + ctx_.device.name + ", " + ctx_.device.family + ", " +
                       std::to_string(ctx_.cores) + " cores, " + ctx_.device.os + "; " +
                       format(ctx_.clock_ghz) + " GHz (" + ctx_.clock_source + ")" +
                       (clock_ok_ ? "" : ", CLOCK CHECK FAILED") + "; best of " +
                       std::to_string(per_trial.size()) + " trials, spread " +
                       (std::isfinite(spread) ? format(100 * spread, 1) + "%" : "undefined") +
                       "; timing: " + via;
        if (ctx_.device.backend == "fake")
            m.provenance = "SYNTHETIC (fake backend, not hardware): " + m.provenance;
    }

    Backend& backend_;
    const RunOptions& options_;
    RunContext ctx_;
    SuiteEntry clock_entry_;
    std::optional<TimingSource> source_;
    nlohmann::json timing_;
    bool clock_ok_ = true;
    std::string no_clock_;
    std::vector<std::string> fallbacks_;
    std::map<ControlKey, std::unique_ptr<ControlGroup>> controls_;
};

// Step 1 for the whole selection, with progress and failures in the log.
std::vector<Prepared> compile_all(Session& s, const std::vector<SuiteEntry>& entries,
                                  double& seconds) {
    const auto t0 = WallClock::now();
    std::vector<Prepared> out;
    out.reserve(entries.size());
    std::size_t kernels = 0, failed = 0;
    s.log("[compile] " + std::to_string(entries.size()) + " benchmarks");
    for (std::size_t i = 0; i < entries.size(); ++i) {
        out.push_back(s.prepare(entries[i]));
        const Prepared& p = out.back();
        if (p.error.empty())
            kernels += p.kernels.size();
        else if (!p.not_expressible) {
            ++failed;
            s.log("[compile] " + entries[i].id + ": " + p.error);
        }
        if ((i + 1) % 50 == 0 && i + 1 < entries.size())
            s.log("[compile] " + std::to_string(i + 1) + " of " + std::to_string(entries.size()) +
                  " benchmarks, " + format(seconds_since(t0), 1) + " s");
    }
    seconds = seconds_since(t0);
    s.log("[compile] " + std::to_string(kernels) + " kernels compiled in " + format(seconds, 1) +
          " s; " + std::to_string(failed) + " benchmarks failed to compile");
    return out;
}

std::string describe_file(const Session& s, const RunOptions& options, bool complete) {
    const RunContext& ctx = s.context();
    const bool fake = ctx.device.backend == "fake";
    return std::string(fake ? "SYNTHETIC timings from agxsim-probe's fake backend, not hardware: "
                            : "") +
           (s.clock_ok() ? "" : "CLOCK CHECK FAILED (see probe.clock_check): ") +
           (complete ? "" : "PARTIAL (the run did not finish): ") + "agxsim-probe " +
           kProbeVersion + " measurements on " + ctx.device.name + " (" + ctx.device.family + ", " +
           std::to_string(ctx.cores) + " cores, " + ctx.device.os + ") at " +
           (ctx.clock_ghz > 0 ? format(ctx.clock_ghz) + " GHz (" + ctx.clock_source + ")"
                              : std::string("no known clock")) +
           ", benchmarks from " +
           (options.suite_source.empty() ? std::string("(unnamed)") : options.suite_source);
}

}  // namespace

validation::BenchmarkDefinition clock_definition() {
    BenchmarkDefinition d;
    d.name = "agxsim-probe/clock/FADD32/throughput";
    d.body = {{"FADD32", 1}};
    d.ilp = 4;
    d.simds_per_core = 88;
    d.register_bits = 32;
    d.repetitions = 960;
    d.unroll = 480;
    d.method = BenchmarkDefinition::Method::Steady;
    return d;
}

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
    c.table_clock_ghz = clock_ghz_of_chip(c.chip);
    if (options.clock_ghz) {
        if (*options.clock_ghz <= 0) throw InputError("--clock-ghz", "must be positive");
        c.clock_ghz = *options.clock_ghz;
        c.clock_source = "--clock-ghz option";
    } else if (c.table_clock_ghz) {
        c.clock_ghz = *c.table_clock_ghz;
        c.clock_source = "chip table";
    } else {
        c.clock_ghz = 0;  // the clock check measures it
        c.clock_source = "measured";
    }
    return c;
}

validation::MeasurementFile run_suite(Backend& backend, const std::vector<SuiteEntry>& entries,
                                      const RunOptions& options) {
    Session s(backend, options);
    MeasurementFile file;
    file.probe = {
        {"tool", "agxsim-probe"},
        {"version", kProbeVersion},
        {"device", s.device_json()},
        {"suite", options.suite_source},
        {"method",
         {{"waves", options.waves},
          {"trials", options.trials},
          {"warmup", options.warmup},
          {"warmup_seconds", options.warmup_seconds},
          {"warmup_max_seconds", options.warmup_max_seconds},
          {"in_flight", options.in_flight},
          {"max_spread", options.max_spread},
          {"clock_tolerance", options.clock_tolerance},
          {"figure", "cycles x 4 / (repetitions x bodies per repetition x simds per core)"}}},
        {"complete", false}};
    auto checkpoint = [&](bool complete) {
        file.description = describe_file(s, options, complete);
        file.probe["device"] = s.device_json();
        file.probe["timing"] = s.timing();
        file.probe["timing"]["fallbacks"] = s.fallbacks();
        file.probe["complete"] = complete;
        if (options.checkpoint) options.checkpoint(file);
    };

    double compile_seconds = 0;
    const Prepared clock = s.prepare_clock();
    std::vector<Prepared> prepared = compile_all(s, entries, compile_seconds);
    s.prepare_controls(entries);
    nlohmann::json failed = nlohmann::json::array();
    for (const auto& p : prepared)
        if (!p.error.empty() && !p.not_expressible) failed.push_back(p.entry->id);
    file.probe["compile"] = {{"seconds", compile_seconds}, {"failed", failed}};
    if (!clock.error.empty()) file.probe["compile"]["clock_kernel_error"] = clock.error;
    checkpoint(false);

    file.probe["device_warmup"] = s.warm_up(clock);
    const ClockCheck first = s.check_clock(clock, "");
    s.adopt(first);
    file.probe["clock_check"] = first.json;
    file.probe["control_group"] = s.measure_controls();
    checkpoint(false);

    for (std::size_t i = 0; i < prepared.size(); ++i) {
        Measurement m = s.measure(prepared[i]);
        std::string line = "[" + std::to_string(i + 1) + "/" + std::to_string(prepared.size()) +
                           "] " + m.id + ": ";
        if (m.value)
            line += m.qualifier + m.raw + " cycles";
        else
            line += "not measured (" + m.probe.value("not_measured", "") + ")";
        s.log(line);
        file.records.push_back(std::move(m));
        checkpoint(false);
    }

    file.probe["clock_check_end"] = s.check_clock(clock, " at the end").json;
    checkpoint(true);
    return file;
}

CheckReport check_suite(Backend& backend, const std::vector<SuiteEntry>& entries,
                        const RunOptions& options) {
    Session s(backend, options);
    CheckReport r;
    r.benchmarks = entries.size();
    const Prepared clock = s.prepare_clock();
    if (!clock.error.empty()) r.compile_errors.push_back({clock_definition().name, clock.error});
    std::vector<Prepared> prepared = compile_all(s, entries, r.compile_seconds);
    // The control kernels a run measures first, compiled and timed as the
    // benchmarks are.
    const auto t_controls = WallClock::now();
    s.prepare_controls(entries);
    r.compile_seconds += seconds_since(t_controls);
    std::vector<const Prepared*> timed;
    for (const auto& p : prepared) timed.push_back(&p);
    for (const Prepared* c : s.control_kernels()) timed.push_back(c);
    for (const Prepared* p : timed) {
        if (p->error.empty())
            r.kernels += p->kernels.size();
        else if (p->not_expressible)
            r.not_measurable.push_back({p->entry->id, p->error});
        else
            r.compile_errors.push_back({p->entry->id, p->error});
    }
    const auto t_warm = WallClock::now();
    r.warmup = s.warm_up(clock);
    r.clock = s.check_clock(clock, "");
    s.adopt(r.clock);
    const double setup = seconds_since(t_warm);
    r.timing = s.timing();
    r.context = s.context();

    // A run: the compile phase, the warm-up and two clock checks, and for each
    // benchmark `warmup` to 4 x `warmup` warm-up runs and `trials` trials of
    // each of its kernels.
    const double runs_low = std::max(1u, options.warmup) + std::max(1u, options.trials);
    const double runs_high = 4.0 * std::max(1u, options.warmup) + std::max(1u, options.trials);
    r.estimate_low_seconds = r.compile_seconds + 2 * setup;
    r.estimate_high_seconds = r.estimate_low_seconds;
    for (const Prepared* p : timed) {
        if (!p->error.empty()) continue;
        try {
            const double once = s.time_once(*p);
            r.estimate_low_seconds += runs_low * once;
            r.estimate_high_seconds += runs_high * once;
        } catch (const BackendError& e) {
            r.run_errors.push_back({p->entry->id, e.what()});
        }
    }
    return r;
}

}  // namespace agx::probe
