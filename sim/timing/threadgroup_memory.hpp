// Threadgroup memory: fixed latency (the timing class's), banks, and the bank
// conflicts of one simd's access.
//
// The memory is `banks` banks of `bank_bytes` each, word w in bank w mod
// banks. An access takes one pass per distinct word that its lanes need from
// the busiest bank: lanes reading the same word share it (broadcast), lanes
// reading different words of one bank serialise. Atomics serialise every lane
// on the same word too (each is a read-modify-write). The banks belong to the
// core, so one access at a time uses them (assumption: no public source
// gives a banking or port count).
#pragma once

#include <cstdint>

#include "sim/common/cycle.hpp"
#include "sim/trace/instruction.hpp"

namespace agx {

class ThreadgroupMemory {
  public:
    ThreadgroupMemory(std::uint32_t banks, std::uint32_t bank_bytes);

    // Passes through the banks that an access needs (1: conflict-free).
    // Throws MemoryFault on a misaligned lane address.
    std::uint32_t passes(const Instruction& in, bool atomic) const;
    // The first cycle the banks can start another access.
    Cycle free_at() const { return free_at_; }
    // Starts an access at `now` (or when the banks free up); returns the cycle
    // its last pass is done. Add the class latency for load-to-use.
    Cycle access(const Instruction& in, bool atomic, Cycle now);

    std::uint64_t accesses() const { return accesses_; }
    std::uint64_t passes_total() const { return passes_; }
    std::uint64_t conflict_cycles() const { return passes_ - accesses_; }
    std::uint32_t banks() const { return banks_; }
    std::uint32_t bank_bytes() const { return bank_bytes_; }

  private:
    std::uint32_t banks_;
    std::uint32_t bank_bytes_;
    Cycle free_at_ = 0;
    std::uint64_t accesses_ = 0, passes_ = 0;
};

}  // namespace agx
