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

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/common/cycle.hpp"
#include "sim/common/divisor.hpp"
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
    std::uint32_t banks() const { return static_cast<std::uint32_t>(banks_.value()); }
    std::uint32_t bank_bytes() const { return static_cast<std::uint32_t>(bank_bytes_.value()); }

  private:
    static constexpr unsigned kSeenBits = 10;  // 1024 slots for at most 32 x 16 words
    static constexpr std::size_t kSeenSlots = std::size_t{1} << kSeenBits;

    // Whether `word` is new to the access under way (then it is recorded).
    bool first_sight(std::uint64_t word) const;

    // Word w lies in bank w mod banks (shifts and masks for powers of two).
    Divisor banks_;
    Divisor bank_bytes_;
    // Scratch of passes(), which leaves it as it found it: words per bank
    // (all zero between accesses), and the set of words seen, whose slots
    // count as taken only under the access's own stamp.
    mutable std::vector<std::uint32_t> bank_count_;
    mutable std::array<std::uint64_t, kSeenSlots> seen_word_;
    mutable std::array<std::uint32_t, kSeenSlots> seen_stamp_;
    mutable std::uint32_t stamp_ = 0;
    Cycle free_at_ = 0;
    std::uint64_t accesses_ = 0, passes_ = 0;
};

}  // namespace agx
