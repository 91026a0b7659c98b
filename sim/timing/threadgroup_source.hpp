// Hands out a launch's threadgroups to the cores in launch order, as the GPU's
// dispatcher does: a core takes the next one whenever it has room for it. A
// sampled run (ThreadgroupSampler) skips ranges of them.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>

#include "sim/common/cycle.hpp"
#include "sim/timing/threadgroup_sampler.hpp"

namespace agx {

class ThreadgroupSource {
  public:
    explicit ThreadgroupSource(std::uint32_t count) : count_(count) {}

    // From now on the sampler chooses which threadgroups the cores run.
    void sample_with(std::unique_ptr<ThreadgroupSampler> sampler) { sampler_ = std::move(sampler); }
    const ThreadgroupSampler* sampler() const { return sampler_.get(); }

    // The threadgroup a core takes at `now`, or nothing when none is left.
    std::optional<std::uint32_t> next(Cycle now) {
        if (next_ >= count_) return std::nullopt;
        if (sampler_) next_ = sampler_->next(next_, now);
        if (next_ >= count_) return std::nullopt;
        return next_++;
    }
    // A core finished `threadgroup` at `now`.
    void finished(std::uint32_t threadgroup, Cycle now) {
        if (sampler_) sampler_->finished(threadgroup, now);
    }
    bool exhausted() const { return next_ >= count_; }

  private:
    std::uint32_t count_;
    std::uint32_t next_ = 0;
    std::unique_ptr<ThreadgroupSampler> sampler_;
};

}  // namespace agx
