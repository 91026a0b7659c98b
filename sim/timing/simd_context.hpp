// Everything a core keeps for one resident simd.
#pragma once

#include <array>
#include <cstdint>
#include <memory>

#include "sim/common/cycle.hpp"
#include "sim/timing/engine_observer.hpp"
#include "sim/timing/forwarding.hpp"
#include "sim/timing/scoreboard.hpp"
#include "sim/timing/stall_cause.hpp"
#include "sim/trace/workload.hpp"

namespace agx {

// Completion times of one wait slot's outstanding requests (at most a few).
struct WaitSlotState {
    static constexpr unsigned kMax = 16;
    std::array<Cycle, kMax> done{};
    std::uint32_t count = 0;

    // Forgets requests complete by `now`; returns how many remain.
    std::uint32_t outstanding(Cycle now) {
        std::uint32_t kept = 0;
        for (std::uint32_t i = 0; i < count; ++i)
            if (done[i] > now) done[kept++] = done[i];
        count = kept;
        return count;
    }
    Cycle all_done() const {
        Cycle t = 0;
        for (std::uint32_t i = 0; i < count; ++i) t = t > done[i] ? t : done[i];
        return t;
    }
    Cycle first_done() const {
        Cycle t = kNever;
        for (std::uint32_t i = 0; i < count; ++i) t = t < done[i] ? t : done[i];
        return t;
    }
    void add(Cycle when) {
        if (count < kMax) done[count++] = when;
    }
};

struct SimdContext {
    bool active = false;
    std::uint32_t group_slot = 0;   // index of its resident threadgroup
    std::uint32_t threadgroup = 0;  // launch index
    std::uint32_t simd_in_group = 0;
    std::uint32_t scheduler = 0;
    std::uint32_t sched_slot = 0;  // its place among its scheduler's simds: id / schedulers
    std::unique_ptr<InstructionStream> stream;
    const Instruction* head = nullptr;

    std::uint64_t fetched_line = ~0ull;  // I-cache line of the last fetch
    Cycle fetch_ready = 0;
    Cycle last_result = 0;  // when its last result is written
    // Its operand collector holds one instruction until the register file
    // has delivered that instruction's missed operands: none issues before.
    Cycle collector_free = 0;
    ForwardingState forwarding;  // its side of result forwarding's bookkeeping
    bool at_barrier = false;
    // With an EngineObserver: the barrier it last issued, where its barrier
    // wait is charged.
    InstructionKey barrier_at;
    bool complex_head = false;  // the head is an integer/complex instruction
    // When the head's pipe frees up for this simd's scheduler: the head's
    // PipeState entry, found when the head is loaded, as evaluations read it
    // (opcode, unit, pipe, scheduler: a chain of loads every time otherwise).
    const Cycle* pipe_free_at = nullptr;

    // A lower bound on the first cycle the head can issue, and why it waits.
    Cycle earliest = 0;
    StallCause cause = StallCause::NoSimd;
    // With an EngineObserver: the cycle from which the head's wait is not
    // yet reported.
    Cycle wait_since = 0;
    // The part of that bound only the simd's own issue can move (its
    // instruction fetch, its registers), with its cause: worked out by the
    // head's first evaluation and kept until the next head.
    bool own_bound_known = false;
    StallCause own_cause = StallCause::NoSimd;
    Cycle own_bound = 0;

    // Large, and read per operand: after the fields every evaluation reads,
    // so those share the first cache lines.
    std::array<WaitSlotState, 2> slots;
    Scoreboard scoreboard;
};

}  // namespace agx
