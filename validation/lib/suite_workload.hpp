// A benchmark definition as a workload: the simulator runs the suite without
// any trace file. Every simd runs the same unrolled kernel (repetitions x
// body, in `ilp` interleaved chains); only one repetition's instructions are
// held, so memory does not grow with the repetitions.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "sim/config/machine_config.hpp"
#include "sim/trace/workload.hpp"
#include "validation/lib/benchmark.hpp"

namespace agx::validation {

class RegisterAllocator;

class SuiteWorkload : public Workload {
  public:
    // Throws InputError if the kernel cannot be laid out on `core` (more
    // registers than `simds_per_core` simds leave room for).
    SuiteWorkload(const BenchmarkDefinition& def, const CoreConfig& core,
                  std::uint32_t repetitions);

    const Launch& launch() const override { return launch_; }
    std::string name() const override { return name_; }
    std::unique_ptr<InstructionStream> open(std::uint32_t threadgroup,
                                            std::uint32_t simd_in_group) override;

    // One repetition: the body for every chain, in issue order.
    const std::vector<Instruction>& repetition() const { return rep_; }
    std::uint32_t repetitions() const { return repetitions_; }
    // Repetitions per copy of the code (the loop body's unroll).
    std::uint32_t unroll() const { return unroll_; }
    // Resident simds per core the kernel runs at (see the constructor).
    std::uint32_t simds_per_core() const { return simds_; }
    std::uint32_t repetition_bytes() const { return rep_bytes_; }

  private:
    void build_chains(const BenchmarkDefinition& def, RegisterAllocator& alloc);
    void build_vec4_groups(const BenchmarkDefinition& def, RegisterAllocator& alloc);
    void place(const BenchmarkDefinition& def, const CoreConfig& core,
               const RegisterAllocator& alloc);

    std::string name_;
    Launch launch_;
    std::vector<Instruction> rep_;
    std::uint32_t repetitions_;
    std::uint32_t unroll_;
    std::uint32_t rep_bytes_ = 0;
    std::uint32_t simds_ = 0;
};

}  // namespace agx::validation
