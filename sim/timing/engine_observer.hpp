// A hook on a core's engine, attached from outside (RunOptions::observer),
// for tools that want more than the end-of-run counters: the per-instruction
// profile (sim/stats/instruction_profile.hpp). With none attached the engine
// pays one predictable branch per issue and per evaluation.
#pragma once

#include <cstddef>
#include <cstdint>

#include "sim/common/cycle.hpp"
#include "sim/timing/stall_cause.hpp"
#include "sim/trace/instruction.hpp"

namespace agx {

// What one issue did, beyond the instruction itself.
struct IssueRecord {
    const Instruction* instruction = nullptr;
    unsigned core = 0, scheduler = 0;
    Cycle cycle = 0;
    std::uint32_t register_cache_hits = 0, register_cache_misses = 0;  // its source operands
    // Device memory: 128-byte lines its lanes touched, and how many of those
    // requests hit / missed the L1. Threadgroup memory: passes through the
    // banks (1: conflict-free).
    std::uint32_t lines = 0, l1_hits = 0, l1_misses = 0, bank_passes = 0;
};

// Where a simd's wait is charged besides the stall causes: its head was
// ready (or not yet looked at) while its scheduler issued another simd's
// instruction.
inline constexpr std::size_t kNotSelected = kStallCauseCount;
inline constexpr std::size_t kWaitBuckets = kStallCauseCount + 1;

class EngineObserver {
  public:
    virtual ~EngineObserver() = default;
    virtual void issued(const IssueRecord& r) = 0;
    // `cycles` cycles a simd waited with `head` as its next instruction,
    // for the reason `bucket` (a StallCause, or kNotSelected).
    virtual void waited(const Instruction& head, std::size_t bucket, Cycle cycles) = 0;
};

}  // namespace agx
