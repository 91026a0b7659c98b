// The per-instruction profile: for every static instruction of a run (by pc
// and source line), its issues, the lanes it executed, the scheduler-cycles
// charged to it by stall cause (the run summary's stalls: they add up to
// `stall_scheduler_cycles`), the simd-cycles its simds waited on it (by
// stall cause, and `not_selected`), the register-cache hits and misses of
// its operands, and for memory instructions the lines it touched, its L1
// hits and misses and its threadgroup bank passes. It is an EngineObserver
// attached to the run (RunOptions::observer); it holds one entry per static
// instruction, so its size follows the code, not the run's length.
//
// Stalls are the summary's scheduler-cycles: each cycle a scheduler issues
// nothing is charged once, to the instruction that held it up
// (EngineObserver::stalled). Waits are simd-cycles, as a GPU profiler
// samples warp states: every resident simd, every cycle it does not issue,
// charged to its next instruction (a barrier wait to the barrier); one
// scheduler-cycle can see several simds wait. Both charge a barrier wait to
// the barrier.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/timing/engine_observer.hpp"

namespace agx {

class InstructionProfile : public EngineObserver {
  public:
    struct Entry {
        std::uint32_t pc = 0, source_line = 0;
        isa::Opcode opcode = 0;
        std::uint64_t issues = 0, lanes = 0;
        std::array<std::uint64_t, kWaitBuckets> waits{};
        std::array<std::uint64_t, kStallCauseCount> stalls{};  // scheduler-cycles
        std::uint64_t register_cache_hits = 0, register_cache_misses = 0;
        std::uint64_t lines = 0, l1_hits = 0, l1_misses = 0, bank_passes = 0;
    };

    void issued(const IssueRecord& r) override;
    void waited(unsigned core, const InstructionKey& at, std::size_t bucket, Cycle from,
                Cycle cycles) override;
    void stalled(unsigned core, unsigned scheduler, const InstructionKey* at, StallCause cause,
                 Cycle from, Cycle cycles) override;

    const std::unordered_map<std::uint64_t, Entry>& entries() const { return entries_; }

    // The profile as JSON (docs/statistics.md, "Profiles"), entries in pc
    // order. `source`: the workload's file; a text file's lines become each
    // entry's `text`, unless `lines` gives the lines (a kernel compiled from
    // OpenCL C: the kernel the compile made, not the source file).
    nlohmann::json to_json(const std::string& source, const std::string& machine,
                           std::uint64_t cycles,
                           const std::vector<std::string>* lines = nullptr) const;

  private:
    Entry& entry(const InstructionKey& at);
    std::unordered_map<std::uint64_t, Entry> entries_;  // by pc << 32 | source line
    // Scheduler-cycles no instruction held up (no_simd), by cause.
    std::array<std::uint64_t, kStallCauseCount> unattributed_{};
};

// The name of a wait bucket: a stall cause's, or "not_selected".
const char* wait_bucket_name(std::size_t bucket);

// `agxsim profile show`: the listing sorted by waits, like a profiler's
// source view. Throws InputError naming `path` for a file that is not a
// profile.
std::string format_profile(const nlohmann::json& profile, const std::string& path, std::size_t top);

}  // namespace agx
