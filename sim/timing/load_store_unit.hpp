// The load/store unit's address path: coalesces a simd's lane addresses into
// cache lines and sends one request per line to the L1 data cache.
//
// apple-gpu-core.md: 128-byte L1 lines, 64 bytes per core-cycle on the core's
// data path, so each line moved occupies the unit for line/64 cycles.
#pragma once

#include <cstdint>

#include "sim/config/machine_config.hpp"
#include "sim/timing/memory_port.hpp"
#include "sim/trace/instruction.hpp"

namespace agx {

struct MemoryIssue {
    Cycle complete = 0;         // last line back
    std::uint32_t lines = 0;    // distinct lines touched
    std::uint32_t busy_cycles = 0;  // data-path cycles the lines occupy
};

class LoadStoreUnit {
public:
    LoadStoreUnit(const CoreConfig& core, MemoryPort& l1);

    MemoryIssue issue(const Instruction& inst, bool write, Cycle now);

    std::uint64_t requests() const { return requests_; }
    std::uint64_t lines() const { return lines_; }
    std::uint64_t bytes() const { return bytes_; }

private:
    MemoryPort& l1_;
    std::uint32_t line_bytes_;
    std::uint32_t cycles_per_line_;
    std::uint64_t requests_ = 0, lines_ = 0, bytes_ = 0;
};

}  // namespace agx
