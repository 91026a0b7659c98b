// `agxsim kernel compile FILE.cl -o KERNEL.agxk`: OpenCL C compiled by
// Mesa's AGX compiler, decoded, and written as an agxsim kernel
// (sim/kernel/opencl_compile.hpp, sim/kernel/compiled_kernel_text.hpp).
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "sim/cli/commands.hpp"
#include "sim/common/errors.hpp"
#include "sim/common/output_file.hpp"
#include "sim/kernel/compiled_kernel_text.hpp"
#include "sim/kernel/opencl_compile.hpp"

namespace agx::cli {

namespace {

struct CompileArgs {
    std::string source, out, kernel;
    std::vector<std::string> defines;
};

int compile(const CompileArgs& a) {
    declare_input(a.source);
    std::unique_ptr<OutputFile> out;
    if (!a.out.empty()) out = std::make_unique<OutputFile>(a.out);
    kernel::CompileOptions o;
    o.source = a.source;
    o.kernel = a.kernel;
    for (const auto& d : a.defines) o.defines.push_back("-D" + d);
    const kernel::CompiledKernel k = kernel::compile_opencl(o);
    const std::string text =
        kernel::compiled_kernel_text(k, kernel::compiler_version(kernel::find_compiler_dir()));
    if (!out) {
        std::cout << text;
        return kExitOk;
    }
    out->stream() << text;
    out->commit();
    std::cout << "compiled " << k.name << " from " << a.source << " to " << a.out << " ("
              << k.main_size << " bytes of code, " << k.registers_halves
              << " register halves; run it: agxsim run " << a.out << " --launch FILE)\n";
    return kExitOk;
}

}  // namespace

void add_kernel_compile_command(CLI::App& kernel_group, Action& action) {
    auto args = std::make_shared<CompileArgs>();
    CLI::App* cmd = kernel_group.add_subcommand(
        "compile", "Compile an OpenCL C kernel with Mesa's AGX compiler into an agxsim kernel");
    cmd->add_option("source", args->source, "The OpenCL C file")->required();
    cmd->add_option("-o,--out", args->out, "Kernel file to write (default: standard output)");
    cmd->add_option("--kernel", args->kernel,
                    "The kernel to take (default: the file's only kernel)");
    cmd->add_option("-D,--define", args->defines, "A preprocessor definition NAME[=VALUE]");
    cmd->callback([args, &action] { action = [args] { return compile(*args); }; });
}

}  // namespace agx::cli
