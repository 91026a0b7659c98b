// The memory part of a benchmark definition: what a memory benchmark
// measures and on what region, in the "memory" object of a definition.
//
//   "memory": {"kind": "pointer_chase", "footprint_bytes": 262144, "stride_bytes": 128,
//              "access_bits": 64, "lanes": 1, "cores": 1, "seed": 1}
//
// Kinds and their figures (the definition's `repetitions` counts steps or
// passes; `simds_per_core` the simds per core of a stream; `method` steady
// takes the difference of runs of 2N and N, so cold misses and the launch
// cancel, as in a benchmark that repeats its loop many times):
//
// - pointer_chase: one simd, `lanes` active lanes, each loading the next
//   element of a random cyclic permutation of the footprint's elements
//   (`stride_bytes` apart), its address the previous load's result.
//   Figure memory_latency: cycles per step.
// - threadgroup_chase: the same in threadgroup memory.
// - stream: `simds_per_core` simds on `cores` cores sweep the footprint,
//   `access_bits` per lane, coalesced. Figure bandwidth: GB/s, whole GPU.
// - threadgroup_stream: each simd sweeps threadgroup memory, lanes
//   `stride_bytes` apart (4: conflict-free; 128: every lane in one bank).
//   Figure bandwidth: GB/s of the simulated cores.
// - code_size: `simds_per_core` simds run a loop of FFMA32s in `ilp` chains
//   whose code is `footprint_bytes` long. Figure code_size: FFMA issue rate
//   in percent of the schedulers' peak.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "sim/common/cycle.hpp"
#include "sim/config/machine_config.hpp"

namespace agx::validation {

struct BenchmarkDefinition;

enum class MemoryKind : std::uint8_t {
    PointerChase,
    ThreadgroupChase,
    Stream,
    ThreadgroupStream,
    CodeSize
};
const char* memory_kind_name(MemoryKind k);

struct MemoryBenchmark {
    MemoryKind kind = MemoryKind::PointerChase;
    std::uint64_t footprint_bytes = 0;  // the region (chase, stream) or the code (code_size)
    std::uint32_t stride_bytes = 128;   // chase: element spacing; threadgroup_stream: lane spacing
    std::uint32_t access_bits = 32;     // per lane and access
    std::uint32_t lanes = 1;            // chase: active lanes, each following its own chain
    std::uint32_t cores = 1;            // cores simulated; 0: the chip's
    std::uint64_t seed = 1;             // of the chase's permutation
    bool operator==(const MemoryBenchmark& o) const;
};

nlohmann::json to_json(const MemoryBenchmark& m);
// Throws InputError(where + key, reason).
MemoryBenchmark memory_benchmark_from_json(const nlohmann::json& j, const std::string& where);

// The unit of the kind's figure: "cycles", "GB/s" or "percent".
const char* memory_figure_unit(MemoryKind k);
// FFMA32s in one pass of a code_size loop.
std::uint64_t code_size_instructions(const MemoryBenchmark& m);
// Cores a run simulates.
unsigned memory_cores(const MemoryBenchmark& m, const MachineConfig& cfg);
// The figure of `repetitions` steps or passes that took `cycles`, on `simds`
// simds per core.
double memory_figure(const BenchmarkDefinition& def, const MachineConfig& cfg, Cycle cycles,
                     std::uint32_t repetitions, unsigned simds);

}  // namespace agx::validation
