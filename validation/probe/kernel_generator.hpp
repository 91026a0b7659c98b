// Benchmark definition -> Metal Shading Language kernel: the same definitions
// the simulator turns into traces (validation/lib/suite_workload.cpp), as a
// compute kernel the Metal probe runs on the GPU.
//
// Every thread keeps `ilp` independent chains per term of the body and
// repeats the body `repetitions` times: a loop of `unroll` unrolled
// repetitions (the code size) with the remainder unrolled after it, or
// straight-line code when `unroll` is 0. The values are seeded from a buffer
// and folded into one word written to a buffer, so nothing is dead code.
//
// Arguments (the Backend binds them):
//   buffer(0) seeds: 32 non-zero words, one per lane
//   buffer(1) out: 65536 words, written at gid & 65535
//   buffer(2) agx_params {loops, active_simds, uniform}
//   threadgroup(0): its length sets how many threadgroups fit on a core
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "validation/lib/benchmark.hpp"

namespace agx::probe {

constexpr const char* kKernelEntry = "agx_bench";
constexpr std::uint32_t kSeedWords = 32;
constexpr std::uint32_t kOutWords = 65536;

// The seed words the backend uploads to buffer(0), one per lane: non-zero,
// and a permutation of the lanes (shuffles read other lanes' values).
std::array<std::uint32_t, kSeedWords> seed_words();

struct Kernel {
    std::string source;
    validation::BenchmarkDefinition def;
    std::uint32_t repetitions = 0;  // repetitions this kernel runs (N, or 2N for the steady method)
    std::uint32_t unroll = 0;  // repetitions per loop iteration; == repetitions when straight-line
    std::uint32_t loops = 0;   // the loop's iterations, passed at run time (0: no loop)
    std::uint32_t tail = 0;    // repetitions unrolled after the loop
    std::uint32_t live_values = 0;  // values the kernel keeps live: a floor on its register use
    // The kernel function to compile: empty for the generator's kKernelEntry
    // (a user's own Metal file, `agxsim-probe compile`, names its own).
    std::string entry;
};

// The values of agx_params a dispatch passes (the struct's layout in MSL).
struct KernelParams {
    std::uint32_t loops = 0;
    std::uint32_t active_simds = 0;
    std::uint32_t uniform = 5;
};

// Throws GeneratorError (msl_ops.hpp) for an operation Metal cannot express.
Kernel generate_kernel(const validation::BenchmarkDefinition& def, std::uint32_t repetitions);

}  // namespace agx::probe
