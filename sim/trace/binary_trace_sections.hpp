// Writes a binary trace (traces/FORMAT.md, "Binary trace format") whose
// sections may be open at once, their records interleaved as they arrive.
//
// Each open section collects its records into a chunk of its own; a full
// chunk is compressed and written to the stream at once, and only its entry
// (offset, sizes, checksum) is kept. The format lets a section's chunks lie
// anywhere before the index: the chunk table lists each section's chunks
// together, and finish() writes it section by section. Memory is therefore
// one chunk (at most kChunkBytes) per open section plus 20 bytes per chunk
// written, whatever the length of the streams: `kernel record` writes each
// running simd's stream as it executes.
//
// The sequential TraceWriter of make_binary_trace_writer() is this writer
// with one section open at a time.
#pragma once

#include <cstdint>
#include <memory>
#include <ostream>
#include <string>

#include "sim/trace/workload.hpp"

namespace agx {

class BinarySectionsWriter {
  public:
    explicit BinarySectionsWriter(std::ostream& out);
    ~BinarySectionsWriter();
    BinarySectionsWriter(const BinarySectionsWriter&) = delete;
    BinarySectionsWriter& operator=(const BinarySectionsWriter&) = delete;

    using Section = std::size_t;  // a handle open_section() returns

    // `kernel_name` may be empty (none). Writes the header.
    void begin(const Launch& launch, const std::string& kernel_name);
    // Global simd indices, inclusive: every simd of the range runs the section.
    Section open_section(std::uint32_t first_simd, std::uint32_t last_simd);
    void instruction(Section s, const Instruction& in);
    void begin_repeat(Section s, std::uint32_t count);  // count >= 1
    void end_repeat(Section s);
    // Writes the section's last chunk; its handle may then be reused by a
    // later open_section().
    void close_section(Section s);
    // Writes the index and footer and flushes the stream. Every section must
    // be closed, and together they must cover each simd of the launch once.
    void finish();

    // Throw std::invalid_argument when called out of order or with what the
    // format cannot hold, as TraceWriter's writers do.

  private:
    struct State;
    std::unique_ptr<State> state_;
};

}  // namespace agx
