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

    KernelWorkload(LoadedKernel kernel, std::uint64_t max_instructions = kDefaultMaxInstructions);
    ~KernelWorkload() override;

    const Launch& launch() const override { return launch_; }
    std::unique_ptr<InstructionStream> open(std::uint32_t threadgroup,
                                            std::uint32_t simd_in_group) override;
    std::string name() const override { return program_.path; }

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
    std::uint64_t executed_ = 0;
    IssueObserver* observer_ = nullptr;
    // Threadgroup memory of the resident threadgroups, alive while one of
    // their simds runs.
    std::map<std::uint32_t, std::weak_ptr<ThreadgroupShared>> threadgroups_;
};

}  // namespace agx::kernel
