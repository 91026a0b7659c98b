// Writing traces: the structure of a trace as a sequence of calls, which a
// text or a binary writer turns into a file, and the sources that produce
// those calls (a trace file of either format, or any Workload).
#pragma once

#include <cstdint>
#include <memory>
#include <ostream>
#include <string>

#include "sim/trace/workload.hpp"

namespace agx {

// Receives a trace in file order: begin(), then for each section
// begin_section(), its instructions and repeat blocks, end_section(); then
// finish(). Writers throw std::invalid_argument when called out of that
// order or with what the format cannot hold.
class TraceWriter {
  public:
    virtual ~TraceWriter() = default;
    // `kernel_name` may be empty (no `kernel` line).
    virtual void begin(const Launch& launch, const std::string& kernel_name) = 0;
    // Global simd indices, inclusive: every simd of the range runs the section.
    virtual void begin_section(std::uint32_t first_simd, std::uint32_t last_simd) = 0;
    // An instruction line. The text format does not store `pc` and
    // `source_line` (a reader computes them); the binary format stores both.
    virtual void instruction(const Instruction& in) = 0;
    virtual void begin_repeat(std::uint32_t count) = 0;  // count >= 1
    virtual void end_repeat() = 0;
    virtual void end_section() = 0;
    // Completes the file and flushes the stream.
    virtual void finish() = 0;
};

// What both writers' begin() do first: an empty name (none) or one that
// kernel_name_problem() accepts, else an InputError naming the name.
void check_kernel_name(const std::string& kernel_name);

// Text format v1 (traces/FORMAT.md).
std::unique_ptr<TraceWriter> make_text_trace_writer(std::ostream& out);
// Binary format v2 (traces/FORMAT.md, "Binary trace format"). Needs only
// one chunk of memory plus 24 bytes per chunk written; `out` must be at its
// start (offsets in the file count from the writer's first byte).
std::unique_ptr<TraceWriter> make_binary_trace_writer(std::ostream& out);

// Replays a trace file of either format (told by its first byte) into
// `out`, keeping its sections and repeat blocks, sections in order of their
// first simd. The whole file is checked first; throws InputError as
// open_trace() does. Calls out.finish().
void replay_trace(const std::string& path, TraceWriter& out);

// Writes any workload: consecutive simds whose streams are identical share
// one section; every stream is written out flat (a Workload has no repeat
// blocks to keep). Reads each stream up to twice, in bounded memory.
// Calls out.finish().
void write_workload(Workload& workload, const std::string& kernel_name, TraceWriter& out);

// Whether two instructions are the same, field by field (operands up to
// their counts, an immediate by its bits only, the memory access, pc, and
// source_line if `compare_lines`).
bool same_instruction(const Instruction& a, const Instruction& b, bool compare_lines = true);

}  // namespace agx
