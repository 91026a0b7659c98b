// Which ready simd a scheduler picks: the scheduler scans its simds in a
// circle, in the order of their slots (simd id / schedulers), starting where
// the policy says, and issues from the first ready one.
// Policies are chosen by name in the config (core.scheduler_policy).
#pragma once

#include <cstddef>
#include <memory>
#include <string>

namespace agx {

class IssuePolicy {
  public:
    virtual ~IssuePolicy() = default;
    // Where the next scan starts, given the slot of the simd that issued last.
    virtual std::size_t next_start(std::size_t last_issued) const = 0;
};

// Greedy-then-lowest-slot: stay on the simd that issued while it is ready, so a
// simd with independent work issues it back to back (and reuses its operands
// in the register cache).
class GreedyPolicy : public IssuePolicy {
  public:
    std::size_t next_start(std::size_t last_issued) const override { return last_issued; }
};

// Loose round robin: the simd after the one that issued goes first.
class RoundRobinPolicy : public IssuePolicy {
  public:
    std::size_t next_start(std::size_t last_issued) const override { return last_issued + 1; }
};

inline std::unique_ptr<IssuePolicy> make_issue_policy(const std::string& name) {
    if (name == "round_robin") return std::make_unique<RoundRobinPolicy>();
    return std::make_unique<GreedyPolicy>();  // "greedy"; configs are validated before
}

}  // namespace agx
