// `agxsim kernel record KERNEL -o OUT.agxb`: simulates a kernel and writes
// the stream each simd executed as a binary trace, so the trace can be
// replayed, shared or compared (it simulates to the same cycles).
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "sim/cli/commands.hpp"
#include "sim/cli/workload_input.hpp"
#include "sim/common/errors.hpp"
#include "sim/common/output_file.hpp"
#include "sim/config/config_loader.hpp"
#include "sim/model/simulation.hpp"
#include "sim/trace/trace_writer.hpp"

namespace agx::cli {

namespace {

struct RecordArgs {
    std::string kernel, out;
    std::string config = "m1";
    std::vector<std::string> overrides;
    std::string cores = "1";
    KernelOptions options;
};

// Keeps each running simd's executed stream compactly (the static
// instruction, its mask, and the addresses of memory instructions) and
// writes it as a section of its own when the simd ends, so only running
// simds' streams are held.
class Recorder : public kernel::IssueObserver {
  public:
    Recorder(const kernel::KernelProgram& program, TraceWriter& out)
        : program_(program), out_(out) {}

    void issued(std::uint32_t simd, const Instruction& in) override {
        Stream& s = running_[simd];
        const auto index = program_.index_at_pc(in.pc);
        s.steps.push_back({static_cast<std::uint32_t>(index), in.active_mask});
        if (in.mem.bytes_per_lane != 0)
            s.addresses.insert(s.addresses.end(), in.mem.lane.begin(), in.mem.lane.end());
        ++instructions_;
    }

    void finished(std::uint32_t simd) override {
        Stream s = std::move(running_[simd]);
        running_.erase(simd);
        out_.begin_section(simd, simd);
        std::size_t next_address = 0;
        for (const Step& step : s.steps) {
            Instruction in = program_.code[step.index].in;
            in.active_mask = step.mask;
            if (in.mem.bytes_per_lane != 0) {
                in.mem.explicit_lanes = true;
                std::copy(s.addresses.begin() + next_address,
                          s.addresses.begin() + next_address + 32, in.mem.lane.begin());
                next_address += 32;
            }
            out_.instruction(in);
        }
        out_.end_section();
        ++simds_;
    }

    std::uint64_t instructions() const { return instructions_; }
    std::uint64_t simds() const { return simds_; }

  private:
    struct Step {
        std::uint32_t index, mask;
    };
    struct Stream {
        std::vector<Step> steps;
        std::vector<std::uint64_t> addresses;
    };
    const kernel::KernelProgram& program_;
    TraceWriter& out_;
    std::map<std::uint32_t, Stream> running_;
    std::uint64_t instructions_ = 0, simds_ = 0;
};

int record(RecordArgs args) {
    take_launch_overrides(args.overrides, args.options);
    declare_input(resolve_config_path(args.config));
    const MachineConfig cfg = load_config(args.config, args.overrides);
    OutputFile out(args.out);
    OpenedWorkload opened = open_workload(args.kernel, args.options);
    if (!opened.kernel)
        throw InputError(args.kernel,
                         "not a kernel (its first statement is not 'agxsim-kernel 1')");
    auto writer = make_binary_trace_writer(out.stream());
    writer->begin(opened.workload->launch(), opened.kernel->program().name);
    Recorder recorder(opened.kernel->program(), *writer);
    opened.kernel->set_observer(&recorder);

    RunOptions options;
    options.cores = parse_cores(args.cores, cfg);
    const RunResult result = simulate(cfg, *opened.workload, options);
    writer->finish();
    out.commit();
    std::cout << "recorded " << recorder.simds() << " simds, " << recorder.instructions()
              << " SIMD-instructions (" << result.cycles << " cycles on " << cfg.name << ") to "
              << args.out << "\n";
    return kExitOk;
}

}  // namespace

void add_kernel_command(CLI::App& app, Action& action) {
    CLI::App* group = app.add_subcommand("kernel", "Work with kernels (traces/KERNEL.md)");
    group->require_subcommand(1);
    auto args = std::make_shared<RecordArgs>();
    CLI::App* cmd = group->add_subcommand(
        "record", "Simulate a kernel and write what each simd executed as a binary trace");
    cmd->add_option("kernel", args->kernel, "Kernel file (traces/KERNEL.md)")->required();
    cmd->add_option("-o,--out", args->out, "Binary trace to write (traces/FORMAT.md)")->required();
    cmd->add_option("-c,--config", args->config,
                    "Machine: a name in configs/ (m1, m1-max, m2, a14) or a JSON path")
        ->capture_default_str();
    cmd->add_option("--set", args->overrides,
                    "Override a config value, or the kernel's launch with launch.KEY=value");
    cmd->add_option("--cores", args->cores, "Cores to simulate: a number or 'all'")
        ->capture_default_str();
    add_kernel_options(*cmd, args->options);
    cmd->callback([args, &action] { action = [args] { return record(*args); }; });
    add_kernel_import_command(*group, action);
    add_kernel_compile_command(*group, action);
}

}  // namespace agx::cli
