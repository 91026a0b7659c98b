// `agxsim trace convert IN OUT`: rewrites a trace in the text or the binary
// format, keeping its sections and repeat blocks.
#include <iostream>
#include <memory>
#include <string>

#include "sim/cli/commands.hpp"
#include "sim/common/output_file.hpp"
#include "sim/trace/trace_writer.hpp"

namespace agx::cli {

namespace {

struct ConvertArgs {
    std::string in, out;
    std::string format = "binary";
};

int convert(const ConvertArgs& args) {
    // Opened first so that a bad output path fails before the work; the
    // file appears only once the whole input converted.
    declare_input(args.in);
    OutputFile out(args.out);
    auto writer = args.format == "text" ? make_text_trace_writer(out.stream())
                                        : make_binary_trace_writer(out.stream());
    replay_trace(args.in, *writer);
    out.commit();
    return kExitOk;
}

}  // namespace

CLI::App* trace_group(CLI::App& app) {
    try {
        return app.get_subcommand("trace");
    } catch (const CLI::OptionNotFound&) {
        CLI::App* group = app.add_subcommand("trace", "Work with trace files");
        group->require_subcommand(1);
        return group;
    }
}

void add_trace_command(CLI::App& app, Action& action) {
    auto args = std::make_shared<ConvertArgs>();
    CLI::App* cmd = trace_group(app)->add_subcommand(
        "convert", "Convert a trace (text or binary, told by its first bytes) to the given format");
    cmd->add_option("in", args->in, "Trace to read")->required();
    cmd->add_option("out", args->out, "File to write (replaced only if the conversion succeeds)")
        ->required();
    cmd->add_option("-f,--format", args->format, "Format to write (traces/FORMAT.md)")
        ->check(CLI::IsMember({"text", "binary"}))
        ->capture_default_str();
    cmd->callback([args, &action] { action = [args] { return convert(*args); }; });
}

}  // namespace agx::cli
