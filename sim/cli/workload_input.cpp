// Opening the workload of `run` and `kernel record`.
#include "sim/cli/workload_input.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/cli/count_option.hpp"
#include "sim/common/errors.hpp"
#include "sim/common/output_file.hpp"
#include "sim/kernel/compiled_kernel_text.hpp"
#include "sim/kernel/liveness_hints.hpp"
#include "sim/kernel/opencl_compile.hpp"
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
    add_count_option(cmd, "--max-instructions", options.max_instructions,
                     "Kernels: stop with an error after this many SIMD-instructions")
        ->capture_default_str();
    add_count_option(cmd, "--max-simd-instructions", options.max_simd_instructions,
                     "Kernels: stop with an error when one simd has run this many "
                     "SIMD-instructions (a loop that does not end; 0: no limit)",
                     0)
        ->capture_default_str();
    cmd.add_option("--kernel", options.kernel_name,
                   "OpenCL C sources: the kernel to run (default: the file's only kernel)");
    cmd.add_option("-D,--define", options.defines,
                   "OpenCL C sources: a preprocessor definition NAME[=VALUE]");
    cmd.add_option("--register-hints", options.register_hints,
                   "Kernels: the register-cache hints, as-written (a compiled kernel has none) or "
                   "liveness (the last read of a value discards it)")
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

namespace {

void apply_register_hints(kernel::LoadedKernel& k, const KernelOptions& options) {
    if (kernel::parse_register_hints(options.register_hints, "--register-hints") ==
        kernel::RegisterHints::Liveness)
        kernel::infer_discard_hints(k.program);
}

bool is_opencl_source(const std::string& path) {
    return std::filesystem::path(path).extension() == ".cl";
}

// Compiles an OpenCL C kernel and loads it with its launch.
std::unique_ptr<kernel::KernelWorkload> open_opencl(const std::string& path,
                                                    const KernelOptions& options) {
    std::string launch = options.launch;
    if (launch.empty()) {
        const auto beside = std::filesystem::path(path).replace_extension(".launch");
        std::error_code ec;
        if (!std::filesystem::is_regular_file(beside, ec))
            throw InputError(path, "an OpenCL C kernel needs a launch: --launch FILE, or " +
                                       beside.string() + " beside it");
        launch = beside.string();
    }
    kernel::CompileOptions o;
    o.source = path;
    o.kernel = options.kernel_name;
    for (const auto& d : options.defines) o.defines.push_back("-D" + d);
    const kernel::CompiledKernel k = kernel::compile_opencl(o);
    const std::string text =
        kernel::compiled_kernel_text(k, kernel::compiler_version(kernel::find_compiler_dir()));
    // The kernel file the compile made, read back as `kernel compile -o` would write it.
    std::error_code ec;
    const auto tmp = std::filesystem::temp_directory_path(ec);
    if (ec) throw InputError("TMPDIR", "no temporary directory: " + ec.message());
    std::string tmpl = (tmp / "agxsim-compiled-XXXXXX").string();
    const int fd = mkstemp(tmpl.data());
    if (fd < 0)
        throw InputError("TMPDIR",
                         std::string("cannot create a temporary file: ") + std::strerror(errno));
    close(fd);
    struct Remove {
        std::string p;
        ~Remove() { std::remove(p.c_str()); }
    } remove{tmpl};
    {
        std::ofstream f(tmpl, std::ios::binary);
        f << text;
        f.close();
        if (!f) throw InputError("TMPDIR", "cannot write " + tmpl);
    }
    // Messages name the compiled kernel by its source: its lines are those
    // `agxsim kernel compile` prints.
    const std::string shown = path + " (compiled)";
    kernel::LoadedKernel loaded;
    try {
        loaded = kernel::load_kernel(tmpl, launch, options.launch_sets);
    } catch (const InputError& e) {
        std::string what = e.what();
        for (auto at = what.find(tmpl); at != std::string::npos; at = what.find(tmpl))
            what.replace(at, tmpl.size(), shown);
        throw InputError("", what);
    }
    loaded.program.path = shown;
    apply_register_hints(loaded, options);
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) loaded.program.text_lines.push_back(line);
    return std::make_unique<kernel::KernelWorkload>(std::move(loaded), options.max_instructions,
                                                    options.max_simd_instructions);
}

}  // namespace

OpenedWorkload open_workload(const std::string& path, const KernelOptions& options) {
    declare_input(path);
    if (!options.launch.empty()) declare_input(options.launch);
    OpenedWorkload w;
    if (is_opencl_source(path)) {
        auto k = open_opencl(path, options);
        w.kernel = k.get();
        w.workload = std::move(k);
        return w;
    }
    if (options.register_hints != "as-written" && !kernel::is_kernel_file(path))
        throw InputError("--register-hints", path + " is a trace: its hints are its own");
    if (!options.kernel_name.empty() || !options.defines.empty())
        throw InputError(path, "--kernel and -D apply to OpenCL C sources (FILE.cl)");
    if (kernel::is_kernel_file(path)) {
        kernel::LoadedKernel loaded =
            kernel::load_kernel(path, options.launch, options.launch_sets);
        apply_register_hints(loaded, options);
        auto k = std::make_unique<kernel::KernelWorkload>(
            std::move(loaded), options.max_instructions, options.max_simd_instructions);
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
