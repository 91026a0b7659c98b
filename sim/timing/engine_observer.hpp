// A hook on a core's engine, attached from outside (RunOptions::observer),
// for tools that want more than the end-of-run counters: the per-instruction
// profile (sim/stats/instruction_profile.hpp). With none attached the engine
// pays one predictable branch per issue and per evaluation.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/common/cycle.hpp"
#include "sim/timing/stall_cause.hpp"
#include "sim/trace/instruction.hpp"

namespace agx {

// What one issue did, beyond the instruction itself.
struct IssueRecord {
    const Instruction* instruction = nullptr;
    unsigned core = 0, scheduler = 0;
    std::uint32_t simd = 0;            // the core's simd slot that issued it
    std::uint32_t resident_simds = 0;  // simds resident on the core then
    Cycle cycle = 0;
    std::uint32_t register_cache_hits = 0, register_cache_misses = 0;  // its source operands
    // Device memory: 128-byte lines its lanes touched, and how many of those
    // requests hit / missed the L1. Threadgroup memory: passes through the
    // banks (1: conflict-free).
    std::uint32_t lines = 0, l1_hits = 0, l1_misses = 0, bank_passes = 0;
};

// A static instruction, where a wait or a stall is charged: it outlives the
// stream's Instruction (a simd's head moves on when it issues).
struct InstructionKey {
    std::uint32_t pc = 0, source_line = 0;
    isa::Opcode opcode = 0;
    static InstructionKey of(const Instruction& in) { return {in.pc, in.source_line, in.opcode}; }
};

// Where a simd's wait is charged besides the stall causes: its head was
// ready (or not yet looked at) while its scheduler issued another simd's
// instruction.
inline constexpr std::size_t kNotSelected = kStallCauseCount;
inline constexpr std::size_t kWaitBuckets = kStallCauseCount + 1;

// A scheduler's issues and stall scheduler-cycles by cause (cumulative).
struct SchedulerCounters {
    std::uint64_t issued = 0;
    std::array<std::uint64_t, kStallCauseCount> stalls{};
};

// What a core looks like when it steps, for counter tracks.
struct CoreSample {
    unsigned core = 0;
    Cycle cycle = 0;  // everything before this cycle is accounted
    std::uint32_t resident_simds = 0;
    std::uint32_t active_pool = 0;  // simds in the schedulers' active pools (0: no pools)
    const std::vector<SchedulerCounters>* schedulers = nullptr;  // so far
};

class EngineObserver {
  public:
    virtual ~EngineObserver() = default;
    // Each step of a core, before it issues (cheap observers return at once).
    virtual void stepped(const CoreSample& sample) {}
    virtual void issued(const IssueRecord& r) = 0;
    // A simd of core `core` waited from cycle `from` for `cycles` cycles for
    // the reason `bucket` (a StallCause, or kNotSelected), charged to `at`:
    // its next instruction, or for a barrier wait the barrier it waits at.
    virtual void waited(unsigned core, const InstructionKey& at, std::size_t bucket, Cycle from,
                        Cycle cycles) = 0;
    // Scheduler `scheduler` of core `core` issued nothing for `cycles`
    // cycles from `from`, for `cause`: the scheduler-cycles the run's
    // `stall_scheduler_cycles` counts, charged to the instruction that
    // held the scheduler up (`at`; null for `no_simd`): the next instruction
    // of the simd whose wait is the scheduler's cause, the barrier for
    // `barrier`, the instruction that holds the issue port or the register
    // file's read ports for `dispatch` and `register_cache_miss`.
    virtual void stalled(unsigned core, unsigned scheduler, const InstructionKey* at,
                         StallCause cause, Cycle from, Cycle cycles) {}
};

// Several observers on one run (a profile and a timeline).
class ObserverList : public EngineObserver {
  public:
    void add(EngineObserver* o) {
        if (o) list_.push_back(o);
    }
    bool empty() const { return list_.empty(); }
    void stepped(const CoreSample& s) override {
        for (auto* o : list_) o->stepped(s);
    }
    void issued(const IssueRecord& r) override {
        for (auto* o : list_) o->issued(r);
    }
    void waited(unsigned core, const InstructionKey& at, std::size_t bucket, Cycle from,
                Cycle cycles) override {
        for (auto* o : list_) o->waited(core, at, bucket, from, cycles);
    }
    void stalled(unsigned core, unsigned scheduler, const InstructionKey* at, StallCause cause,
                 Cycle from, Cycle cycles) override {
        for (auto* o : list_) o->stalled(core, scheduler, at, cause, from, cycles);
    }

  private:
    std::vector<EngineObserver*> list_;
};

}  // namespace agx
