// Why a scheduler did not issue in a cycle. Every scheduler-cycle is either an
// issue or exactly one of these, so the breakdown adds up to the run's cycles.
// The list below is the only one: names, meanings, the stats JSON, the
// README's and docs/statistics.md's lists all come from it
// (tests/unit/test_stall_causes.cpp checks the docs).
#pragma once

#include <array>
#include <cstdint>

namespace agx {

enum class StallCause : std::uint8_t {
    NoSimd,
    InstructionFetch,
    Dependency,
    PipeBusy,
    Dispatch,
    SfuBusy,
    RegisterCacheMiss,
    WaitSlot,
    LsuQueue,
    ThreadgroupBank,
    Barrier,
    Count
};

inline constexpr std::size_t kStallCauseCount = static_cast<std::size_t>(StallCause::Count);

struct StallCauseInfo {
    const char* name;     // as in the stats JSON and `agxsim run`'s summary
    const char* meaning;  // one line: what the waiting simd waits for
};

inline const StallCauseInfo& stall_cause_info(StallCause c) {
    static constexpr std::array<StallCauseInfo, kStallCauseCount> kInfo = {{
        {"no_simd", "no resident simd has work on this scheduler (launch, tail, idle scheduler)"},
        {"instruction_fetch", "the next instruction's line is being filled into the I-cache"},
        {"dependency", "a source or destination register is not yet written (scoreboard)"},
        {"pipe_busy", "the instruction's pipeline is still within its issue interval"},
        {"dispatch", "the scheduler's issue port is held by a multi-cycle dispatch"},
        {"sfu_busy", "the core's shared special-function lanes are occupied"},
        {"register_cache_miss",
         "operands that missed the register cache are still being read from the register file"},
        {"wait_slot", "a `wait` for outstanding memory requests, or a full wait slot"},
        {"lsu_queue",
         "a device-memory access waits for the load/store unit's data path or the L1's MSHRs"},
        {"threadgroup_bank",
         "a threadgroup-memory access waits for the banks serving another access"},
        {"barrier", "waiting for the rest of the threadgroup at a barrier"},
    }};
    return kInfo[static_cast<std::size_t>(c)];
}

inline const char* stall_cause_name(StallCause c) {
    return stall_cause_info(c).name;
}

// Not a stall cause: the bucket a profile's simd waits (never a scheduler's
// stall) use for a simd passed over (EngineObserver, kNotSelected).
inline constexpr StallCauseInfo kNotSelectedInfo = {
    "not_selected",
    "(a profile's simd waits only, never a scheduler's stall) the simd could issue, or had not "
    "yet been looked at, while its scheduler issued another simd's instruction"};

}  // namespace agx
