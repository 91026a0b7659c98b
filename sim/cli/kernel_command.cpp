// `agxsim kernel record KERNEL -o OUT.agxb`: simulates a kernel and writes
// the stream each simd executed as a binary trace, so the trace can be
// replayed, shared or compared (it simulates to the same cycles).
#include <iostream>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "sim/cli/commands.hpp"
#include "sim/cli/workload_input.hpp"
#include "sim/common/errors.hpp"
#include "sim/common/output_file.hpp"
#include "sim/config/config_loader.hpp"
#include "sim/model/simulation.hpp"
#include "sim/trace/binary_trace_sections.hpp"

namespace agx::cli {

namespace {

struct RecordArgs {
    std::string kernel, out;
    std::string config = "m1";
    std::vector<std::string> overrides;
    std::string cores = "1";
    KernelOptions options;
};

// Writes each simd's executed stream (the static instruction, its real mask,
// and the addresses of memory instructions) as a section of its own, record
// by record as the simd issues: the sections of the running simds are open
// at once, and each full chunk goes to the file, so memory holds one chunk
// per running simd whatever the kernel's length (a runaway kernel once held
// 13 bytes per instruction until it stopped).
class Recorder : public kernel::IssueObserver {
  public:
    Recorder(const kernel::KernelProgram& program, BinarySectionsWriter& out)
        : program_(program), out_(out) {}

    void issued(std::uint32_t simd, const Instruction& issued) override {
        auto [it, fresh] = running_.try_emplace(simd, 0);
        if (fresh) it->second = out_.open_section(simd, simd);
        const auto index = program_.index_at_pc(issued.pc);
        Instruction in = program_.code[index].in;
        in.active_mask = issued.active_mask;
        if (in.mem.bytes_per_lane != 0) {
            in.mem.explicit_lanes = true;
            in.mem.lane = issued.mem.lane;
        }
        out_.instruction(it->second, in);
        ++instructions_;
    }

    void finished(std::uint32_t simd) override {
        auto it = running_.find(simd);
        // A simd that issued nothing has an empty section.
        const auto section = it != running_.end() ? it->second : out_.open_section(simd, simd);
        if (it != running_.end()) running_.erase(it);
        out_.close_section(section);
        ++simds_;
    }

    std::uint64_t instructions() const { return instructions_; }
    std::uint64_t simds() const { return simds_; }

  private:
    const kernel::KernelProgram& program_;
    BinarySectionsWriter& out_;
    std::unordered_map<std::uint32_t, BinarySectionsWriter::Section> running_;
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
    BinarySectionsWriter writer(out.stream());
    writer.begin(opened.workload->launch(), opened.kernel->program().name);
    Recorder recorder(opened.kernel->program(), writer);
    opened.kernel->set_observer(&recorder);

    RunOptions options;
    options.cores = parse_cores(args.cores, cfg);
    const RunResult result = simulate(cfg, *opened.workload, options);
    writer.finish();
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
