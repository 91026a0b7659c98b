#include "sim/timing/core_engine.hpp"

#include <algorithm>
#include <sstream>

#include "sim/common/errors.hpp"
#include "sim/trace/memory_fault.hpp"

namespace agx {

using isa::Unit;

namespace {
// What a stalled simd can wait on, besides time: the issue port of its
// head's unit, which is its scheduler's pipe and, for the integer/complex
// unit, the core's shared SFU as well.
constexpr unsigned kResources = isa::kUnitCount;
unsigned slots_per_scheduler(const CoreConfig& cfg) {
    const unsigned n = std::max(1u, cfg.schedulers);
    return (cfg.max_resident_simds + n - 1) / n;
}
}  // namespace

CoreEngine::CoreEngine(const CoreConfig& cfg, CoreBlocks blocks, Workload& workload,
                       ThreadgroupSource& groups, const Residency& residency)
    : cfg_(cfg),
      blocks_(std::move(blocks)),
      workload_(workload),
      residency_(residency),
      isa_(isa::Catalogue::instance()),
      simds_(cfg.max_resident_simds),
      admission_(cfg, residency, groups),
      sched_live_(cfg.schedulers, 0),
      wakeups_(cfg.schedulers, SchedulerWakeups(slots_per_scheduler(cfg), kResources)),
      forwarding_(cfg.schedulers,
                  Forwarding(cfg.register_cache.forwarding == ForwardingPolicy::SameSimd,
                             cfg.register_cache.write_latency)),
      // A pool as large as the scheduler's slots is no pool: left disabled.
      pools_(cfg.schedulers,
             ActivePool(cfg.active_simds < slots_per_scheduler(cfg) ? cfg.active_simds : 0,
                        slots_per_scheduler(cfg))),
      quiet_until_(cfg.schedulers, 0),
      quiet_best_(cfg.schedulers, Evaluation{kNever, StallCause::NoSimd}),
      complex_heads_(cfg.schedulers, 0),
      policy_(make_issue_policy(cfg.scheduler_policy)),
      complex_first_(policy_->complex_first()),
      scan_start_(cfg.schedulers, 0),
      dispatch_free_(cfg.schedulers, 0),
      sched_cause_(cfg.schedulers, StallCause::NoSimd),
      sched_owner_(cfg.schedulers),
      last_issue_at_(cfg.schedulers),
      last_barrier_at_(cfg.schedulers),
      sched_(cfg.schedulers),
      opcode_counts_(isa_.size(), 0),
      lsu_waiters_(cfg.max_resident_simds, cfg.schedulers) {
    for (std::size_t u = 0; u < isa::kUnitCount; ++u)
        if (!blocks_.pipes[u])
            throw std::logic_error(std::string("no pipe for unit ") +
                                   isa::unit_name(static_cast<Unit>(u)));
    // Line sizes are powers of two (the config checks).
    while ((2u << icache_line_shift_) <= cfg.icache.line_bytes) ++icache_line_shift_;
    // Resolve each opcode's timing once, so the hot path never looks up a name.
    traits_.resize(isa_.size());
    for (std::size_t op = 0; op < isa_.size(); ++op) {
        const isa::InstructionInfo& info = isa_.info(static_cast<isa::Opcode>(op));
        const auto it = cfg.timing.find(std::string(info.timing_class));
        if (it == cfg.timing.end())
            throw std::logic_error("config has no timing for class " +
                                   std::string(info.timing_class));
        traits_[op] = {it->second,          info.unit,       info.memory,    info.is_async,
                       info.is_wait,        info.is_barrier, info.is_atomic, info.is_store,
                       info.flops_per_lane, info.flops_fp16};
        if (info.memory == isa::MemorySpace::Device)
            lsu_lead_ = std::max<Cycle>(lsu_lead_, it->second.latency);
        if (info.is_barrier) barrier_latency_ = std::max<Cycle>(1, it->second.latency);
    }
}

// A threadgroup the admission unit placed: its simds' contexts and streams.
void CoreEngine::admit_threadgroups(Cycle now) {
    const std::optional<std::uint32_t> g = admission_.admit(now);
    if (!g) return;
    GroupSlot& slot = admission_.group(*g);
    // Each threadgroup pays the kernel's fixed cost from its admission:
    // latency (launch, argument loads, barriers, stores) that the other
    // resident threadgroups' work can hide.
    const Cycle start = now + workload_.launch().overhead_cycles;
    // Waiting out a launch is progress, not a deadlock.
    last_progress_ = std::max(last_progress_, start);
    for (std::uint32_t i = 0; i < slot.simds.size(); ++i) {
        const std::uint32_t id = slot.simds[i];
        SimdContext& s = simds_[id];
        s.active = true;
        s.group_slot = *g;
        s.threadgroup = slot.threadgroup;
        s.simd_in_group = i;
        s.scheduler = id % cfg_.schedulers;
        s.sched_slot = id / cfg_.schedulers;
        s.scoreboard.reset();
        s.forwarding = {};
        s.slots = {};
        s.fetched_line = ~0ull;
        s.fetch_ready = now;
        s.last_result = now;
        s.at_barrier = false;
        s.stream = workload_.open(slot.threadgroup, i);
        ++sched_live_[s.scheduler];
        // Launching takes the threadgroup's fixed start-up time: its
        // simds join the pool once they can issue.
        if (start > now)
            pools_[s.scheduler].away_until(s.sched_slot, start);
        else
            pools_[s.scheduler].arrive(s.sched_slot);
    }
    // Only once the whole group is placed: a simd with no instructions
    // retires at once, and the group must not look finished before then.
    for (std::uint32_t id : slot.simds) {
        SimdContext& s = simds_[id];
        load_head(s, id, start);
        if (start > now && s.active) wakeups_[s.scheduler].sleep_until(s.sched_slot, start);
    }
}

// Makes the stream's next instruction the head, fetching its line through the
// instruction cache when the simd moves to a new line.
void CoreEngine::load_head(SimdContext& s, std::uint32_t id, Cycle now) {
    s.head = s.stream->peek();
    s.own_bound_known = false;
    count_complex_head(s);
    s.earliest = now;
    s.cause = StallCause::NoSimd;  // nothing known about the new head yet
    s.wait_since = now;
    wake(s);
    if (!s.head) {
        retire(s, id, now);
        return;
    }
    s.pipe_free_at = pipe_for(traits_[s.head->opcode].unit)->free_at_entry(s.scheduler);
    if (blocks_.icache) {
        const std::uint32_t line_bytes = 1u << icache_line_shift_;
        const std::uint64_t line = s.head->pc >> icache_line_shift_;
        if (line != s.fetched_line) {
            s.fetched_line = line;
            s.fetch_ready = blocks_.icache->access(kCodeBaseAddress + line * line_bytes, line_bytes,
                                                   false, now);
        }
    }
}

void CoreEngine::retire(SimdContext& s, std::uint32_t id, Cycle now) {
    Cycle done = s.last_result;
    for (auto& slot : s.slots) done = std::max(done, slot.all_done());
    end_cycle_ = std::max(end_cycle_, std::max(done, now + 1));
    s.active = false;
    s.stream.reset();
    s.head = nullptr;
    count_complex_head(s);
    --sched_live_[s.scheduler];
    wakeups_[s.scheduler].park_elsewhere(s.sched_slot);
    pools_[s.scheduler].leave(s.sched_slot);
    lsu_waiters_.remove(id, s.scheduler);
    blocks_.register_caches[s.scheduler]->evict_simd(id);

    admission_.release_simd(id);

    GroupSlot& g = admission_.group(s.group_slot);
    --g.live_simds;
    if (g.live_simds == 0)
        admission_.finish(s.group_slot, now);
    else
        release_barrier_if_complete(s.group_slot,
                                    now);  // the others may all be waiting for this one
}

// A barrier completes when every simd of the group still alive has reached
// it (a simd that has finished no longer takes part).
void CoreEngine::release_barrier_if_complete(std::uint32_t slot, Cycle now) {
    GroupSlot& g = admission_.group(slot);
    if (g.at_barrier == 0 || g.at_barrier != g.live_simds) return;
    for (std::uint32_t other : g.simds) {
        SimdContext& o = simds_[other];
        // The group's simds that finished early may have left their ids to a
        // later group's: only this group's own take part.
        if (o.active && o.at_barrier && o.group_slot == slot) {
            o.at_barrier = false;
            o.earliest = now + barrier_latency_;
            pools_[o.scheduler].arrive(o.sched_slot);
            wakeups_[o.scheduler].sleep_until(o.sched_slot, now + barrier_latency_);
            quiet_until_[o.scheduler] = 0;
        }
    }
    g.at_barrier = 0;
}

CoreEngine::Evaluation CoreEngine::unit_free_at(Unit unit, unsigned sc) const {
    const Cycle pipe = pipe_for(unit)->free_at(sc);
    if (unit != Unit::IntComplex) return {pipe, StallCause::PipeBusy};
    const Cycle sfu = blocks_.sfu->free_at();
    return sfu > pipe ? Evaluation{sfu, StallCause::SfuBusy}
                      : Evaluation{pipe, StallCause::PipeBusy};
}

void CoreEngine::park(SimdContext& s, std::uint32_t id, const Evaluation& e, Cycle now) {
    const unsigned sc = s.scheduler, slot = s.sched_slot;
    const OpcodeTraits& op = traits_[s.head->opcode];
    const Unit unit = op.unit;
    if (observer_) report_wait(s, now, wait_bucket(s));
    s.earliest = e.when;
    s.cause = e.cause;
    // Waiting for the load/store unit: sleep in its queue.
    // (It keeps its place in the active pool: the unit wakes the first
    // waiter in line, which must be able to issue then.)
    if (e.cause == StallCause::LsuQueue && op.memory == isa::MemorySpace::Device) {
        lsu_waiters_.add(id, sc);
        s.earliest = kNever;
        wakeups_[sc].park_elsewhere(slot);
        return;
    }
    lsu_waiters_.remove(id, sc);
    // The bound of a pipe or the SFU moves whenever another simd takes it:
    // wait for the unit itself, not for a cycle. Every other bound of the
    // head was at most the unit's when it was evaluated; most cannot move
    // (registers, fetch, wait slots), and those that can only move later
    // (the load/store unit's, threadgroup memory's), which costs one more
    // evaluation when the unit frees up, never a late issue.
    if (e.cause == StallCause::PipeBusy || e.cause == StallCause::SfuBusy)
        wakeups_[sc].wait_for(slot, static_cast<unsigned>(unit));
    else if (e.when == kNever)
        wakeups_[sc].park_elsewhere(slot);  // at a barrier: released from outside
    else
        wakeups_[sc].sleep_until(slot, std::max(e.when, now + 1));
    // Waiting on memory is long: the simd leaves the active pool until then.
    if (e.cause == StallCause::WaitSlot && pools_[sc].enabled()) {
        pools_[sc].away_until(slot, std::max(e.when, now + 1));
        // Its register-cache partition belongs to its place in the pool.
        blocks_.register_caches[sc]->evict_simd(id);
    }
}

CoreEngine::Evaluation CoreEngine::evaluate(SimdContext& s, Cycle now) {
    if (s.at_barrier) return {kNever, StallCause::Barrier};
    const Instruction& in = *s.head;
    const OpcodeTraits& op = traits_[in.opcode];

    // The latest of the head's bounds, and the first cause found for it.
    Cycle when = s.fetch_ready;
    StallCause cause = StallCause::InstructionFetch;
    auto later = [&](Cycle t, StallCause c) {
        if (t > when) {
            when = t;
            cause = c;
        }
    };
    // The head's own bounds do not move while it waits: a head evaluated
    // again (a simd that waited for a unit) takes them as they were.
    if (s.own_bound_known) {
        when = s.own_bound;
        cause = s.own_cause;
    } else {
        later(s.collector_free, StallCause::RegisterCacheMiss);
        for (unsigned i = 0; i < in.num_src; ++i)
            later(s.scoreboard.ready_at(in.src[i]), StallCause::Dependency);
        // In-order writes: a new result may not land before an older one to the same register.
        for (unsigned i = 0; i < in.num_dst; ++i)
            later(s.scoreboard.ready_at(in.dst[i]), StallCause::Dependency);
        s.own_bound = when;
        s.own_cause = cause;
        s.own_bound_known = true;
    }
    if (in.wait_slot < s.slots.size()) {
        if (op.is_wait) later(s.slots[in.wait_slot].all_done(), StallCause::WaitSlot);
        if (op.is_async) {
            WaitSlotState& slot = s.slots[in.wait_slot];
            if (slot.outstanding(now) >= cfg_.max_outstanding_per_slot)
                later(slot.first_done(), StallCause::WaitSlot);
        }
    }
    later(*s.pipe_free_at, StallCause::PipeBusy);
    if (s.complex_head) later(blocks_.sfu->free_at(), StallCause::SfuBusy);
    // The core's memory paths: the LSU takes the instruction when its data
    // path (and the L1's MSHRs) can, `latency` cycles after issue; the
    // threadgroup banks take one access at a time.
    if (op.memory == isa::MemorySpace::Device && blocks_.lsu) {
        const Cycle accept = blocks_.lsu->accept_at(), lead = op.timing.latency;
        later(accept > lead ? accept - lead : 0, StallCause::LsuQueue);
    } else if (op.memory == isa::MemorySpace::Threadgroup && blocks_.tgmem) {
        later(blocks_.tgmem->free_at(), StallCause::ThreadgroupBank);
    }
    return {when, cause};
}

// A register-file read of the third source waits until its producer's
// result has been written back to the file (file_third_source_delay). The
// evidence is the FP32/integer pipeline's FFMA (docs/validation.md); memory
// instructions, whose operands take the load/store unit's path, and the
// integer/complex pipeline are left out.
std::uint32_t CoreEngine::third_source_late(const SimdContext& s, const Instruction& in,
                                            Cycle now) const {
    const std::uint32_t delay = cfg_.register_cache.file_third_source_delay;
    if (delay == 0 || in.num_src < 3 || traits_[in.opcode].unit != isa::Unit::Fp32Int) return 0;
    const Operand& op = in.src[2];
    if (op.kind != OperandKind::Reg || op.halves < 2) return 0;
    const Cycle ready = s.scoreboard.ready_at(op);
    if (ready == 0 || ready + delay <= now) return 0;
    return static_cast<std::uint32_t>(ready + delay - now);
}

void CoreEngine::issue(SimdContext& s, std::uint32_t id, Cycle now) {
    const Instruction& in = *s.head;
    const OpcodeTraits& info = traits_[in.opcode];
    const TimingClassConfig& t = info.timing;
    const unsigned sched = s.scheduler;

    // Operands come late from the register file (misses) or, off the
    // forwarding path, from the register cache: the later of the two counts.
    // Filled only for an observer (a member: nothing to build per issue).
    IssueRecord& record = record_;
    if (observer_) {
        record = IssueRecord{};
        // The wait up to the bound its last evaluation found is its cause's;
        // after that it was ready and the scheduler issued others.
        const Cycle bound = std::min(std::max(s.earliest, s.wait_since), now);
        report_wait(s, bound, wait_bucket(s));
        report_wait(s, now, kNotSelected);
        record.instruction = &in;
        record.core = core_index_;
        record.scheduler = sched;
        record.simd = id;
        for (const std::uint32_t live : sched_live_) record.resident_simds += live;
        record.cycle = now;
        record.register_cache_hits =
            static_cast<std::uint32_t>(blocks_.register_caches[sched]->hits());
        record.register_cache_misses =
            static_cast<std::uint32_t>(blocks_.register_caches[sched]->misses());
    }
    const Forwarding::Issued forwarded =
        forwarding_[sched].issue(s.forwarding, s.scoreboard, in, now, s.last_result);
    RegisterCache& rc = *blocks_.register_caches[sched];
    const std::uint64_t misses_before = rc.misses();
    const std::uint32_t read_late = rc.fetch_operands(id, in, now);
    // Only an instruction that reads the register file takes its third source from there.
    const std::uint32_t third_late =
        rc.misses() != misses_before ? third_source_late(s, in, now) : 0;
    const std::uint32_t fetch_extra = std::max({read_late, forwarded.late, third_late});
    if (observer_) {
        record.register_cache_hits =
            static_cast<std::uint32_t>(blocks_.register_caches[sched]->hits()) -
            record.register_cache_hits;
        record.register_cache_misses =
            static_cast<std::uint32_t>(blocks_.register_caches[sched]->misses()) -
            record.register_cache_misses;
    }
    if (fetch_extra > 0) s.collector_free = now + 1 + fetch_extra;
    dispatch_free_[sched] = now + t.dispatch_cycles;
    pipe_for(info.unit)->issue(sched, now, t.issue_interval);
    const Cycle sfu_wait =
        info.unit == Unit::IntComplex ? blocks_.sfu->issue(now, t.issue_interval) : 0;

    Cycle ready = now + std::max<Cycle>(fetch_extra, sfu_wait) + t.latency;
    try {
        if (info.memory == isa::MemorySpace::Device) {
            const AccessKind kind = info.is_atomic  ? AccessKind::Atomic
                                    : info.is_store ? AccessKind::Store
                                                    : AccessKind::Load;
            const std::uint64_t hits = observer_ ? blocks_.lsu->l1().hits() : 0;
            const std::uint64_t misses = observer_ ? blocks_.lsu->l1().misses() : 0;
            const MemoryIssue m = blocks_.lsu->issue(in, kind, now + fetch_extra + t.latency);
            ready = m.complete;
            if (observer_) {
                record.lines = m.lines;
                record.l1_hits = static_cast<std::uint32_t>(blocks_.lsu->l1().hits() - hits);
                record.l1_misses = static_cast<std::uint32_t>(blocks_.lsu->l1().misses() - misses);
            }
            if (info.is_async && in.wait_slot < s.slots.size()) s.slots[in.wait_slot].add(ready);
        } else if (info.memory == isa::MemorySpace::Threadgroup && blocks_.tgmem) {
            const std::uint64_t passes = blocks_.tgmem->passes_total();
            ready = blocks_.tgmem->access(in, info.is_atomic, now + fetch_extra) + t.latency;
            if (observer_)
                record.bank_passes =
                    static_cast<std::uint32_t>(blocks_.tgmem->passes_total() - passes);
        }
    } catch (const MemoryFault& f) {
        throw InputError(workload_.name() + ":" + std::to_string(in.source_line), f.what());
    }
    for (unsigned i = 0; i < in.num_dst; ++i) s.scoreboard.write(in.dst[i], ready, forwarded.stamp);
    if (in.num_dst > 0 || info.memory != isa::MemorySpace::None)
        s.last_result = std::max(s.last_result, ready);

    ++instructions_;
    ++opcode_counts_[in.opcode];
    if (info.flops_per_lane) {
        const std::uint64_t n = std::uint64_t{info.flops_per_lane} *
                                static_cast<unsigned>(__builtin_popcount(in.active_mask));
        flops_ += n;
        if (info.flops_fp16) fp16_flops_ += n;
    }
    ++sched_[sched].issued;
    if (observer_) {
        observer_->issued(record);
        last_issue_at_[sched] = InstructionKey::of(in);
        if (info.is_barrier) s.barrier_at = last_barrier_at_[sched] = InstructionKey::of(in);
    }

    s.stream->advance();
    // A control instruction writes no register: its latency is the wait
    // before the simd's next instruction (after a taken branch, a wait, ...).
    load_head(s, id, now + (info.unit == Unit::Control ? std::max<Cycle>(1, t.latency) : 1));
    if (info.is_barrier && s.active) {
        GroupSlot& g = admission_.group(s.group_slot);
        s.at_barrier = true;
        s.earliest = kNever;  // what an evaluation would say, for the stall cause
        s.cause = StallCause::Barrier;
        wakeups_[sched].park_elsewhere(s.sched_slot);
        ++g.at_barrier;
        release_barrier_if_complete(s.group_slot, now);
        // Still waiting (not the last to arrive): its place goes to another.
        if (s.at_barrier && pools_[sched].enabled()) {
            pools_[sched].leave(s.sched_slot);
            blocks_.register_caches[sched]->evict_simd(id);
        }
    }
}

void CoreEngine::sample(Cycle now) {
    CoreSample c;
    c.core = core_index_;
    c.cycle = now;
    for (unsigned sc = 0; sc < cfg_.schedulers; ++sc) {
        c.resident_simds += sched_live_[sc];
        if (pools_[sc].enabled()) c.active_pool += pools_[sc].size();
    }
    c.schedulers = &sched_;
    observer_->stepped(c);
}

void CoreEngine::report_wait(SimdContext& s, Cycle until, std::size_t bucket) {
    // A barrier's wait is the barrier's, not the next instruction's.
    if (until > s.wait_since && s.head)
        observer_->waited(core_index_,
                          bucket == static_cast<std::size_t>(StallCause::Barrier)
                              ? s.barrier_at
                              : InstructionKey::of(*s.head),
                          bucket, s.wait_since, until - s.wait_since);
    s.wait_since = std::max(s.wait_since, until);
}

// The simd whose wait the scheduler's cause is (the first on the scheduler
// with that cause), or for the causes that are the scheduler's own ports
// the instruction it issued last.
std::optional<InstructionKey> CoreEngine::stall_owner(unsigned sc, StallCause cause) const {
    if (cause == StallCause::NoSimd) return std::nullopt;
    if (cause == StallCause::Dispatch || cause == StallCause::RegisterCacheMiss)
        return last_issue_at_[sc];
    for (std::size_t id = sc; id < simds_.size(); id += cfg_.schedulers) {
        const SimdContext& s = simds_[id];
        if (!s.active || !s.head) continue;
        if (cause == StallCause::Barrier) {
            if (s.at_barrier) return s.barrier_at;
        } else if (!s.at_barrier && s.cause == cause) {
            return InstructionKey::of(*s.head);
        }
    }
    // A scheduler whose simds all wait elsewhere, none at a barrier now
    // (released this cycle): the barrier they waited at.
    if (cause == StallCause::Barrier) return last_barrier_at_[sc];
    return last_issue_at_[sc];
}

void CoreEngine::report_stall(unsigned sc, Cycle from, Cycle cycles) const {
    observer_->stalled(core_index_, sc, sched_owner_[sc] ? &*sched_owner_[sc] : nullptr,
                       sched_cause_[sc], from, cycles);
}

void CoreEngine::account_until(Cycle end) {
    if (end <= accounted_until_) return;
    const Cycle skipped = end - accounted_until_;
    for (unsigned sc = 0; sc < cfg_.schedulers; ++sc) {
        sched_[sc].stalls[static_cast<std::size_t>(sched_cause_[sc])] += skipped;
        if (observer_) report_stall(sc, accounted_until_, skipped);
    }
    accounted_until_ = end;
}

Cycle CoreEngine::step(Cycle now) {
    account_until(now);
    if (observer_) sample(now);
    admission_.new_cycle();
    if (admission_.pending()) admit_threadgroups(now);

    // The load/store unit can take more: wake the first simds waiting for it.
    if (!lsu_waiters_.empty() && lsu_gate() <= now)
        lsu_waiters_.wake_first(1, [&](std::uint32_t id) {
            SimdContext& s = simds_[id];
            s.earliest = now;
            wake(s);
        });

    Cycle next = kNever;
    bool progressed = admission_.admitted_this_cycle();
    for (unsigned sc = 0; sc < cfg_.schedulers; ++sc) {
        Evaluation best{kNever, StallCause::NoSimd};
        const bool issued = schedule(sc, now, best);
        if (issued) {
            progressed = true;
            sched_cause_[sc] = StallCause::NoSimd;  // provisional: re-evaluated next cycle
            if (observer_) sched_owner_[sc].reset();
            next = std::min(next, now + 1);
        } else {
            ++sched_[sc].stalls[static_cast<std::size_t>(best.cause)];
            sched_cause_[sc] = best.cause;
            next = std::min(next, best.when);
            if (observer_) {
                sched_owner_[sc] = stall_owner(sc, best.cause);
                report_stall(sc, now, 1);
            }
        }
    }
    accounted_until_ = now + 1;

    if (admission_.pending() && !admission_.source_exhausted()) next = std::min(next, now + 1);
    if (admission_.drained()) {
        finished_ = true;
        return kNever;
    }
    if (progressed) last_progress_ = std::max(last_progress_, now);
    if (next == kNever) report_deadlock(now, "no simd can ever issue");
    // The deadlock detector: a run that would go on without issuing anything
    // for more than core.deadlock_cycles is stopped now, before simulating it.
    if (next > last_progress_ && next - last_progress_ > cfg_.deadlock_cycles)
        report_deadlock(now, "no instruction issued since cycle " + std::to_string(last_progress_) +
                                 " and none can issue before cycle " + std::to_string(next) +
                                 " (more than core.deadlock_cycles = " +
                                 std::to_string(cfg_.deadlock_cycles) + ")");
    return std::max(next, now + 1);
}

bool CoreEngine::schedule(unsigned sc, Cycle now, Evaluation& best) {
    if (sched_live_[sc] == 0) return false;
    if (dispatch_free_[sc] > now) {
        best = {dispatch_free_[sc], StallCause::Dispatch};
        return false;
    }
    const Cycle ports_free = blocks_.register_caches[sc]->ports_free_at();
    if (ports_free > now) {
        best = {ports_free, StallCause::RegisterCacheMiss};
        return false;
    }
    if (quiet_until_[sc] > now) {
        best = quiet_best_[sc];  // nothing has changed since the last look
    } else if (look(sc, now, best)) {
        return true;
    }
    if (lsu_waiters_.count(sc) > 0) {
        const Cycle gate = std::max(lsu_gate(), now + 1);
        if (gate < best.when) best = {gate, StallCause::LsuQueue};
    }
    // Everyone else is parked until released from outside: at a barrier.
    if (best.when == kNever) best.cause = StallCause::Barrier;
    return false;
}

bool CoreEngine::look(unsigned sc, Cycle now, Evaluation& best) {
    SchedulerWakeups& w = wakeups_[sc];
    w.release_timers(now);
    ActivePool& pool = pools_[sc];
    if (pool.enabled()) pool.refill(now);
    // The first ready simd in the scan issues. Under complex_first, while the
    // integer/complex unit is free and some simd's head is for it, the scan
    // goes on past the first ready simd to the first ready complex
    // instruction (only simds whose head is complex are evaluated on the
    // way), and falls back to the first ready simd if there is none.
    const bool complex_first =
        complex_first_ && complex_heads_[sc] > 0 && unit_free_at(Unit::IntComplex, sc).when <= now;
    std::uint32_t chosen = kNoSimd, first_ready = kNoSimd;
    // In locals: the calls below could change members, so these would be
    // loaded again, one after the other, before each simd's first look.
    const unsigned schedulers = cfg_.schedulers;
    SimdContext* const simds = simds_.data();
    w.for_each_candidate(
        scan_start_[sc],
        [&](unsigned unit) { return unit_free_at(static_cast<Unit>(unit), sc).when <= now; },
        [&](unsigned slot) {
            const std::uint32_t id = slot * schedulers + sc;
            SimdContext& s = simds[id];
            // Past the first ready simd, only complex heads matter.
            if (first_ready != kNoSimd && !s.complex_head) return false;  // stays ready
            const Evaluation e = evaluate(s, now);
            if (e.when > now) {
                park(s, id, e, now);
                return false;
            }
            if (complex_first && !s.complex_head) {
                first_ready = id;
                return false;
            }
            chosen = id;
            return true;
        },
        pool.enabled() ? pool.members() : nullptr);
    if (chosen == kNoSimd) chosen = first_ready;
    const bool issued = chosen != kNoSimd;
    if (issued) {
        SimdContext& s = simds_[chosen];
        lsu_waiters_.remove(chosen, sc);
        scan_start_[sc] = static_cast<std::uint32_t>(policy_->next_start(s.sched_slot));
        issue(s, chosen, now);
    }
    if (issued) return true;
    // Nothing can issue: the next chance is the first timer or a unit
    // someone waits on freeing up (units only ever free up later than they
    // said, so this holds until then unless a simd is woken from outside).
    // (Worked out in a local: storing `best` field by field and copying it
    // whole to quiet_best_ right after stalls on the store forwarding.)
    Evaluation found = best;
    Cycle when;
    unsigned slot;
    if (w.next_timer(when, slot)) found = {when, simds_[slot * cfg_.schedulers + sc].cause};
    for (std::uint32_t m = w.waited_on(); m; m &= m - 1) {
        const Evaluation t = unit_free_at(static_cast<Unit>(__builtin_ctz(m)), sc);
        if (t.when < found.when) found = t;
    }
    // A simd left the pool during the scan and another waits for its place:
    // it may issue next cycle.
    if (pool.enabled() && pool.room_for_queued() && found.when > now + 1)
        found = {now + 1, found.cause};
    best = found;
    quiet_best_[sc] = found;
    quiet_until_[sc] = found.when;
    return false;
}

Cycle CoreEngine::lsu_gate() const {
    const Cycle accept = blocks_.lsu ? blocks_.lsu->accept_at() : 0;
    return accept > lsu_lead_ ? accept - lsu_lead_ : 0;
}

void CoreEngine::report_deadlock(Cycle now, const std::string& reason) const {
    std::ostringstream msg;
    msg << "deadlock at cycle " << now << ": " << reason << ";";
    int shown = 0;
    for (std::uint32_t id = 0; id < simds_.size() && shown < 8; ++id) {
        const SimdContext& s = simds_[id];
        if (!s.active) continue;
        msg << " threadgroup " << s.threadgroup << " simd " << s.simd_in_group << " waits on "
            << stall_cause_name(s.cause);
        if (s.at_barrier) {
            const GroupSlot& g = admission_.group(s.group_slot);
            msg << " (" << g.at_barrier << " of " << g.live_simds << " live simds arrived)";
        } else if (s.earliest != kNever) {
            msg << " until cycle " << s.earliest;
        }
        if (s.head) msg << " (trace line " << s.head->source_line << ")";
        msg << ";";
        ++shown;
    }
    throw InputError(workload_.name(), msg.str());
}

}  // namespace agx
