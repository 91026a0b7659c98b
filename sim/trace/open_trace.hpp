// Opening a trace of either format, told apart by the file's first byte,
// never by its name.
#pragma once

#include <memory>
#include <string>

#include "sim/trace/workload.hpp"

namespace agx {

enum class TraceFormat { Text, Binary };

// The format of the trace at `path`: binary if its first byte is the binary
// magic's first byte (0x89, which no text trace starts with), else text.
// Throws InputError if the file cannot be opened.
TraceFormat detect_trace_format(const std::string& path);

// open_text_trace() or open_binary_trace(), by detect_trace_format().
std::unique_ptr<Workload> open_trace(const std::string& path);

}  // namespace agx
