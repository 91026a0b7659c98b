// Which ready simd a scheduler picks: the scheduler scans its simds in a
// circle, in the order of their slots (simd id / schedulers), starting where
// the policy says, and issues from the first ready one.
// The config chooses one (core.scheduler_policy: sim/config/policies.hpp).
#pragma once

#include <cstddef>
#include <memory>
#include <stdexcept>

#include "sim/config/policies.hpp"

namespace agx {

class IssuePolicy {
  public:
    virtual ~IssuePolicy() = default;
    // Where the next scan starts, given the slot of the simd that issued last.
    virtual std::size_t next_start(std::size_t last_issued) const = 0;
    // Whether a ready integer/complex instruction goes before any other
    // whenever its pipe (and the shared SFU) can take it.
    virtual bool complex_first() const { return false; }
};

// Greedy-then-lowest-slot: stay on the simd that issued while it is ready, so a
// simd with independent work issues it back to back (and reuses its operands
// in the register cache).
class GreedyPolicy : public IssuePolicy {
  public:
    std::size_t next_start(std::size_t last_issued) const override { return last_issued; }
};

// Greedy, except that the integer/complex pipe is never left idle while a
// ready instruction for it waits behind another simd's: whenever that pipe
// and the SFUs can take one, the first such instruction in the scan goes
// first. The measurements show that pipe kept busy: every sequence of one
// integer/complex instruction and simple ones that depend on it runs at
// exactly the complex instruction's interval (float_sequences.csv FRACT32,
// EXPE_32, EXP10_32, LOGE_32, LOG10_32 4.00; int_sequences.csv IMADHI16,
// BITREV16, RHADD16 4.00; mixed_int_float.csv FRACT32 + IMUL32 + BITWISE32
// 8.08), which plain greedy issue does not reach (4.5: a simd with simple
// work keeps the turn while the complex pipe idles).
class ComplexFirstPolicy : public GreedyPolicy {
  public:
    bool complex_first() const override { return true; }
};

// Loose round robin: the simd after the one that issued goes first.
class RoundRobinPolicy : public IssuePolicy {
  public:
    std::size_t next_start(std::size_t last_issued) const override { return last_issued + 1; }
};

inline std::unique_ptr<IssuePolicy> make_issue_policy(SchedulerPolicy policy) {
    switch (policy) {
        case SchedulerPolicy::Greedy:
            return std::make_unique<GreedyPolicy>();
        case SchedulerPolicy::ComplexFirst:
            return std::make_unique<ComplexFirstPolicy>();
        case SchedulerPolicy::RoundRobin:
            return std::make_unique<RoundRobinPolicy>();
    }
    throw std::logic_error("an issue policy without a class");  // -Wswitch names the case
}

}  // namespace agx
