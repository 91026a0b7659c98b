// `agxsim kernel import LISTING -o KERNEL.agxk`: a kernel compiled on a Mac,
// disassembled by applegpu, turned into an agxsim kernel
// (sim/kernel/applegpu_import.hpp).
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>

#include "sim/cli/commands.hpp"
#include "sim/common/errors.hpp"
#include "sim/common/input_file.hpp"
#include "sim/common/output_file.hpp"
#include "sim/kernel/applegpu_import.hpp"

namespace agx::cli {

namespace {

struct KernelImportArgs {
    std::string listing, out, name, launch;
};

// The launch file's text: directives only, for a line of code copied into
// the kernel would run before the listing's (a `stop`: every output 0).
std::string read_launch(const std::string& path) {
    const std::string text = read_input_file(path, "launch file", kMaxTextInputBytes);
    std::istringstream lines(text);
    unsigned number = 0;
    for (std::string line; std::getline(lines, line);) {
        ++number;
        std::istringstream words(line.substr(0, line.find('#')));
        std::string word;
        if (!(words >> word)) continue;
        if (word != "launch" && word != "param" && word != "buffer" && word != "uniform" &&
            word != "arg" && word != "argument")
            throw InputError(path + ":" + std::to_string(number),
                             "'" + word +
                                 "' is not a launch directive (launch, param, buffer, uniform, "
                                 "arg): a launch file holds no code");
    }
    return text;
}

int import(const KernelImportArgs& a) {
    declare_input(a.listing);
    if (!a.launch.empty()) declare_input(a.launch);
    std::unique_ptr<OutputFile> out;
    if (!a.out.empty()) out = std::make_unique<OutputFile>(a.out);
    const std::string name =
        a.name.empty() ? std::filesystem::path(a.listing).stem().string() : a.name;
    const std::string launch = a.launch.empty() ? std::string() : read_launch(a.launch);
    const kernel::ImportedKernel k = kernel::import_applegpu_listing(
        read_input_file(a.listing, "listing", kMaxTextInputBytes), a.listing, name, launch);
    if (!out) {
        std::cout << k.text;
        return kExitOk;
    }
    out->stream() << k.text;
    out->commit();
    std::cout << "imported " << k.instructions << " instructions from " << a.listing << " to "
              << a.out
              << (launch.empty() ? " (give it a launch: agxsim run " + a.out + " --launch FILE)"
                                 : "")
              << "\n";
    return kExitOk;
}

}  // namespace

void add_kernel_import_command(CLI::App& kernel_group, Action& action) {
    auto args = std::make_shared<KernelImportArgs>();
    CLI::App* cmd = kernel_group.add_subcommand(
        "import", "Turn applegpu's disassembly of a Metal kernel into an agxsim kernel");
    cmd->add_option("listing", args->listing,
                    "The disassembler's output (disassemble.py, compiler_explorer.py)")
        ->required();
    cmd->add_option("-o,--out", args->out, "Kernel file to write (default: standard output)");
    cmd->add_option("--name", args->name, "The kernel's name (default: the listing's file name)");
    cmd->add_option("--launch", args->launch,
                    "A file of launch directives (launch, param, buffer, uniform) to copy in");
    cmd->callback([args, &action] { action = [args] { return import(*args); }; });
}

}  // namespace agx::cli
