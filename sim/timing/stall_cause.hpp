// Why a scheduler did not issue in a cycle. Every scheduler-cycle is either an
// issue or exactly one of these, so the breakdown adds up to the run's cycles.
#pragma once

#include <array>
#include <cstdint>

namespace agx {

enum class StallCause : std::uint8_t {
    NoSimd,            // no resident simd with work on this scheduler
    InstructionFetch,  // the next instruction's line is being filled into the I-cache
    Dependency,        // a source register is not yet written (scoreboard)
    PipeBusy,          // the instruction's pipeline is still within its issue interval
    Dispatch,          // the scheduler's issue port is still busy with a multi-cycle dispatch
    SfuBusy,           // the core-shared special-function units are occupied
    OperandFetch,      // register-cache misses: register-file reads take extra cycles
    WaitSlot,          // `wait` on outstanding memory, or a wait slot is full
    MemoryBusy,  // the load/store unit's data path or the L1's misses in flight (MSHRs) are full,
                 // or threadgroup memory's banks are busy
    Barrier,     // waiting for the rest of the threadgroup at a barrier
    Count
};

inline constexpr std::size_t kStallCauseCount = static_cast<std::size_t>(StallCause::Count);

inline const char* stall_cause_name(StallCause c) {
    static constexpr std::array<const char*, kStallCauseCount> names = {
        "no_simd",  "instruction_fetch", "dependency", "pipe_busy",   "dispatch",
        "sfu_busy", "operand_fetch",     "wait_slot",  "memory_busy", "barrier"};
    return names[static_cast<std::size_t>(c)];
}

}  // namespace agx
