// Hands out a launch's threadgroups to the cores in launch order, as the GPU's
// dispatcher does: a core takes the next one whenever it has room for it.
#pragma once

#include <cstdint>
#include <optional>

namespace agx {

class ThreadgroupSource {
  public:
    explicit ThreadgroupSource(std::uint32_t count) : count_(count) {}
    std::optional<std::uint32_t> next() {
        if (next_ >= count_) return std::nullopt;
        return next_++;
    }
    bool exhausted() const { return next_ >= count_; }

  private:
    std::uint32_t count_;
    std::uint32_t next_ = 0;
};

}  // namespace agx
