#include "validation/probe/elapsed.hpp"

#include <algorithm>
#include <cstdio>
#include <limits>

namespace agx::probe {

const char* timing_source_name(TimingSource s) {
    return s == TimingSource::Counters ? "counters" : "command_buffer";
}

CounterTime counter_seconds(const DispatchTiming& t) {
    constexpr auto kError = std::numeric_limits<std::uint64_t>::max();  // MTLCounterErrorValue
    if (!t.counter_error.empty()) return {std::nullopt, t.counter_error};
    if (t.seconds_per_tick <= 0) return {std::nullopt, "no counter samples (no tick length)"};
    if (t.counter_start == 0 || t.counter_end == 0)
        return {std::nullopt, "the counter samples were zero"};
    if (t.counter_start == kError || t.counter_end == kError)
        return {std::nullopt, "a counter sample was the error value (MTLCounterErrorValue)"};
    if (t.counter_end <= t.counter_start)
        return {std::nullopt, "the counter samples were out of order"};
    return {static_cast<double>(t.counter_end - t.counter_start) * t.seconds_per_tick, ""};
}

double command_buffer_seconds(const DispatchTiming& t) {
    if (t.gpu_end > t.gpu_start && t.gpu_start > 0) return t.gpu_end - t.gpu_start;
    throw BackendError("the dispatch has no usable command buffer time: GPUStartTime " +
                       std::to_string(t.gpu_start) + ", GPUEndTime " + std::to_string(t.gpu_end));
}

std::string counter_tolerance_text() {
    char buf[256];
    std::snprintf(buf, sizeof buf,
                  "the counters' time may exceed the command buffer's by at most %.1f%% and fall "
                  "short of it by at most %.0f%% of it or %.0f us, whichever is larger",
                  100 * kCounterExcess, 100 * kCounterGap, kCounterGapSeconds * 1e6);
    return buf;
}

CrossCheck cross_check(const DispatchTiming& t) {
    CrossCheck c;
    c.command_buffer_seconds = command_buffer_seconds(t);
    const CounterTime counters = counter_seconds(t);
    c.counter_seconds = counters.seconds;
    c.problem = counters.problem;
    if (c.counter_seconds) {
        const double cb = c.command_buffer_seconds, pass = *c.counter_seconds;
        c.agree = pass <= cb * (1 + kCounterExcess) &&
                  cb - pass <= std::max(kCounterGap * cb, kCounterGapSeconds);
    }
    return c;
}

std::string describe_disagreement(const CrossCheck& c) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "counters %.4f ms, command buffer %.4f ms",
                  c.counter_seconds.value_or(0) * 1e3, c.command_buffer_seconds * 1e3);
    return buf;
}

double elapsed(const DispatchTiming& t, TimingSource source) {
    if (source == TimingSource::CommandBuffer) return command_buffer_seconds(t);
    const CounterTime c = counter_seconds(t);
    if (!c.seconds) throw BackendError("the dispatch has no counter time: " + c.problem);
    return *c.seconds;
}

Elapsed elapsed(const DispatchTiming& t) {
    if (const CounterTime c = counter_seconds(t); c.seconds) return {*c.seconds, "counters"};
    if (t.gpu_end > t.gpu_start && t.gpu_start > 0)
        return {t.gpu_end - t.gpu_start, "command_buffer"};
    throw BackendError("the dispatch has no usable time: counter samples " +
                       std::to_string(t.counter_start) + ".." + std::to_string(t.counter_end) +
                       ", GPUStartTime " + std::to_string(t.gpu_start) + ", GPUEndTime " +
                       std::to_string(t.gpu_end));
}

}  // namespace agx::probe
