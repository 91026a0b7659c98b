// A memory benchmark definition as a workload, expanded on the fly (see
// memory_benchmark.hpp for the kinds). Streams generate each instruction when
// the simd reaches it, so memory does not grow with the steps or passes; the
// pointer chase's addresses come from a seeded cyclic permutation.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "sim/config/machine_config.hpp"
#include "sim/trace/workload.hpp"
#include "validation/lib/benchmark.hpp"
#include "validation/lib/cyclic_permutation.hpp"

namespace agx::validation {

// Where device data lives: well away from address 0 and from the code.
inline constexpr std::uint64_t kDataBaseAddress = 0x100000000ull;

class MemoryWorkload : public Workload {
  public:
    // Throws InputError when the definition cannot be laid out (a footprint
    // that does not divide into the simds' slices, too many simds).
    MemoryWorkload(const BenchmarkDefinition& def, const MachineConfig& cfg,
                   std::uint32_t repetitions);

    const Launch& launch() const override { return launch_; }
    std::string name() const override { return def_.name; }
    std::unique_ptr<InstructionStream> open(std::uint32_t threadgroup,
                                            std::uint32_t simd_in_group) override;

    unsigned cores() const { return cores_; }
    unsigned simds_per_core() const { return simds_; }

  private:
    BenchmarkDefinition def_;
    const MemoryBenchmark& mem_;
    std::uint32_t repetitions_;
    unsigned cores_;
    unsigned simds_;
    Launch launch_;
    std::unique_ptr<CyclicPermutation> permutation_;
};

}  // namespace agx::validation
