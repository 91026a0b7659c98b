// The load/store unit's address path: coalesces a simd's lane addresses into
// cache lines and sends one request per line to the L1 data cache.
//
// Lanes move 1 to 16 bytes each (size= in traces), only the active ones (the
// mask). A lane access must be aligned to its size's natural alignment (the
// largest power of two dividing it); a misaligned one is a MemoryFault. An
// aligned power-of-two access never straddles a 128-byte line; a 6- or
// 12-byte one may, and is split into its two lines.
//
// metal-benchmarks: 128-byte L1 lines, 64 bytes per core-cycle on the core's
// data path. The path is the core's (shared by its schedulers): each line
// occupies it for ceil(bytes the lanes take from it / 64) cycles, and a miss
// that finds the L1's MSHRs full holds the path until one frees, so later
// requests of every scheduler wait (stall cause lsu_queue).
//
// Atomics: lanes on the same address serialise, one read-modify-write per
// cycle at the level that performs them (assumption: not measured).
#pragma once

#include <cstdint>

#include "sim/config/machine_config.hpp"
#include "sim/timing/memory_port.hpp"
#include "sim/trace/instruction.hpp"

namespace agx {

enum class AccessKind : std::uint8_t { Load, Store, Atomic };

struct MemoryIssue {
    Cycle complete = 0;             // last line back
    std::uint32_t lines = 0;        // distinct lines touched
    std::uint32_t busy_cycles = 0;  // data-path cycles the lines occupy
};

class LoadStoreUnit {
  public:
    LoadStoreUnit(const CoreConfig& core, MemoryPort& l1);

    // The instruction reaches the unit at `arrival`. Throws MemoryFault.
    MemoryIssue issue(const Instruction& inst, AccessKind kind, Cycle arrival);
    MemoryIssue issue(const Instruction& inst, bool write, Cycle arrival) {
        return issue(inst, write ? AccessKind::Store : AccessKind::Load, arrival);
    }
    // The first cycle a new instruction's first line can enter the data path.
    Cycle accept_at() const { return path_free_; }

    std::uint64_t requests() const { return requests_; }
    std::uint64_t lines() const { return lines_; }
    std::uint64_t bytes() const { return bytes_; }       // bytes the lanes moved
    std::uint64_t busy_cycles() const { return busy_; }  // data-path cycles
    std::uint64_t mshr_wait_cycles() const { return mshr_wait_; }
    const MemoryPort& l1() const { return l1_; }

  private:
    struct LineUse {
        std::uint64_t line;
        std::uint32_t bytes;  // bytes the lanes take from it (distinct addresses)
    };
    // Fills `out` with the lines in first-touch order; returns their count.
    std::uint32_t coalesce(const Instruction& inst, bool atomic, LineUse* out,
                           std::uint32_t& atomic_depth) const;
    std::uint32_t coalesce_lanes(const Instruction& inst, bool atomic, LineUse* out,
                                 std::uint32_t& atomic_depth) const;

    MemoryPort& l1_;
    std::uint32_t line_bytes_;
    std::uint32_t path_bytes_;  // per cycle
    Cycle path_free_ = 0;
    std::uint64_t requests_ = 0, lines_ = 0, bytes_ = 0, busy_ = 0, mshr_wait_ = 0;
};

}  // namespace agx
