#include "sim/cli/summary.hpp"

#include <cstdio>
#include <string>

#include "sim/common/format.hpp"
#include "sim/kernel/kernel_workload.hpp"

namespace agx::cli {

namespace {

std::string pad(const char* text, int width) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%-*s", width, text);
    return buf;
}

// A simulated time with the unit that keeps it readable: 18.64 us, 2.51 ms.
std::string time_text(double seconds) {
    if (seconds >= 1) return format_number("%.3f s", seconds);
    if (seconds >= 1e-3) return format_number("%.3f ms", seconds * 1e3);
    return format_number("%.2f us", seconds * 1e6);
}

}  // namespace

void print_summary(std::ostream& out, const MachineConfig& cfg, const Workload& workload,
                   const RunResult& r) {
    const Launch& l = workload.launch();
    out << "agxsim " << AGXSIM_VERSION << ": " << workload.name() << " on " << cfg.name << " ("
        << cfg.family << ", " << format_number("%.3f", cfg.clock_ghz) << " GHz), " << r.cores
        << " of " << cfg.cores << " cores\n";
    out << "  launch            " << l.threadgroups << " threadgroups x "
        << l.threads_per_threadgroup << " threads, " << l.registers_halves
        << " half-registers/thread, " << l.threadgroup_memory_bytes << " B threadgroup memory\n";
    // A compiled kernel's preamble: run once, functionally (KernelWorkload).
    if (const auto* k = dynamic_cast<const kernel::KernelWorkload*>(&workload);
        k && !k->program().preamble.empty())
        out << "  preamble          " << k->program().preamble.size()
            << " instructions, run once per launch before the threadgroups (not timed)\n";
    out << "  residency         " << r.residency.threadgroups_per_core << " threadgroups ("
        << r.residency.threadgroups_per_core * r.residency.simds_per_threadgroup
        << " simds) per core, limited by " << r.residency.limited_by << "\n";
    out << "  cycles            " << r.cycles << " (" << time_text(r.seconds()) << " at "
        << format_number("%.3f", r.clock_ghz) << " GHz)\n";
    if (r.sampling) print_sampling(out, *r.sampling);
    out << "  simd instructions " << r.simd_instructions << "\n";
    out << "  IPC per core      " << format_number("%.3f", r.ipc_per_core()) << " ("
        << format_number("%.1f", 100.0 * r.issue_slot_share()) << "% of the issue slots, "
        << r.schedulers_per_core << " per cycle)\n";
    // The figures a paper reports: compute rate against the FP32 peak of
    // the cores simulated, and the bandwidth of the kernel's own accesses.
    out << "  throughput        " << format_number("%.1f", r.fp32_gflop_per_s())
        << " GFLOP/s FP32 (" << format_number("%.1f", 100.0 * r.fp32_peak_share())
        << "% of FP32 peak " << format_number("%.0f", r.fp32_peak_gflop_per_s()) << "), ";
    if (r.fp16_flops > 0)
        out << format_number("%.1f", r.fp16_gflop_per_s()) << " GFLOP/s FP16 ("
            << format_number("%.1f", 100.0 * r.fp16_peak_share()) << "% of FP16 peak "
            << format_number("%.0f", r.fp16_peak_gflop_per_s()) << "), ";
    out << format_number("%.1f", r.device_gb_per_s()) << " GB/s device memory ("
        << format_number("%.1f", 100.0 * r.dram_bandwidth_share()) << "% of DRAM peak "
        << format_number("%.0f", r.dram_peak_gb_per_s) << ")\n";

    const double sched_cycles = static_cast<double>(r.cycles) * r.cores * r.schedulers_per_core;
    out << "  scheduler-cycles  " << format_number("%.0f", sched_cycles) << " ("
        << r.cores * r.schedulers_per_core << " schedulers x cycles):\n";
    out << "    " << pad("issue", 18)
        << format_number("%12.0f", static_cast<double>(r.simd_instructions))
        << format_number("%7.1f%%", sched_cycles ? 100.0 * r.simd_instructions / sched_cycles : 0.0)
        << "\n";
    for (std::size_t c = 0; c < kStallCauseCount; ++c) {
        const double v = static_cast<double>(r.stall_cycles[c]);
        if (v == 0) continue;
        out << "    " << pad(stall_cause_name(static_cast<StallCause>(c)), 18)
            << format_number("%12.0f", v)
            << format_number("%7.1f%%", sched_cycles ? 100.0 * v / sched_cycles : 0.0) << "\n";
    }
    const double secs = r.host_seconds > 0 ? r.host_seconds : 1e-9;
    out << "  host              " << format_number("%.3f s", r.host_seconds) << ", "
        << si(r.simd_instructions / secs) << "SIMD-instructions/s, " << si(r.cycles / secs)
        << "cycles/s\n";
}

void print_sampling(std::ostream& out, const SamplingEstimate& e) {
    out << "  sampled           estimate ";
    if (e.error_bound_cycles < 0)
        out << "with no bound (one sample: too few waves to judge the spread)";
    else
        out << "+- " << format_number("%.0f", e.error_bound_cycles) << " cycles ("
            << format_number("%.1f", e.estimated_cycles > 0
                                         ? 100.0 * e.error_bound_cycles / e.estimated_cycles
                                         : 0.0)
            << "%, 95%)";
    out << "; " << e.detailed_threadgroups << " threadgroups in detail (" << e.simulated_cycles
        << " cycles, " << e.samples << " samples), " << e.skipped_threadgroups
        << " with no timing\n";
    if (e.skipped_threadgroups > 0)
        out << "  sampled           "
            << (e.ranges_early
                    ? "threadgroups independent: each skipped range ran when skipped\n"
                    : "each skipped range ran once the threadgroups before it were done (" +
                          e.ranges_wait_because + ")\n");
    if (e.behaviour_changes > 0)
        out << "  sampled           the kernel's behaviour changed between samples: "
            << e.behaviour_changes << " period(s) ran whole in detail\n";
}

void print_functional_summary(std::ostream& out, const MachineConfig& cfg, const Workload& workload,
                              std::uint64_t simd_instructions, std::uint32_t window,
                              double host_seconds) {
    const Launch& l = workload.launch();
    out << "agxsim " << AGXSIM_VERSION << ": " << workload.name() << " on " << cfg.name
        << ", functional (no timing)\n";
    out << "  launch            " << l.threadgroups << " threadgroups x "
        << l.threads_per_threadgroup << " threads, " << window << " at a time\n";
    out << "  simd instructions " << simd_instructions << "\n";
    const double secs = host_seconds > 0 ? host_seconds : 1e-9;
    out << "  host              " << format_number("%.3f s", host_seconds) << ", "
        << si(simd_instructions / secs) << "SIMD-instructions/s\n";
}

}  // namespace agx::cli
