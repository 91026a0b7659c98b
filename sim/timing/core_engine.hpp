// The cycle-level behaviour of one GPU core, as plain C++.
//
// The SystemC Core module calls step(now) from its one stepping method and
// sleeps until the cycle step() returns. step() issues at most one instruction
// per scheduler, keeps a lower bound of when each simd can next issue, and
// returns the next cycle at which anything can change, so stalls cost nothing
// to simulate. Every scheduler-cycle is accounted as an issue or one stall
// cause, including the cycles skipped.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "isa/catalogue.hpp"
#include "sim/config/machine_config.hpp"
#include "sim/timing/active_pool.hpp"
#include "sim/timing/engine_observer.hpp"
#include "sim/timing/forwarding.hpp"
#include "sim/timing/issue_policy.hpp"
#include "sim/timing/load_store_unit.hpp"
#include "sim/timing/lsu_waiters.hpp"
#include "sim/timing/occupancy.hpp"
#include "sim/timing/pipe_state.hpp"
#include "sim/timing/register_cache.hpp"
#include "sim/timing/scheduler_wakeups.hpp"
#include "sim/timing/shared_sfu.hpp"
#include "sim/timing/simd_context.hpp"
#include "sim/timing/threadgroup_admission.hpp"
#include "sim/timing/threadgroup_memory.hpp"
#include "sim/timing/threadgroup_source.hpp"

namespace agx {

// The blocks a core's engine drives; each is owned by its SystemC module.
struct CoreBlocks {
    std::vector<RegisterCache*> register_caches;  // one per scheduler
    // Each unit's per-scheduler issue pipe, by isa::Unit.
    std::array<PipeState*, isa::kUnitCount> pipes{};
    SharedSfu* sfu = nullptr;  // behind the integer/complex unit
    LoadStoreUnit* lsu = nullptr;
    MemoryPort* icache = nullptr;
    ThreadgroupMemory* tgmem = nullptr;  // null: threadgroup accesses take their class latency only
};

class CoreEngine {
  public:
    CoreEngine(const CoreConfig& cfg, CoreBlocks blocks, Workload& workload,
               ThreadgroupSource& groups, const Residency& residency);

    // Simulates cycle `now`; returns the next cycle with possible work, or
    // kNever when the core has nothing left. Throws InputError on a deadlock.
    Cycle step(Cycle now);

    bool finished() const { return finished_; }
    Cycle end_cycle() const { return end_cycle_; }  // cycle the last result is written
    std::uint64_t simd_instructions() const { return instructions_; }
    // Floating-point operations of the active lanes of every instruction
    // issued (isa::InstructionInfo::flops_per_lane).
    std::uint64_t flops() const { return flops_; }
    std::uint64_t fp16_flops() const { return fp16_flops_; }  // of flops(): the 16-bit ones
    std::uint64_t threadgroups_done() const { return admission_.threadgroups_done(); }
    const std::vector<SchedulerCounters>& scheduler_counters() const { return sched_; }
    const std::vector<std::uint64_t>& opcode_counts() const { return opcode_counts_; }
    // Scheduler-cycles accounted up to and including the last stepped cycle.
    Cycle accounted_until() const { return accounted_until_; }
    // Charges the cycles from the last step up to `end` (exclusive).
    void account_until(Cycle end);
    // Reports every issue and every simd's waits to `observer` (null: none).
    void observe(EngineObserver* observer, unsigned core_index) {
        observer_ = observer;
        core_index_ = core_index;
    }

  private:
    using GroupSlot = ThreadgroupAdmission::Group;
    struct Evaluation {
        Cycle when;
        StallCause cause;
    };

