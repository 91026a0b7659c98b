#include "sim/model/core_blocks.hpp"

namespace agx {

void RegisterCacheBlock::report_stats(StatsWriter& out) const {
    out.add("hits", StatUnit::Count, "32-bit register operands found in the register cache",
            cache.hits());
    out.add("misses", StatUnit::Count, "32-bit register operands read from the register file",
            cache.misses());
    out.add("file_read_halves", StatUnit::Count, "16-bit halves read from the register file",
            cache.file_read_halves());
}

void SchedulerBlock::report_stats(StatsWriter& out) const {
    out.add("issued", StatUnit::Count, "SIMD-instructions this scheduler issued", counters.issued);
    StatsWriter stalls = out.group(
        "stall_cycles",
        "cycles without an issue, by cause (with `issued` they add up to the run's cycles)");
    for (std::size_t c = 0; c < kStallCauseCount; ++c) {
        const StallCauseInfo& info = stall_cause_info(static_cast<StallCause>(c));
        stalls.add(info.name, StatUnit::SchedulerCycles, info.meaning, counters.stalls[c]);
    }
}

void PipelineBlock::report_stats(StatsWriter& out) const {
    out.add("issued", StatUnit::Count, "SIMD-instructions issued to this unit, all schedulers",
            pipe.issued_total());
    out.add("busy_scheduler_cycles", StatUnit::SchedulerCycles,
            "issue intervals summed: cycles a scheduler's pipe could take nothing new",
            pipe.busy_cycles());
}

void SfuBlock::report_stats(StatsWriter& out) const {
    out.add("lanes", StatUnit::Count, "special-function lanes the core's schedulers share (config)",
            lanes_);
    out.add("issued", StatUnit::Count, "SIMD-instructions that used the shared lanes",
            sfu.issued());
    out.add("busy_cycles", StatUnit::Cycles,
            "cycles the lanes were occupied (fractional: a narrow instruction takes part of one)",
            sfu.busy_cycles());
}

void LoadStoreBlock::report_stats(StatsWriter& out) const {
    out.add("issued", StatUnit::Count, "device-memory SIMD-instructions issued",
            pipe.issued_total());
    out.add("requests", StatUnit::Count, "requests the unit sent to the L1", unit.requests());
    out.add("lines", StatUnit::Count, "cache lines the lanes' accesses touched", unit.lines());
    out.add("bytes", StatUnit::Bytes, "bytes the lanes moved", unit.bytes());
    out.add("data_path_busy_cycles", StatUnit::Cycles, "cycles the unit's data path was busy",
            unit.busy_cycles());
    out.add("mshr_wait_cycles", StatUnit::Cycles, "cycles the data path was held by full L1 MSHRs",
            unit.mshr_wait_cycles());
}

void ThreadgroupMemoryBlock::report_stats(StatsWriter& out) const {
    out.add("size_bytes", StatUnit::Bytes, "threadgroup memory per core (config)", size_bytes_);
    out.add("banks", StatUnit::Count, "banks, each serving one access per cycle (config)",
            banks.banks());
    out.add("bank_bytes", StatUnit::Bytes, "width of one bank (config)", banks.bank_bytes());
    out.add("issued", StatUnit::Count, "threadgroup-memory SIMD-instructions issued",
            pipe.issued_total());
    out.add("accesses", StatUnit::Count, "accesses that went through the banks", banks.accesses());
    out.add("bank_passes", StatUnit::Count,
            "passes through the banks (one per access when conflict-free)", banks.passes_total());
    out.add("conflict_cycles", StatUnit::Cycles, "passes beyond one per access: bank conflicts",
            banks.conflict_cycles());
}

}  // namespace agx
