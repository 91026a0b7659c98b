// The workload a command simulates: a trace (text or binary) or a kernel
// (traces/KERNEL.md), told apart by the file's first statement, with the
// kernel-only options (--launch, --set launch.KEY=, --max-instructions).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "sim/config/machine_config.hpp"
#include "sim/kernel/kernel_workload.hpp"
#include "sim/trace/workload.hpp"

namespace agx::cli {

// `--cores`: "all" or 1..the machine's cores.
unsigned parse_cores(const std::string& text, const MachineConfig& cfg);

struct KernelOptions {
    std::string launch;                         // --launch FILE
    std::string kernel_name;                    // --kernel NAME (OpenCL C sources)
    std::vector<std::string> defines;           // -D NAME[=VALUE] (OpenCL C sources)
    std::string register_hints = "as-written";  // --register-hints
    std::vector<std::string> launch_sets;       // KEY=VALUE of --set launch.KEY=VALUE
    std::uint64_t max_instructions = kernel::KernelWorkload::kDefaultMaxInstructions;
    std::uint64_t max_simd_instructions = kernel::KernelWorkload::kDefaultMaxSimdInstructions;
};

// Adds --launch and --max-instructions to a command.
void add_kernel_options(CLI::App& cmd, KernelOptions& options);

// Moves the `launch.` overrides out of `overrides` into the kernel options.
void take_launch_overrides(std::vector<std::string>& overrides, KernelOptions& options);

struct OpenedWorkload {
    std::unique_ptr<Workload> workload;
    kernel::KernelWorkload* kernel = nullptr;  // set when the file is a kernel
};

// Opens a trace, a kernel, or an OpenCL C source (FILE.cl: compiled, then run
// as a kernel; its launch is --launch, else FILE.launch beside it). Kernel
// options given for a trace are bad input.
OpenedWorkload open_workload(const std::string& path, const KernelOptions& options);

}  // namespace agx::cli
