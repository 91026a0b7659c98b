// A scheduler's operand reuse cache in front of the register file.
//
// apple-gpu-core.md ("Dispatch and the register cache"): operand fetch, not ALU
// count, is the usual bottleneck at low occupancy or ILP, and the compiler
// marks each source `cache` (keep it) or `discard` (drop it after this read).
// The model: a small fully associative cache of 32-bit registers tagged by
// (simd, register), replacement from the config; sources that miss are read
// from the register file through `file_read_ports` 32-bit ports (a 16-bit
// operand takes half a port-cycle); results are written into the cache. The
// ports work as a queue: an instruction may issue while at most one cycle of
// reads is still queued ahead of it (the operand collector holds one
// instruction), and its result is late by however long its own reads wait.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/config/machine_config.hpp"
#include "sim/timing/replacement.hpp"
#include "sim/trace/instruction.hpp"

namespace agx {

class RegisterCache {
  public:
    explicit RegisterCache(const RegisterCacheConfig& cfg);

    // The first cycle at which the read ports can take another instruction.
    std::uint64_t ports_free_at() const { return ports_free_at_; }
    // Looks up the instruction's register sources for `simd`, issued at
    // `now`, queues its misses on the read ports, updates the cache, and
    // returns how many cycles late its operands are (0 when its reads finish
    // within the issue cycle).
    std::uint32_t fetch_operands(std::uint32_t simd, const Instruction& inst, std::uint64_t now);

    // Drops every entry of a simd that has finished.
    void evict_simd(std::uint32_t simd);

    std::uint64_t hits() const { return hits_; }
    std::uint64_t misses() const { return misses_; }
    std::uint64_t file_read_halves() const { return file_read_halves_; }

  private:
    // Entries as packed keys (simd << 8 | register) with their stamps in a
    // parallel array (0: empty); LRU stamps on every use, FIFO on fills. A
    // lookup, a handful per instruction, scans a few contiguous words and
    // finds the victim on the way.
    static constexpr std::uint32_t kEmpty = 0xffffffffu;
    static std::uint32_t key(std::uint32_t simd, std::uint16_t reg) { return simd << 8 | reg; }
    int find(std::uint32_t k, std::uint32_t& victim) const;
    void fill(std::uint32_t victim, std::uint32_t k);

    std::vector<std::uint32_t> keys_;
    std::vector<std::uint64_t> stamps_;
    std::uint64_t tick_ = 0;
    VictimPicker victims_;
    std::uint32_t read_halves_per_cycle_;
    std::uint64_t ports_busy_until_ = 0;  // in half-register reads: cycle x read_halves_per_cycle_
    std::uint64_t ports_free_at_ = 0;     // in cycles, from ports_busy_until_
    std::uint64_t hits_ = 0, misses_ = 0, file_read_halves_ = 0;
};

}  // namespace agx
