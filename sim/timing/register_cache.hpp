// A scheduler's operand reuse cache in front of the register file.
//
// apple-gpu-core.md ("Dispatch and the register cache"): operand fetch, not ALU
// count, is the usual bottleneck at low occupancy or ILP, and the compiler
// marks each source `cache` (keep it) or `discard` (drop it after this read).
// This first model: a small fully associative cache of 32-bit registers tagged
// by (simd, register), LRU replacement; sources that miss are read from the
// register file, `file_read_ports` 32-bit reads per cycle (a 16-bit operand
// costs half a read); results are written into the cache. The issue that
// calibrates the core refines the mechanism; its place in the structure is here.
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

    // Looks up the instruction's register sources for `simd`, updates the
    // cache, and returns the extra cycles the register-file reads take beyond
    // the issue cycle (0 when the reads fit in one cycle).
    std::uint32_t fetch_operands(std::uint32_t simd, const Instruction& inst);

    // Drops every entry of a simd that has finished.
    void evict_simd(std::uint32_t simd);

    std::uint64_t hits() const { return hits_; }
    std::uint64_t misses() const { return misses_; }
    std::uint64_t file_read_halves() const { return file_read_halves_; }

private:
    struct Entry {
        std::uint32_t simd = 0;
        std::uint16_t reg = 0;  // 32-bit register number (half index / 2)
        bool valid = false;
        std::uint64_t last_use = 0;
    };
    Entry* find(std::uint32_t simd, std::uint16_t reg);
    void insert(std::uint32_t simd, std::uint16_t reg);

    std::vector<Entry> entries_;
    VictimPicker victims_;
    std::uint32_t read_halves_per_cycle_;
    std::uint64_t tick_ = 0;
    std::uint64_t hits_ = 0, misses_ = 0, file_read_halves_ = 0;
};

}  // namespace agx
