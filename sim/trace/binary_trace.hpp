// The binary trace format, version 2 (traces/FORMAT.md, "Binary trace
// format"): the text format's structure (launch, sections, repeat blocks) as
// compact records in independently compressed zstd chunks.
#pragma once

#include <memory>
#include <string>

#include "sim/trace/workload.hpp"

namespace agx {

// Opens and checks a binary trace: its header, index and every chunk's
// checksum and records are checked now, so a bad file fails before
// simulation starts. Streams then decode their section lazily, chunk by
// chunk, from a cache the streams share, so memory does not grow with the
// trace's length. Throws InputError("<path>: reason"); name() is the path.
std::unique_ptr<Workload> open_binary_trace(const std::string& path);

}  // namespace agx
