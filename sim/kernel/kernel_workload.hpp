// A kernel as a Workload: each simd's InstructionStream executes the kernel
// for its 32 lanes and yields every instruction it executes, with its real
// execution mask and per-lane addresses. An instruction's functional effect
// happens when the timing model issues it (InstructionStream::advance), so
// barriers and wait slots order memory as the timing model orders issue.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "sim/kernel/device_memory.hpp"
#include "sim/kernel/kernel_program.hpp"
#include "sim/kernel/simd_state.hpp"
#include "sim/kernel/threadgroup_independence.hpp"
#include "sim/trace/workload.hpp"

namespace agx::kernel {

// Watches the instructions of a kernel run as they issue (attached from
// outside: `agxsim kernel record` writes them as a trace).
class IssueObserver {
  public:
    virtual ~IssueObserver() = default;
    // Simd `global_simd` issued `in` (its mask and addresses as executed).
    virtual void issued(std::uint32_t global_simd, const Instruction& in) = 0;
    // Simd `global_simd` ended (`stop`, or no lane of the grid).
    virtual void finished(std::uint32_t global_simd) = 0;
};

class KernelWorkload : public Workload {
  public:
    // The default for max_instructions: far beyond any kernel meant to end.
    static constexpr std::uint64_t kDefaultMaxInstructions = 10'000'000'000ull;

    // The default for max_simd_instructions: one simd executing 2^20
    // SIMD-instructions (about a millisecond of a real core's time for that
    // simd alone) is taken for a loop that does not end. The timed model
    // issues oldest first, so a kernel's first simds run ahead and trip it
    // in under a second on one m1 core (25 s on all 32 of m1-max's), where
    // the launch-wide limit took tens of minutes; a functional run, whose
    // simds take even turns, after about (simds resident) x 2^20. The
    // library's longest simd, sgemm_tiled's at n = 2048, runs about 39,000
    // (4,898 at n = 256, its k loop 8 times longer).
    static constexpr std::uint64_t kDefaultMaxSimdInstructions = 1ull << 20;

    KernelWorkload(LoadedKernel kernel, std::uint64_t max_instructions = kDefaultMaxInstructions,
                   std::uint64_t max_simd_instructions = kDefaultMaxSimdInstructions);
    ~KernelWorkload() override;

    const Launch& launch() const override { return launch_; }
    std::unique_ptr<InstructionStream> open(std::uint32_t threadgroup,
                                            std::uint32_t simd_in_group) override;
    std::string name() const override { return program_.path; }
    // find_threadgroup_independence's finding; when true, from then on a
    // device access outside the buffer its base points into is an error.
    bool independent_threadgroups() override;
    std::string threadgroup_dependence() const override { return independence_.reason; }

    const KernelProgram& program() const { return program_; }
    const ResolvedLaunch& resolved_launch() const { return spec_; }
    DeviceMemory& memory() { return memory_; }
    const Uniforms& uniforms() const { return uniforms_; }
    std::uint64_t executed() const { return executed_; }
    void set_observer(IssueObserver* observer) { observer_ = observer; }

  private:
    class Stream;
    struct ThreadgroupShared {
        std::vector<unsigned char> memory;
    };
    std::shared_ptr<ThreadgroupShared> threadgroup_shared(std::uint32_t threadgroup);
    void run_preamble();

    KernelProgram program_;
    ResolvedLaunch spec_;
    Launch launch_;
    DeviceMemory memory_;
    Uniforms uniforms_{};
    std::uint64_t stack_base_ = 0;
    std::uint64_t max_instructions_;
    std::uint64_t max_simd_instructions_;  // 0: none
    std::uint64_t executed_ = 0;
    IssueObserver* observer_ = nullptr;
    ThreadgroupIndependence independence_;
    bool holding_independence_ = false;  // independent_threadgroups() answered true
    // Threadgroup memory of the resident threadgroups, alive while one of
    // their simds runs.
    std::map<std::uint32_t, std::weak_ptr<ThreadgroupShared>> threadgroups_;
};

}  // namespace agx::kernel
