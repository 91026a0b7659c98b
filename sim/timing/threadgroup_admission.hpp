// Which threadgroups a core holds and where their simds run.
//
// The dispatcher hands a core at most one threadgroup per cycle, so that the
// first threadgroups of a launch spread over all cores (an assumption; Apple
// does not document the distribution). A threadgroup takes a free threadgroup
// slot (the residency says how many a core holds) and each of its simds a free
// simd slot; simd slot id runs on scheduler id mod schedulers, so the slot
// chosen is the simd's scheduler (core.simd_placement).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "sim/config/machine_config.hpp"
#include "sim/timing/occupancy.hpp"
#include "sim/timing/threadgroup_source.hpp"

namespace agx {

class ThreadgroupAdmission {
  public:
    // A resident threadgroup, and its simds' progress to a barrier.
    struct Group {
        bool active = false;
        std::uint32_t threadgroup = 0;
        std::uint32_t live_simds = 0;      // simds not yet retired
        std::uint32_t at_barrier = 0;      // live simds waiting at the barrier
        std::vector<std::uint32_t> simds;  // simd slot of each simd, by index in the group
    };

    ThreadgroupAdmission(const CoreConfig& cfg, const Residency& residency,
                         ThreadgroupSource& source);

    // A new cycle: admission may take one threadgroup in it.
    void new_cycle() { admitted_this_cycle_ = false; }
    // Whether a threadgroup slot may be free for the source's next one.
    bool pending() const { return pending_; }
    bool admitted_this_cycle() const { return admitted_this_cycle_; }
    // The source's next threadgroup, placed in a free threadgroup slot with
    // its simds on free simd slots; returns that threadgroup slot, or nothing
    // (no room, one already admitted this cycle, or no threadgroup left).
    std::optional<std::uint32_t> admit(Cycle now);

    Group& group(std::uint32_t slot) { return groups_[slot]; }
    const Group& group(std::uint32_t slot) const { return groups_[slot]; }
    // Simd slot `id` is free again (its simd retired).
    void release_simd(std::uint32_t id) { simd_taken_[id] = false; }
    // The threadgroup in `slot` has no live simd left at `now`: its slot is free.
    void finish(std::uint32_t slot, Cycle now);

    std::uint64_t threadgroups_done() const { return done_; }
    // No threadgroup resident and none left to admit.
    bool drained() const { return live_ == 0 && source_.exhausted(); }
    bool source_exhausted() const { return source_.exhausted(); }

  private:
    // A free simd slot for a new threadgroup's simd, wanted on scheduler `wanted`.
    std::uint32_t free_simd_slot(std::uint32_t wanted) const;

    std::uint32_t schedulers_;
    std::uint32_t simds_per_threadgroup_;
    bool rotate_;  // core.simd_placement is rotate
    ThreadgroupSource& source_;
    std::vector<Group> groups_;
    std::vector<bool> simd_taken_;  // by simd slot
    std::uint32_t admitted_ = 0;    // threadgroups admitted so far (placement's rotation)
    std::uint32_t live_ = 0;
    std::uint64_t done_ = 0;
    bool pending_ = true;
    bool admitted_this_cycle_ = false;
};

}  // namespace agx