    void admit_threadgroups(Cycle now);
    void load_head(SimdContext& s, std::uint32_t id, Cycle now);
    Evaluation evaluate(SimdContext& s, Cycle now);
    // Parks a simd that cannot issue yet where its evaluation says.
    void park(SimdContext& s, std::uint32_t id, const Evaluation& e, Cycle now);
    // When scheduler `sc` can next issue to `unit` (its pipe, and for the
    // integer/complex unit the shared SFU too), and which of them holds it.
    Evaluation unit_free_at(isa::Unit unit, unsigned sc) const;
    // Scheduler `sc`'s first simd that can issue at `now`, issued; otherwise
    // the cycle and cause of the next chance.
    bool schedule(unsigned sc, Cycle now, Evaluation& best);
    // The part of schedule() that looks at the simds themselves.
    bool look(unsigned sc, Cycle now, Evaluation& best);
    static constexpr std::uint32_t kNoSimd = 0xffffffffu;
    // Keeps complex_heads_ when a simd's head changes. (The head it had is
    // known by the flag alone: a stream may reuse one buffer for every
    // instruction, so the old head's instruction is gone by now.)
    void count_complex_head(SimdContext& s) {
        const bool complex = s.head && traits_[s.head->opcode].unit == isa::Unit::IntComplex;
        complex_heads_[s.scheduler] += static_cast<int>(complex) - static_cast<int>(s.complex_head);
        s.complex_head = complex;
    }
    // Makes a simd a candidate from outside its scheduler's look.
    void wake(SimdContext& s) {
        wakeups_[s.scheduler].make_ready(s.sched_slot);
        quiet_until_[s.scheduler] = 0;
    }
    void issue(SimdContext& s, std::uint32_t id, Cycle now);
    // Cycles after `now` at which the third source of `in`, read from the
    // register file, is there (0: in time).
    std::uint32_t third_source_late(const SimdContext& s, const Instruction& in, Cycle now) const;
    // With an observer: reports the head's wait from s.wait_since to `until`
    // as s.cause (a head not looked at yet, cause NoSimd, as not selected).
    void report_wait(SimdContext& s, Cycle until, std::size_t bucket);
    // With an observer: the instruction scheduler `sc`'s stall for `cause`
    // is charged to (EngineObserver::stalled), or nothing for no_simd.
    std::optional<InstructionKey> stall_owner(unsigned sc, StallCause cause) const;
    void report_stall(unsigned sc, Cycle from, Cycle cycles) const;
    // Tells the observer how the core stands at `now` (CoreSample).
    void sample(Cycle now);
    std::size_t wait_bucket(const SimdContext& s) const {
        return s.cause == StallCause::NoSimd ? kNotSelected : static_cast<std::size_t>(s.cause);
    }
    void retire(SimdContext& s, std::uint32_t id, Cycle now);
    void release_barrier_if_complete(std::uint32_t group_slot, Cycle now);
    PipeState* pipe_for(isa::Unit u) const { return blocks_.pipes[isa::unit_index(u)]; }
    [[noreturn]] void report_deadlock(Cycle now, const std::string& reason) const;
    // When simds waiting for the load/store unit may next get it (a lower
    // bound for every device-memory class).
    Cycle lsu_gate() const;

    const CoreConfig& cfg_;
    CoreBlocks blocks_;
    Workload& workload_;
    Residency residency_;
    const isa::Catalogue& isa_;
    // What the hot path needs of each opcode, resolved once and kept small:
    // its config timing and the catalogue's flags.
    struct OpcodeTraits {
        TimingClassConfig timing;
        isa::Unit unit;
        isa::MemorySpace memory;
        bool is_async, is_wait, is_barrier, is_atomic, is_store;
        std::uint8_t flops_per_lane;
        bool flops_fp16;
    };
    std::vector<OpcodeTraits> traits_;

    std::vector<SimdContext> simds_;
    ThreadgroupAdmission admission_;
    std::vector<std::uint32_t> sched_live_;  // resident simds per scheduler
    // Per scheduler, which simds may issue when (scheduler_wakeups.hpp);
    // a simd's slot in it is its id / schedulers.
    std::vector<SchedulerWakeups> wakeups_;
    std::vector<Forwarding> forwarding_;  // per scheduler
    std::vector<ActivePool> pools_;       // per scheduler (disabled: every simd issues)
    // Per scheduler: the finding of its last look that issued nothing, and
    // the cycle until which it stands (so a scheduler whose simds all wait
    // is not looked at again before then).
    std::vector<Cycle> quiet_until_;
    std::vector<Evaluation> quiet_best_;
    // Per scheduler: how many of its simds have an integer/complex head.
    std::vector<std::int32_t> complex_heads_;
    std::unique_ptr<IssuePolicy> policy_;
    bool complex_first_;                     // policy_->complex_first(), which every look asks
    std::vector<std::uint32_t> scan_start_;  // slot each scheduler's scan starts at
    std::vector<Cycle> dispatch_free_;       // when each scheduler's issue port frees up
    std::vector<StallCause> sched_cause_;    // cause for skipped cycles
    // With an observer: where each scheduler's current stall is charged, and
    // the instruction and the barrier each scheduler issued last.
    std::vector<std::optional<InstructionKey>> sched_owner_;
    std::vector<InstructionKey> last_issue_at_;
    std::vector<InstructionKey> last_barrier_at_;
    std::vector<SchedulerCounters> sched_;
    std::vector<std::uint64_t> opcode_counts_;

    std::uint64_t instructions_ = 0;
    std::uint64_t flops_ = 0;
    std::uint64_t fp16_flops_ = 0;
    Cycle end_cycle_ = 0;
    Cycle accounted_until_ = 0;
    Cycle last_progress_ = 0;  // last cycle an instruction issued or a threadgroup started
    LsuWaiters lsu_waiters_;
    unsigned icache_line_shift_ = 0;  // log2 of the I-cache line size
    // From the last simd's arrival at a barrier to the others' resuming: the
    // barrier class's latency.
    Cycle barrier_latency_ = 1;
    Cycle lsu_lead_ = 0;  // the longest device-memory class latency: issue to reaching the unit
    bool finished_ = false;
    EngineObserver* observer_ = nullptr;
    unsigned core_index_ = 0;
    IssueRecord record_;  // what issue() tells the observer
};

}  // namespace agx
