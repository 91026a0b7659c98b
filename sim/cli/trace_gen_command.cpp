// `agxsim trace gen`: writes the trace the simulator generates for a
// benchmark definition, the same one `agxsim validate` runs in memory.
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "sim/cli/commands.hpp"
#include "sim/cli/count_option.hpp"
#include "sim/common/errors.hpp"
#include "sim/common/output_file.hpp"
#include "sim/config/config_loader.hpp"
#include "sim/trace/trace_writer.hpp"
#include "validation/lib/measurement.hpp"
#include "validation/lib/suite_workload.hpp"

namespace agx::cli {

namespace {

struct GenArgs {
    std::string id;
    std::string measurements;
    std::string config = "m1-max";
    std::vector<std::string> overrides;
    std::string out;
    std::string format = "text";
    std::uint32_t repetitions = 0;
};

int generate(const GenArgs& args) {
    using namespace agx::validation;
    const MachineConfig cfg = load_config(args.config, args.overrides);
    const MeasurementFile file = read_measurements(args.measurements);
    const Measurement* found = nullptr;
    for (const auto& m : file.records)
        if (m.id == args.id || (!found && m.id.find(args.id) != std::string::npos)) found = &m;
    if (!found) throw InputError(args.measurements, "no benchmark with id '" + args.id + "'");
    const BenchmarkDefinition& def = found->benchmark;
    if (def.memory)  // its addresses change every step: no loop of one body to write
        throw InputError(
            args.measurements + ": " + found->id,
            "a memory benchmark is expanded on the fly; trace gen writes ALU benchmarks only");
    SuiteWorkload w(def, cfg.core, args.repetitions ? args.repetitions : def.repetitions);

    OutputFile out(args.out);
    auto writer = args.format == "binary" ? make_binary_trace_writer(out.stream())
                                          : make_text_trace_writer(out.stream());
    // One section for all simds (they run the same kernel): the loop of
    // `unroll` unrolled repetitions as a repeat block, then what is left.
    writer->begin(w.launch(), def.name);
    const std::uint32_t simds =
        w.launch().threadgroups * w.launch().simds_per_threadgroup(cfg.core.simd_width);
    writer->begin_section(0, simds - 1);
    const std::uint32_t reps = w.repetitions(), unroll = w.unroll();
    auto body = [&](std::uint32_t copies) {
        for (std::uint32_t c = 0; c < copies; ++c)
            for (const Instruction& in : w.repetition()) writer->instruction(in);
    };
    if (reps / unroll > 0) {
        writer->begin_repeat(reps / unroll);
        body(unroll);
        writer->end_repeat();
    }
    body(reps % unroll);
    writer->end_section();
    writer->finish();
    out.commit();
    std::cout << args.out << ": " << found->id << ", " << simds << " simds, " << reps
              << " repetitions of " << w.repetition().size() << " instructions\n";
    return kExitOk;
}

}  // namespace

void add_trace_gen_command(CLI::App& app, Action& action) {
    auto args = std::make_shared<GenArgs>();
    CLI::App* cmd =
        trace_group(app)->add_subcommand("gen", "Write the trace of a benchmark definition");
    cmd->add_option("id", args->id,
                    "Figure id in the measurement file, or a part of it (first match)")
        ->required();
    cmd->add_option("-m,--measurements", args->measurements, "Measurement file or reference CSV")
        ->required()
        ->check(CLI::ExistingFile);
    cmd->add_option("-o,--out", args->out, "Trace file to write")->required();
    cmd->add_option("-c,--config", args->config, "Machine whose register file sets the occupancy")
        ->capture_default_str();
    cmd->add_option("--set", args->overrides,
                    "Override a config value: path.to.key=value (repeatable)");
    cmd->add_option("--format", args->format, "text or binary")
        ->check(CLI::IsMember({"text", "binary"}))
        ->capture_default_str();
    add_count_option(*cmd, "--repetitions", args->repetitions,
                     "Override the benchmark's repetitions");
    cmd->callback([args, &action] { action = [args] { return generate(*args); }; });
}

}  // namespace agx::cli
