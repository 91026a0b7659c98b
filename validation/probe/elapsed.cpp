#include "validation/probe/elapsed.hpp"

#include <limits>

namespace agx::probe {

Elapsed elapsed(const DispatchTiming& t) {
    constexpr auto kError = std::numeric_limits<std::uint64_t>::max();  // MTLCounterErrorValue
    const bool counters = t.seconds_per_tick > 0 && t.counter_start != 0 && t.counter_end != 0 &&
                          t.counter_start != kError && t.counter_end != kError &&
                          t.counter_end > t.counter_start;
    if (counters)
        return {static_cast<double>(t.counter_end - t.counter_start) * t.seconds_per_tick,
                "counters"};
    if (t.gpu_end > t.gpu_start && t.gpu_start > 0)
        return {t.gpu_end - t.gpu_start, "command_buffer"};
    throw BackendError("the dispatch has no usable time: counter samples " +
                       std::to_string(t.counter_start) + ".." + std::to_string(t.counter_end) +
                       ", GPUStartTime " + std::to_string(t.gpu_start) + ", GPUEndTime " +
                       std::to_string(t.gpu_end));
}

}  // namespace agx::probe
