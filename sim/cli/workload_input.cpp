// Opening the workload of `run` and `kernel record`.
#include "sim/cli/workload_input.hpp"

#include "sim/common/errors.hpp"
#include "sim/trace/open_trace.hpp"

namespace agx::cli {

unsigned parse_cores(const std::string& text, const MachineConfig& cfg) {
    if (text == "all") return cfg.cores;
    try {
        std::size_t used = 0;
        const long n = std::stol(text, &used);
        if (used == text.size() && n >= 1 && static_cast<unsigned long>(n) <= cfg.cores)
            return static_cast<unsigned>(n);
    } catch (const std::exception&) {
    }
    throw InputError("--cores " + text, "expected 'all' or a number from 1 to " +
                                            std::to_string(cfg.cores) + " (the cores of " +
                                            cfg.name + ")");
}

void add_kernel_options(CLI::App& cmd, KernelOptions& options) {
    cmd.add_option("--launch", options.launch,
                   "Kernels: a file of launch directives that replaces the kernel's own");
    cmd.add_option("--max-instructions", options.max_instructions,
                   "Kernels: stop with an error after this many SIMD-instructions")
        ->capture_default_str();
}

void take_launch_overrides(std::vector<std::string>& overrides, KernelOptions& options) {
    const std::string prefix = "launch.";
    std::vector<std::string> rest;
    for (auto& o : overrides) {
        if (o.compare(0, prefix.size(), prefix) == 0)
            options.launch_sets.push_back(o.substr(prefix.size()));
        else
            rest.push_back(std::move(o));
    }
    overrides = std::move(rest);
}

OpenedWorkload open_workload(const std::string& path, const KernelOptions& options) {
    OpenedWorkload w;
    if (kernel::is_kernel_file(path)) {
        auto k = std::make_unique<kernel::KernelWorkload>(
            kernel::load_kernel(path, options.launch, options.launch_sets),
            options.max_instructions);
        w.kernel = k.get();
        w.workload = std::move(k);
        return w;
    }
    if (!options.launch.empty())
        throw InputError("--launch", path + " is a trace, not a kernel: its launch is its own");
    if (!options.launch_sets.empty())
        throw InputError("--set launch." + options.launch_sets.front(),
                         path + " is a trace, not a kernel: launch values apply to kernels");
    w.workload = open_trace(path);
    return w;
}

}  // namespace agx::cli
