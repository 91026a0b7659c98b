// The text trace format, version 1 (traces/FORMAT.md).
#pragma once

#include <memory>
#include <string>

#include "sim/trace/workload.hpp"

namespace agx {

// Opens and checks a text trace: one pass over the file validates its
// structure and every instruction line, and records where each `simd`
// section starts. Instruction streams then re-read their section lazily, so
// memory does not grow with the trace's length. Throws InputError with
// "<path>:<line>: reason" (or "<path>: reason" if the file cannot be read).
// name() is the path.
std::unique_ptr<Workload> open_text_trace(const std::string& path);

}  // namespace agx
