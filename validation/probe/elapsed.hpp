// Which clock a dispatch's time comes from. A run chooses one source for
// every dispatch (the stage-boundary counters when they hold real
// timestamps, else the command buffer's GPU start and end) and records it;
// these functions read either from a dispatch's timing.
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
