// What the probe needs from a GPU: compile a kernel, describe the device, run
// a dispatch and say when it started and ended. The Metal backend
// (metal_backend.mm, macOS only) is the real one; the fake backend stands in
// for it everywhere else, so all but the thin Metal layer runs in CI.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "validation/probe/kernel_generator.hpp"

namespace agx::probe {

// A GPU call failed: the message names the call and the reason it gave.
class BackendError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

struct DeviceInfo {
    std::string backend;      // "metal" or "fake"
    std::string name;         // MTLDevice.name: "Apple M1 Max"
    std::string chip;         // config name derived from the name: "m1-max"
    std::string family;       // highest MTLGPUFamilyAppleN supported: "Apple7"
    std::string os;           // operating system version
    std::uint32_t cores = 0;  // GPU cores (IORegistry AGXAccelerator "gpu-core-count"); 0 unknown
    std::uint32_t max_threadgroup_memory = 32768;  // per threadgroup (maxThreadgroupMemoryLength)
    // Per core; no API reports it. Sets how many threadgroups fit on a core:
    // each asks for a 1/n share. ~60 KB (Chips and Cheese's M1 measurements);
    // an assumption a little low is safe (n still fit, n + 1 do not), one too
    // high halves the occupancy, so the lower figure is the default.
    std::uint32_t threadgroup_memory_per_core = 61440;
    // Timestamps are sampled at compute-pass boundaries (a counter sample
    // buffer exists). Whether a run uses them depends on what they hold:
    // recent macOS versions return zeros.
    bool stage_boundary_counters = false;
    std::string counters_note;  // why there is no sampling, when there is none
    // How the device was found: "MTLCreateSystemDefaultDevice()" or
    // "MTLCopyAllDevices()[0]" (the default device was nil).
    std::string device_source;
    // The kernels' compile settings: "mathMode fast, mathFloatingPointFunctions
    // fast" (macOS 15 and later) or "fastMathEnabled YES" (which sets both),
    // the default; with --precise "mathMode safe, mathFloatingPointFunctions
    // precise" or "fastMathEnabled NO".
    std::string compile_options;
};

struct PipelineInfo {
    int handle = -1;  // the backend's own reference
    std::uint32_t max_threads_per_threadgroup = 0;
    std::uint32_t thread_execution_width = 0;
    std::optional<std::uint32_t> registers;  // per thread, where the backend can tell
    std::string archive;                     // binary archive written for it, if asked
    std::string archive_error;  // asked for and not written: the call that failed and why
};

struct Dispatch {
    std::uint32_t threadgroups = 0;
    std::uint32_t threads_per_threadgroup = 0;
    std::uint32_t threadgroup_memory_bytes = 0;
    KernelParams params;
};

// One dispatch of a batch: a pipeline the backend compiled and its launch.
struct Submission {
    PipelineInfo pipeline;
    Dispatch dispatch;
};

struct DispatchTiming {
    double gpu_start = 0, gpu_end = 0;  // seconds: the command buffer's GPUStartTime/GPUEndTime
    // Stage-boundary counter samples in GPU ticks, and seconds per tick (0:
    // not sampled). Recent macOS versions return zeros here.
    std::uint64_t counter_start = 0, counter_end = 0;
    double seconds_per_tick = 0;
    // Sampled, but the samples could not be read (resolveCounterRange
    // returned nil): why. The command buffer's times are still there.
    std::string counter_error;
};

class Backend {
  public:
    virtual ~Backend() = default;
    virtual DeviceInfo device() const = 0;
    // `archive_dir` non-empty: also write the compiled pipeline's binary
    // archive there (for disassembly); a failure to write it is reported in
    // PipelineInfo::archive_error, not thrown. Throws BackendError when the
    // kernel does not compile.
    virtual PipelineInfo compile(const Kernel& kernel, const std::string& archive_dir) = 0;
    // Runs one dispatch to completion, alone: the command buffer is
    // committed and waited for. Its times, with the counter samples where
    // they are sampled. Throws BackendError.
    virtual DispatchTiming run(const PipelineInfo& pipeline, const Dispatch& dispatch) = 0;
    // Submits the dispatches in order, back to back, each in its own command
    // buffer with up to `in_flight` of them queued at once, and waits for
    // all: the GPU never idles between them, as the reference tables' kernels
    // were queued. Every measured dispatch of a run (the device warm-up, the
    // clock checks, each benchmark's warm-up runs and trials) goes through
    // here. Each dispatch's times in order, as run() gives them: the command
    // buffer's start and end, and its own stage-boundary counter samples
    // where the backend samples them. Throws BackendError.
    virtual std::vector<DispatchTiming> run_batch(const std::vector<Submission>& batch,
                                                  unsigned in_flight) = 0;
};

// `count` submissions of one dispatch, for run_batch.
inline std::vector<Submission> repeated(const PipelineInfo& pipeline, const Dispatch& dispatch,
                                        unsigned count) {
    return std::vector<Submission>(count, Submission{pipeline, dispatch});
}

struct MetalOptions {
    bool use_counters = true;  // sample timestamps at stage boundaries where supported
    // Compile with math mode safe and the precise float functions, rather
    // than fast math (Xcode's default, with which the reference tables were
    // measured); DeviceInfo::compile_options says which.
    bool precise = false;
};
// The Metal backend; on a build without Metal, throws BackendError saying so.
std::unique_ptr<Backend> make_metal_backend(const MetalOptions& options);
bool metal_backend_available();

}  // namespace agx::probe
