// Which clock a dispatch's time comes from. A run chooses one source for
// every dispatch (the stage-boundary counters when they hold real
// timestamps that agree with the command buffer's, else the command
// buffer's GPU start and end) and records it; these functions read either
// from a dispatch's timing and compare the two.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "validation/probe/backend.hpp"

namespace agx::probe {

enum class TimingSource : std::uint8_t { Counters, CommandBuffer };
const char* timing_source_name(TimingSource s);  // "counters", "command_buffer"

// The counters' time when both samples are set, non-zero (recent macOS
// returns zeros), not the error value (all ones), increasing, and a tick
// length is known; otherwise why not.
struct CounterTime {
    std::optional<double> seconds;
    std::string problem;
};
CounterTime counter_seconds(const DispatchTiming& t);

// GPUEndTime - GPUStartTime; throws BackendError when not positive.
double command_buffer_seconds(const DispatchTiming& t);

// The counters are trusted only where they agree with the command buffer.
// The compute pass lies inside its command buffer, so its counter time may
// exceed the command buffer's by no more than kCounterExcess (the two
// clocks' rounding), and the command buffer adds only the pass's launch and
// retirement around it: at most kCounterGap of its time or
// kCounterGapSeconds, whichever is larger. A counter time outside that
// window measures something else than the dispatch (a stale or foreign
// sample, a tick length that is wrong), and the command buffer times it.
constexpr double kCounterExcess = 0.001;
constexpr double kCounterGap = 0.10;
constexpr double kCounterGapSeconds = 100e-6;
// The rule, as the records state it.
std::string counter_tolerance_text();

// One dispatch's two times side by side.
struct CrossCheck {
    double command_buffer_seconds = 0;
    std::optional<double> counter_seconds;  // absent: `problem` says why
    std::string problem;
    bool agree = false;  // both present and within the tolerance
};
// Throws BackendError when the command buffer has no time.
CrossCheck cross_check(const DispatchTiming& t);
// "counters 1.234 ms, command buffer 2.468 ms": the two times of a dispatch
// that disagree, for a reason.
std::string describe_disagreement(const CrossCheck& c);

// The time by `source`; throws BackendError when that source has none.
double elapsed(const DispatchTiming& t, TimingSource source);

struct Elapsed {
    double seconds = 0;
    const char* source = "";  // "counters" or "command_buffer"
};
// The better source this dispatch has: the counters when usable, else the
// command buffer. Throws BackendError if neither gives a positive time.
Elapsed elapsed(const DispatchTiming& t);

}  // namespace agx::probe
