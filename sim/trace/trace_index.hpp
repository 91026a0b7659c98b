// The indexing pass over a text trace: one read of the whole file at open
// time that checks its structure and every instruction line, and keeps only
// the launch and one small record per `simd` section. Memory use depends on
// the number of sections, never on the number of instructions.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/trace/trace_line_reader.hpp"
#include "sim/trace/workload.hpp"

namespace agx::trace_detail {

inline constexpr unsigned kTraceVersion = 1;
inline constexpr unsigned kMaxRepeatNesting = 32;

struct SectionIndex {
    std::uint32_t first_simd = 0;  // global simd indices, inclusive
    std::uint32_t last_simd = 0;
    std::uint64_t body_offset = 0;  // file offset of the line after the `simd` line
    std::uint32_t body_line = 0;    // and its line number
    std::uint32_t header_line = 0;
};

// A `buffer base=... size=...` line: device memory the kernel may access.
struct BufferRange {
    std::uint64_t base = 0;
    std::uint64_t size = 0;
    std::uint32_t line = 0;
};

struct TraceIndex {
    Launch launch;
    std::string kernel_name;
    // When any are declared, every device access must lie inside one of them.
    std::vector<BufferRange> buffers;
    std::vector<SectionIndex> sections;  // sorted by first_simd, covering every simd once

    const SectionIndex* find(std::uint32_t global_simd) const;
};

// Throws InputError ("<path>:<line>: reason") on the first problem found.
TraceIndex index_trace(const std::shared_ptr<const TraceFile>& file);

}  // namespace agx::trace_detail
