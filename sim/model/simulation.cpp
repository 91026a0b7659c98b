#include "sim/model/simulation.hpp"

#include <chrono>
#include <cmath>
#include <string>

#include <systemc>

#include "sim/model/core_aggregates.hpp"
#include "sim/model/gpu.hpp"
#include "sim/model/stats.hpp"
#include "sim/model/stats_tree.hpp"
#include "sim/trace/functional_run.hpp"

namespace agx {

namespace {

// A sampled run's estimate (ThreadgroupSampler).
void report_sampling(StatsWriter& s, const SamplingEstimate& e) {
    StatsWriter g = s.group(
        "sampling",
        "a sampled run (`run --sample`): `cycles` is the estimate, and every block's statistics "
        "under `gpu` count the threadgroups run in detail only");
    g.add("simulated_cycles", StatUnit::Cycles,
          "cycles the run simulated: the warm-up, the warm waves and the samples in detail",
          e.simulated_cycles);
    g.add("estimated_cycles", StatUnit::Cycles,
          "`simulated_cycles` plus each skipped range's threadgroups at the cycles per "
          "threadgroup of the samples on either side",
          e.estimated_cycles);
    g.add("error_bound_cycles", StatUnit::Cycles,
          "half-width of a 95% interval around the estimate: Student's t times the samples' "
          "standard error, times the threadgroups skipped, plus the disagreement of the samples "
          "around each skipped range; -1 when one sample leaves no spread to judge by",
          e.error_bound_cycles);
    g.add("detailed_threadgroups", StatUnit::Count, "threadgroups simulated in detail",
          e.detailed_threadgroups);
    g.add("skipped_threadgroups", StatUnit::Count,
          "threadgroups executed with no timing (their instructions, flops and bytes are counted)",
          e.skipped_threadgroups);
    g.add("samples", StatUnit::Count, "measured stretches of detail, the warm-up's included",
          e.samples);
    g.add("behaviour_changes", StatUnit::Count,
          "periods run whole in detail because two samples in a row differed by more than the "
          "tolerance",
          e.behaviour_changes);
    g.add("ranges_early", StatUnit::Count,
          "1: the threadgroups are independent and a skipped range runs as soon as it is "
          "skipped; 0: it waits for every threadgroup before it",
          e.ranges_early ? 1 : 0);
    g.add("spread", StatUnit::Ratio,
          "coefficient of variation of the samples' cycles per threadgroup", e.spread);
}

// The run's own statistics: the stats JSON's top level.
void report_run_stats(StatsWriter& s, const RunResult& r, const MachineConfig& cfg,
                      const Workload& workload) {
    s.add("cycles", StatUnit::Cycles,
          "core-clock cycles from the launch to the last result written (the slowest core)",
          r.cycles);
    s.add("simd_instructions", StatUnit::Count,
          "SIMD-instructions issued (one per 32-thread simd, never per thread), all cores",
          r.simd_instructions);
    s.add("machine", StatUnit::Text, "the config's `name`", cfg.name);
    s.add("workload", StatUnit::Text, "the trace path or benchmark name", workload.name());
    s.add("cores_simulated", StatUnit::Count, "cores in this run (`--cores`)", r.cores);
    s.add("ipc_per_core", StatUnit::InstructionsPerCycle,
          "`simd_instructions / cycles / cores_simulated`; the peak is the schedulers per core",
          r.ipc_per_core());
    s.add("issue_slot_share", StatUnit::Ratio,
          "`ipc_per_core / schedulers per core`: the share of issue slots used (one "
          "SIMD-instruction per scheduler per cycle is every slot)",
          r.issue_slot_share());
    s.add("clock_ghz", StatUnit::Gigahertz, "the GPU clock the config gives (`clock_ghz`)",
          r.clock_ghz);
    s.add("seconds", StatUnit::SimulatedSeconds,
          "`cycles` at `clock_ghz`: the simulated run's time", r.seconds());
    s.add("flops", StatUnit::Count,
          "floating-point operations of the active lanes, all cores: an add or multiply 1, a "
          "fused multiply-add 2, a simd matrix multiply-accumulate 1,024 (16 or 32 bits)",
          r.flops);
    s.add("fp16_flops", StatUnit::Count,
          "of `flops`, those of 16-bit instructions (the rest are 32-bit)", r.fp16_flops);
    s.add("gflop_per_s", StatUnit::GigaflopsPerSecond, "`flops / seconds`, in 10^9 per second",
          r.gflop_per_s());
    s.add("fp32_gflop_per_s", StatUnit::GigaflopsPerSecond,
          "`(flops - fp16_flops) / seconds`: the 32-bit flops' rate", r.fp32_gflop_per_s());
    s.add("fp16_gflop_per_s", StatUnit::GigaflopsPerSecond,
          "`fp16_flops / seconds`: the 16-bit flops' rate", r.fp16_gflop_per_s());
    s.add("fp32_peak_gflop_per_s", StatUnit::GigaflopsPerSecond,
          "the cores simulated at one 32-bit fused multiply-add per lane per issue interval of "
          "`f32_arith`, at `clock_ghz`",
          r.fp32_peak_gflop_per_s());
    s.add("fp32_peak_share", StatUnit::Ratio,
          "`fp32_gflop_per_s / fp32_peak_gflop_per_s`: the share of the FP32 peak achieved",
          r.fp32_peak_share());
    s.add("fp16_peak_gflop_per_s", StatUnit::GigaflopsPerSecond,
          "the cores simulated at one 16-bit fused multiply-add per lane per issue interval of "
          "`f16_arith`, at `clock_ghz`",
          r.fp16_peak_gflop_per_s());
    s.add("fp16_peak_share", StatUnit::Ratio,
          "`fp16_gflop_per_s / fp16_peak_gflop_per_s`: the share of the FP16 peak achieved",
          r.fp16_peak_share());
    s.add("device_bytes", StatUnit::Bytes,
          "bytes the active lanes loaded from and stored to device memory, all cores (each "
          "lane's own bytes, before the caches merge them into lines)",
          r.device_bytes);
    s.add("device_gb_per_s", StatUnit::GigabytesPerSecond,
          "`device_bytes / seconds`, in 10^9 bytes per second: the bandwidth a kernel's paper "
          "reports (STREAM's counting)",
          r.device_gb_per_s());
    s.add("dram_peak_gb_per_s", StatUnit::GigabytesPerSecond,
          "the chip's DRAM peak: `memory.dram.bus_width_bits / 8 x data_rate_mtps` (the whole "
          "chip's, whatever the cores simulated)",
          r.dram_peak_gb_per_s);
    s.add("dram_bandwidth_share", StatUnit::Ratio,
          "`device_gb_per_s / dram_peak_gb_per_s`: the kernel's own traffic against the DRAM "
          "peak (data that stays in the caches can carry it past 1)",
          r.dram_bandwidth_share());
    StatsWriter residency =
        s.group("residency", "how many threadgroups a core holds at once, and why");
    residency.add("threadgroups_per_core", StatUnit::Count, "threadgroups resident on a core",
                  r.residency.threadgroups_per_core);
    residency.add("simds_per_threadgroup", StatUnit::Count, "simds of one threadgroup",
                  r.residency.simds_per_threadgroup);
    residency.add("limited_by", StatUnit::Text,
                  "`registers`, `simds`, `threadgroup_memory` or `launch`", r.residency.limited_by);
    StatsWriter stalls = s.group("stall_scheduler_cycles",
                                 "scheduler-cycles without an issue, by cause, all schedulers; "
                                 "with the issues they add up to `cycles x schedulers x cores`");
    for (std::size_t c = 0; c < kStallCauseCount; ++c) {
        const StallCauseInfo& info = stall_cause_info(static_cast<StallCause>(c));
        stalls.add(info.name, StatUnit::SchedulerCycles, info.meaning, r.stall_cycles[c]);
    }
    if (r.sampling) report_sampling(s, *r.sampling);
    StatsWriter host = s.group("host", "the simulation's own speed (varies between runs)");
    host.add("seconds", StatUnit::Seconds, "host time of the simulation", r.host_seconds);
    host.add("simd_instructions_per_second", StatUnit::PerSecond,
             "simulated SIMD-instructions per host second",
             r.host_seconds > 0 ? r.simd_instructions / r.host_seconds : 0.0);
    host.add("cycles_per_second", StatUnit::PerSecond, "simulated cycles per host second",
             r.host_seconds > 0 ? r.cycles / r.host_seconds : 0.0);
    s.group("gpu", "every block's statistics, in the shape of the SystemC module tree");
}

// Scales the detailed stretches' stall cycles to the estimated run: the
// scheduler-cycles the estimate holds, less one per SIMD-instruction issued,
// shared among the causes as the detailed stretches share them.
void extrapolate_stalls(RunResult& r) {
    std::uint64_t detailed = 0;
    for (const std::uint64_t c : r.stall_cycles) detailed += c;
    const double slots = static_cast<double>(r.cycles) * r.schedulers_per_core * r.cores;
    const double idle = std::max(0.0, slots - static_cast<double>(r.simd_instructions));
    if (detailed == 0) return;
    for (std::uint64_t& c : r.stall_cycles)
        c = static_cast<std::uint64_t>(std::llround(static_cast<double>(c) * idle / detailed));
}

}  // namespace

RunResult simulate(const MachineConfig& cfg, Workload& workload, const RunOptions& options) {
    RunResult r;
    r.cores = options.cores;
    r.schedulers_per_core = cfg.core.schedulers;
    r.residency = compute_residency(cfg.core, workload.launch(), workload.name());

    const auto t0 = std::chrono::steady_clock::now();
    Gpu gpu("gpu", cfg, options.cores, workload, r.residency);
    FunctionalTally skipped;
    std::string ranges_wait_because;  // why skipped ranges wait, when they do
    if (options.sampling) {
        const std::uint32_t wave = options.cores * r.residency.threadgroups_per_core;
        // Ranges run early only when the workload vouches for its threadgroups.
        SamplingPlan plan = *options.sampling;
        if (!plan.early) {
            ranges_wait_because = "--sample-plan early=0";
        } else if (!workload.independent_threadgroups()) {
            plan.early = false;
            ranges_wait_because = workload.threadgroup_dependence();
        }
        gpu.groups.sample_with(std::make_unique<ThreadgroupSampler>(
            plan, workload.launch().threadgroups, wave,
            [&workload, &skipped, &gpu, &cfg, wave](std::uint32_t first, std::uint32_t last) {
                skipped += run_functional(
                    workload, first, last, wave,
                    [&gpu](std::uint64_t address, bool write) { gpu.warm(address, write); },
                    cfg.memory.l2.line_bytes);
            }));
    }
    if (options.observer)
        for (unsigned i = 0; i < gpu.cores.size(); ++i) gpu.cores[i].observe(options.observer, i);
    if (options.memory_observer) gpu.observe_memory(options.memory_observer);
    sc_core::sc_start();
    for (auto& core : gpu.cores)
        if (core.failure()) std::rethrow_exception(core.failure());

    for (auto& core : gpu.cores) {
        r.cycles = std::max(r.cycles, core.engine().end_cycle());
        r.simd_instructions += core.engine().simd_instructions();
        r.flops += core.engine().flops();
        r.fp16_flops += core.engine().fp16_flops();
        r.device_bytes += core.load_store_unit.unit.bytes();
    }
    r.clock_ghz = cfg.clock_ghz;
    // One fused multiply-add per lane per issue interval of the class.
    auto peak = [&](const char* timing_class) {
        const auto t = cfg.core.timing.find(timing_class);
        return t != cfg.core.timing.end() && t->second.issue_interval > 0
                   ? 2.0 * cfg.core.simd_width * cfg.core.schedulers * options.cores /
                         t->second.issue_interval
                   : 0.0;
    };
    r.fp32_peak_flops_per_cycle = peak("f32_arith");
    r.fp16_peak_flops_per_cycle = peak("f16_arith");
    r.dram_peak_gb_per_s =
        cfg.memory.dram.bus_width_bits / 8.0 * cfg.memory.dram.data_rate_mtps * 1e6 / 1e9;
    for (auto& core : gpu.cores) {
        core.finish(r.cycles);
        for (const auto& s : core.engine().scheduler_counters())
            for (std::size_t c = 0; c < kStallCauseCount; ++c) r.stall_cycles[c] += s.stalls[c];
    }
    if (const ThreadgroupSampler* sampler = gpu.groups.sampler()) {
        r.sampling = sampler->estimate(r.cycles);
        r.sampling->ranges_wait_because = ranges_wait_because;
        r.cycles = static_cast<Cycle>(std::llround(r.sampling->estimated_cycles));
        r.simd_instructions += skipped.simd_instructions;
        r.flops += skipped.flops;
        r.fp16_flops += skipped.fp16_flops;
        r.device_bytes += skipped.device_bytes;
        extrapolate_stalls(r);
    }
    r.host_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

    r.stats = nlohmann::json::object();
    StatsWriter s(r.stats, "", options.stat_declarations);
    report_run_stats(s, r, cfg, workload);
    // The blocks' declarations give the chip-wide aggregates their units.
    std::vector<StatDeclaration> block_declarations;
    r.stats["gpu"] = collect_stats(gpu, "gpu", &block_declarations);
    add_core_aggregates(r.stats["gpu"], block_declarations);
    if (options.stat_declarations)
        options.stat_declarations->insert(options.stat_declarations->end(),
                                          block_declarations.begin(), block_declarations.end());
    return r;
}

}  // namespace agx
