#include "sim/timing/threadgroup_admission.hpp"

#include <algorithm>

namespace agx {

ThreadgroupAdmission::ThreadgroupAdmission(const CoreConfig& cfg, const Residency& residency,
                                           ThreadgroupSource& source)
    : schedulers_(std::max(1u, cfg.schedulers)),
      simds_per_threadgroup_(residency.simds_per_threadgroup),
      rotate_(cfg.simd_placement == SimdPlacement::Rotate),
      source_(source),
      groups_(residency.threadgroups_per_core),
      simd_taken_(cfg.max_resident_simds, false) {
    for (Group& g : groups_) g.simds.reserve(simds_per_threadgroup_);
}

std::optional<std::uint32_t> ThreadgroupAdmission::admit(Cycle now) {
    pending_ = false;
    std::optional<std::uint32_t> admitted;
    for (std::uint32_t slot = 0; slot < groups_.size(); ++slot) {
        Group& g = groups_[slot];
        if (g.active) continue;
        if (admitted_this_cycle_) {  // room for more: come back next cycle
            pending_ = true;
            break;
        }
        const auto tg = source_.next(now);
        if (!tg) break;
        admitted_this_cycle_ = true;
        admitted = slot;
        g.active = true;
        g.threadgroup = *tg;
        g.at_barrier = 0;
        g.simds.clear();
        ++live_;
        const std::uint32_t first_scheduler = admitted_++ % schedulers_;
        for (std::uint32_t i = 0; i < simds_per_threadgroup_; ++i) {
            const std::uint32_t id = free_simd_slot((first_scheduler + i) % schedulers_);
            simd_taken_[id] = true;
            g.simds.push_back(id);
        }
        g.live_simds = static_cast<std::uint32_t>(g.simds.size());
    }
    return admitted;
}

// "fill": the lowest free slot, so a threadgroup's simds go round the
// schedulers from wherever the last one stopped. "rotate": the lowest free
// slot on scheduler `wanted` (the threadgroup's first scheduler plus the
// simd's index), else, when that scheduler is full, the lowest free slot.
// Apple does not document the mapping; configs/README.md says why the
// configs rotate.
std::uint32_t ThreadgroupAdmission::free_simd_slot(std::uint32_t wanted) const {
    if (rotate_)
        for (std::uint32_t id = wanted; id < simd_taken_.size(); id += schedulers_)
            if (!simd_taken_[id]) return id;
    std::uint32_t id = 0;
    while (simd_taken_[id]) ++id;
    return id;
}

void ThreadgroupAdmission::finish(std::uint32_t slot, Cycle now) {
    groups_[slot].active = false;
    --live_;
    source_.finished(groups_[slot].threadgroup, now);
    ++done_;
    pending_ = true;
}

}  // namespace agx
