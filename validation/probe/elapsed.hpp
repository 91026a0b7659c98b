// Which clock a dispatch's time comes from: the stage-boundary counters when
// they hold real timestamps, else the command buffer's GPU start and end.
#pragma once

#include <string>

#include "validation/probe/backend.hpp"

namespace agx::probe {

struct Elapsed {
    double seconds = 0;
    const char* source = "";  // "counters" or "command_buffer"
};

// Counters count when both samples are set, non-zero (recent macOS returns
// zeros), not the error value (all ones), increasing, and a tick length is
// known. Throws BackendError if neither clock gives a positive time.
Elapsed elapsed(const DispatchTiming& t);

}  // namespace agx::probe
