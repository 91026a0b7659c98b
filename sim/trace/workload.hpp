// Where instructions come from. The core pulls instructions per simd, lazily,
// from a Workload: a text trace, a binary trace, or a benchmark definition
// expanded on the fly. The core never sees which.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "sim/trace/instruction.hpp"

namespace agx {

// Instructions live in their own region of the address space, so the
// instruction cache's lines never alias data lines in the shared levels.
inline constexpr std::uint64_t kCodeBaseAddress = 0xC0DE00000000ull;

// The kernel launch a workload describes.
struct Launch {
    std::uint32_t threads_per_threadgroup = 0;
    std::uint32_t threadgroups = 0;
    std::uint32_t registers_halves = 0;          // per thread, in 16-bit halves
    std::uint32_t threadgroup_memory_bytes = 0;  // per threadgroup
    // Each threadgroup's fixed cost, from its launch until its simds can
    // issue (dispatch, argument loads, barriers), when the workload knows it:
    // a benchmark carries what its control group measured, and a trace's
    // launch may give it (`overhead=`). It is latency: the other resident
    // threadgroups issue meanwhile. 0: none.
    std::uint32_t overhead_cycles = 0;
    // Bytes of the kernel's code (from pc 0) already in the L2 when the run
    // starts: a benchmark measured over many waves finds its code there,
    // fetched by the waves before. 0: the code starts cold.
    std::uint32_t code_in_l2_bytes = 0;

    std::uint32_t simds_per_threadgroup(std::uint32_t simd_width = 32) const {
        return (threads_per_threadgroup + simd_width - 1) / simd_width;
    }

    // `groups` threadgroups of `threads` threads, each thread using
    // `registers_halves` 16-bit register halves.
    static Launch of(std::uint32_t threads, std::uint32_t groups, std::uint32_t registers_halves) {
        Launch l;
        l.threads_per_threadgroup = threads;
        l.threadgroups = groups;
        l.registers_halves = registers_halves;
        return l;
    }
};

// The instruction stream of one simd. Memory use must not depend on the
// stream's length.
class InstructionStream {
  public:
    virtual ~InstructionStream() = default;
    // The next instruction, or nullptr when the simd has finished. The pointer
    // stays valid until advance() is called.
    virtual const Instruction* peek() = 0;
    virtual void advance() = 0;
};

class Workload {
  public:
    virtual ~Workload() = default;
    virtual const Launch& launch() const = 0;
    // Opens the stream of simd `simd_in_group` of threadgroup `threadgroup`.
    // Called when the simd becomes resident; the stream is dropped when it ends.
    virtual std::unique_ptr<InstructionStream> open(std::uint32_t threadgroup,
                                                    std::uint32_t simd_in_group) = 0;
    // A short human-readable name (file path or benchmark name).
    virtual std::string name() const = 0;
    // Whether the launch's threadgroups may run in any order with the same
    // results: none reads device memory that another writes, and none uses a
    // device atomic. A sampled run then executes a skipped range as soon as
    // it skips it (SamplingPlan::early). A workload that answers true holds
    // to it from then on (an access that would break it is an error).
    // Default: not known, so false.
    virtual bool independent_threadgroups() { return false; }
    // Why the threadgroups are not taken for independent (empty when they are).
    virtual std::string threadgroup_dependence() const {
        return "the workload does not say what its threadgroups share";
    }
    // See Launch::code_in_l2_bytes.
    std::uint64_t code_resident_in_l2() const { return launch().code_in_l2_bytes; }
};

}  // namespace agx
