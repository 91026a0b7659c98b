// agxsim-probe: runs agxsim's benchmark suite on a real Apple GPU through
// Metal and writes a measurement file `agxsim validate --measurements` reads.
//
//   agxsim-probe check                      # first: compile everything, check the clock
//   agxsim-probe run --suite validation/suite/instructions.json --out results.json
//   agxsim-probe list [--only SUBSTR]
//   agxsim-probe gen --only float_instructions/FADD32/latency
//   agxsim-probe compile my_kernel.metal --out archives/
//   agxsim-probe suite --from validation/data/metal-benchmarks/*.csv --out
//   validation/suite/instructions.json
//
// Exit codes as agxsim's: 0 success, 2 bad input or an unusable GPU, 1 internal error.
// `check`: 0 a run can go ahead, 1 some kernels did not compile or run (the
// run would record them as not measured: report them), 2 no usable GPU or
// a GPU not at the assumed clock.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "sim/common/errors.hpp"
#include "sim/common/output_file.hpp"
#include "validation/probe/backend.hpp"
#include "validation/probe/fake_backend.hpp"
#include "validation/probe/kernel_generator.hpp"
#include "validation/probe/msl_ops.hpp"
#include "validation/probe/probe_run.hpp"
#include "validation/probe/suite_source.hpp"

namespace {

using namespace agx::probe;

constexpr int kOk = 0, kBadInput = 2, kInternal = 1;

struct Source {
    std::string suite, measurements;
    std::string path() const {
        return !suite.empty() ? suite : !measurements.empty() ? measurements : default_suite_path();
    }
};

void add_source(CLI::App* cmd, Source& s) {
    auto* suite =
        cmd->add_option("--suite", s.suite,
                        "Suite file (validation/suite/<name>.json); default: instructions.json")
            ->check(CLI::ExistingFile);
    cmd->add_option("--measurements", s.measurements,
                    "Measurement file or reference CSV whose benchmark definitions to use")
        ->check(CLI::ExistingFile)
        ->excludes(suite);
}

std::vector<SuiteEntry> select(const std::vector<SuiteEntry>& all, const std::string& only) {
    std::vector<SuiteEntry> out;
    for (const auto& e : all)
        if (only.empty() || e.id.find(only) != std::string::npos) out.push_back(e);
    return out;
}

int list(const Source& src, const std::string& only) {
    for (const auto& e : select(read_entries(src.path()), only)) {
        std::cout << e.id << "  [" << agx::validation::figure_kind_name(e.kind) << "] "
                  << e.def.body_label() << ", ilp " << e.def.ilp << ", " << e.def.simds_per_core
                  << " simds/core, " << e.def.register_bits << "-bit, " << e.def.repetitions
                  << " reps";
        try {
            generate_kernel(e.def, e.def.repetitions);
        } catch (const GeneratorError& err) {
            std::cout << "  (not measurable: " << err.what() << ")";
        }
        std::cout << "\n";
    }
    return kOk;
}

int gen(const Source& src, const std::string& only, std::uint32_t repetitions) {
    const auto all = read_entries(src.path());
    std::vector<SuiteEntry> chosen;
    for (const auto& e : all)
        if (e.id == only) chosen = {e};
    if (chosen.empty()) chosen = select(all, only);
    if (chosen.empty())
        throw agx::InputError(src.path(), "no benchmark id contains '" + only + "'");
    if (chosen.size() > 1) {
        std::string names;
        for (std::size_t i = 0; i < chosen.size() && i < 10; ++i) names += "\n  " + chosen[i].id;
        throw agx::InputError(src.path(), std::to_string(chosen.size()) + " benchmarks match '" +
                                              only + "'; name one:" + names +
                                              (chosen.size() > 10 ? "\n  ..." : ""));
    }
    const auto& def = chosen[0].def;
    std::cout << generate_kernel(def, repetitions ? repetitions : def.repetitions).source;
    if (!repetitions && def.method == agx::validation::BenchmarkDefinition::Method::Steady)
        std::cerr << "steady method: the probe also runs this kernel at " << 2 * def.repetitions
                  << " repetitions (--repetitions " << 2 * def.repetitions << " prints it)\n";
    return kOk;
}

struct RunArgs {
    Source source;
    std::string out, backend = metal_backend_available() ? "metal" : "", only;
    RunOptions options;
    double clock_ghz = 0;
    std::uint64_t seed = 1;
    bool no_counters = false;
    bool precise = false;  // math mode safe and precise functions instead of fast math
    std::string fake_chip, fake_fail;
    double fake_clock_ghz = 0;
};

std::unique_ptr<Backend> make_backend(const RunArgs& a) {
    if (a.backend != "fake") {
        if (!a.fake_fail.empty() || !a.fake_chip.empty() || a.fake_clock_ghz > 0)
            throw agx::InputError("--fake-fail", "the --fake-* options need --backend fake");
        return make_metal_backend({!a.no_counters, a.precise});
    }
    FakeOptions f;
    f.seed = a.seed;
    f.precise = a.precise;
    if (!a.fake_chip.empty()) {
        f.chip = a.fake_chip;
        f.name = "agxsim fake GPU (synthetic timings, " + a.fake_chip + ")";
    }
    if (a.fake_clock_ghz > 0) f.clock_ghz = a.fake_clock_ghz;
    try {
        parse_fake_failures(a.fake_fail, f);
    } catch (const std::invalid_argument& e) {
        throw agx::InputError("--fake-fail", e.what());
    }
    return std::make_unique<FakeBackend>(f);
}

std::vector<SuiteEntry> selection(RunArgs& a) {
    if (a.clock_ghz > 0) a.options.clock_ghz = a.clock_ghz;
    const auto entries = select(read_entries(a.source.path()), a.only);
    if (entries.empty())
        throw agx::InputError(a.source.path(), "no benchmark matches '" + a.only + "'");
    a.options.suite_source = a.source.path();
    a.options.log = &std::cerr;
    return entries;
}

int run(RunArgs& a) {
    const auto entries = selection(a);
    std::unique_ptr<Backend> backend = make_backend(a);
    if (!a.options.archive_dir.empty()) std::filesystem::create_directories(a.options.archive_dir);
    // The file is rewritten after every benchmark: a run that stops early
    // leaves what it measured (its description says PARTIAL).
    a.options.checkpoint = [&a](const agx::validation::MeasurementFile& file) {
        std::ostringstream text;
        agx::validation::write_measurements(file, text);
        agx::write_file_atomically(a.out, text.str());
    };
    const auto file = run_suite(*backend, entries, a.options);
    std::size_t measured = 0;
    for (const auto& m : file.records) measured += m.value.has_value();
    std::cout << a.out << ": " << measured << " of " << file.records.size()
              << " benchmarks measured on " << backend->device().name << "\n";
    const auto& clock = file.probe.value("clock_check", nlohmann::json::object());
    if (!clock.value("ok", false))
        std::cout << "clock check: " << clock.value("message", std::string("not done")) << "\n";
    return kOk;
}

std::string minutes(double seconds) {
    char buf[32];
    std::snprintf(buf, sizeof buf, seconds < 90 ? "%.0f s" : "%.0f min",
                  seconds < 90 ? seconds : seconds / 60);
    return buf;
}

// Compiles every kernel of the selection, warms the GPU, checks the clock
// and says what a full run will take: what a Mac owner runs first.
int check(RunArgs& a) {
    const auto entries = selection(a);
    std::unique_ptr<Backend> backend = make_backend(a);
    const DeviceInfo dev = backend->device();
    std::cout << "device: " << dev.name << " (" << dev.family << ", " << dev.os << "), found by "
              << dev.device_source << "\n"
              << "compile options: " << dev.compile_options << "\n";
    const CheckReport r = check_suite(*backend, entries, a.options);
    const auto& c = r.context;
    char clock[64] = "unknown";
    if (c.clock_ghz > 0)
        std::snprintf(clock, sizeof clock, "%.3f GHz (%s)", c.clock_ghz, c.clock_source.c_str());
    std::cout << "chip: " << c.chip << ", " << c.cores << " cores, clock " << clock << "\n";
    std::cout << "kernels: " << r.kernels << " compiled for " << r.benchmarks << " benchmarks in "
              << minutes(r.compile_seconds) << "\n";
    if (!r.not_measurable.empty())
        std::cout << "  " << r.not_measurable.size()
                  << " benchmarks Metal cannot express (a run records them as not measured)\n";
    std::cout << "compile errors: "
              << (r.compile_errors.empty() ? std::string("none")
                                           : std::to_string(r.compile_errors.size()))
              << "\n";
    for (const auto& [id, error] : r.compile_errors)
        std::cout << "  " << id << ": " << error << "\n";
    if (!r.run_errors.empty()) {
        std::cout << "dispatch errors:\n";
        for (const auto& [id, error] : r.run_errors)
            std::cout << "  " << id << ": " << error << "\n";
    }
    std::cout << "warm-up: "
              << (r.warmup.contains("error")
                      ? "failed: " + r.warmup["error"].get<std::string>()
                      : std::string(r.warmup.value("settled", false) ? "settled" : "NOT settled") +
                            " after " + std::to_string(r.warmup.value("dispatches", 0)) +
                            " dispatches")
              << "\n";
    std::cout << "timing: "
              << (r.timing.is_object() ? r.timing.value("source", std::string("?")) + " (" +
                                             r.timing.value("reason", std::string()) + ")"
                                       : std::string("not chosen (nothing ran)"))
              << "\n";
    std::cout << "clock: " << r.clock.message << "\n";
    std::cout << "a full run of these " << r.benchmarks << " benchmarks (" << a.options.trials
              << " trials) will take about " << minutes(r.estimate_low_seconds) << " to "
              << minutes(r.estimate_high_seconds) << "\n";
    const bool gpu_ok = r.clock.ok && c.clock_ghz > 0;
    const bool kernels_ok = r.compile_errors.empty() && r.run_errors.empty();
    if (gpu_ok && kernels_ok) {
        std::cout << "ready: agxsim-probe run --out results.json"
                  << (a.only.empty() ? "" : " --only '" + a.only + "'") << "\n";
        return kOk;
    }
    if (!gpu_ok) {
        std::cout << "not ready: "
                  << (c.clock_ghz > 0 ? "the GPU is not at the assumed clock (quit other GPU "
                                        "work, keep the Mac on power, and check again)"
                                      : "no clock: give --clock-ghz")
                  << "\n";
        return kBadInput;
    }
    std::cout << "not ready: " << r.compile_errors.size() + r.run_errors.size()
              << " benchmarks would not be measured; please report the errors above "
                 "(a run still measures the others)\n";
    return kInternal;
}

struct CompileArgs {
    std::string metal, out, function, backend = metal_backend_available() ? "metal" : "";
    bool precise = false;
};

// The `kernel void NAME(` functions of a Metal source.
std::vector<std::string> kernel_functions(const std::string& source) {
    static const std::regex kKernel(R"(\bkernel\s+void\s+([A-Za-z_][A-Za-z0-9_]*)\s*\()");
    std::vector<std::string> names;
    for (std::sregex_iterator it(source.begin(), source.end(), kKernel), end; it != end; ++it)
        names.push_back((*it)[1].str());
    return names;
}

// Compiles a user's Metal kernel with the suite's settings (fast math, or
// with --precise math mode safe and precise float functions) and saves its binary archive, the
// input of applegpu's disassembler and so of `agxsim kernel import`.
int compile(const CompileArgs& a) {
    std::ifstream in(a.metal, std::ios::binary);
    if (!in) throw agx::InputError(a.metal, "cannot open");
    std::stringstream text;
    text << in.rdbuf();
    const std::string source = text.str();
    const auto functions = kernel_functions(source);
    std::string function = a.function;
    if (function.empty()) {
        if (functions.empty())
            throw agx::InputError(a.metal, "no 'kernel void NAME(' function in the file");
        if (functions.size() > 1) {
            std::string names;
            for (const auto& f : functions) names += (names.empty() ? "" : ", ") + f;
            throw agx::InputError(
                a.metal, "several kernel functions (" + names + "): name one with --function");
        }
        function = functions.front();
    } else if (std::find(functions.begin(), functions.end(), function) == functions.end()) {
        throw agx::InputError(a.metal, "no kernel function named '" + function + "'");
    }
    std::unique_ptr<Backend> backend;
    if (a.backend == "fake")
        backend = std::make_unique<FakeBackend>(FakeOptions{});
    else
        backend = make_metal_backend({false, a.precise});
    Kernel k;
    k.source = source;
    k.entry = function;
    k.def.name = function;
    k.repetitions = 1;
    const bool real = backend->device().backend != "fake";
    if (real) std::filesystem::create_directories(a.out);
    const PipelineInfo p = backend->compile(k, real ? a.out : std::string());
    std::cout << function << ": compiled on " << backend->device().name << ", "
              << p.max_threads_per_threadgroup << " threads per threadgroup at most, simd width "
              << p.thread_execution_width << "\n";
    // Here the archive is the point: a failure to write it is the command's failure.
    if (!p.archive_error.empty()) throw BackendError(p.archive_error);
    if (p.archive.empty()) {
        std::cout << "no binary archive: the " << backend->device().backend
                  << " backend compiles nothing real\n";
        return kOk;
    }
    std::cout << "archive: " << p.archive << "\n"
              << "next, with applegpu (github.com/dougallj/applegpu) checked out:\n"
              << "  python3 applegpu/compiler_explorer.py " << p.archive << " > " << function
              << ".dis\n"
              << "  agxsim kernel import " << function << ".dis -o " << function << ".agxk\n";
    return kOk;
}

int suite(const std::vector<std::string>& from, const std::string& out) {
    std::vector<SuiteEntry> all;
    std::string names;
    for (const auto& path : from) {
        for (auto& e : read_entries(path)) {
            bool dup = false;
            for (const auto& have : all) dup = dup || have.id == e.id;
            if (!dup) all.push_back(std::move(e));
        }
        names += (names.empty() ? "" : ", ") + std::filesystem::path(path).filename().string();
    }
    const std::string description = "Benchmark definitions of the reference tables (" + names +
                                    "), written by `agxsim-probe suite` from the imported data and "
                                    "validation/suite/method.json; the suite `agxsim-probe run` "
                                    "measures by default. Regenerate, do not edit.";
    agx::write_file_atomically(out, suite_json(all, description).dump(1) + "\n");
    std::cout << out << ": " << all.size() << " benchmarks\n";
    return kOk;
}

}  // namespace

int main(int argc, char* argv[]) {
    CLI::App app{"agxsim-probe: runs agxsim's benchmark suite on an Apple GPU through Metal",
                 "agxsim-probe"};
    app.set_version_flag("--version", std::string("agxsim-probe ") + kProbeVersion);
    app.require_subcommand(1);
    std::function<int()> action;

    // The options `run` and `check` share.
    auto add_run_options = [](CLI::App* cmd, RunArgs& a) {
        add_source(cmd, a.source);
        cmd->add_option("--backend", a.backend,
                        "metal (the GPU) or fake (synthetic timings, for testing)")
            ->check(CLI::IsMember({"metal", "fake"}));
        cmd->add_option("--trials", a.options.trials, "Trials per kernel; the best counts")
            ->capture_default_str();
        cmd->add_option("--warmup", a.options.warmup, "Warm-up runs per kernel, at least")
            ->capture_default_str();
        cmd->add_option("--warmup-seconds", a.options.warmup_seconds,
                        "GPU time the warm-up kernel runs, at least, before anything is timed")
            ->capture_default_str();
        cmd->add_option("--warmup-max-seconds", a.options.warmup_max_seconds,
                        "GPU time after which the warm-up stops, settled or not")
            ->capture_default_str();
        cmd->add_option("--in-flight", a.options.in_flight,
                        "Command buffers queued at once, for every timed dispatch")
            ->capture_default_str();
        cmd->add_option(
               "--waves", a.options.waves,
               "Times a dispatch fills every core (a benchmark that names its waves keeps them)")
            ->capture_default_str();
        cmd->add_option("--clock-ghz", a.clock_ghz,
                        "GPU clock for cycles (default: the chip table's, else the measured one)");
        cmd->add_option("--clock-tolerance", a.options.clock_tolerance,
                        "How far from 1.0 cycle FADD32 throughput may come out in the clock check")
            ->capture_default_str();
        cmd->add_option("--chip", a.options.chip,
                        "Config name to file the figures under (default: from the device)");
        cmd->add_option("--cores", a.options.cores, "GPU cores (default: from the IORegistry)");
        cmd->add_option("--tg-memory-per-core", a.options.threadgroup_memory_per_core,
                        "Threadgroup memory per core in bytes (default 61440)");
        cmd->add_option("--max-spread", a.options.max_spread,
                        "Trial spread above which a figure is marked '~'")
            ->capture_default_str();
        cmd->add_option("--only", a.only, "Only the benchmarks whose id contains this text");
        cmd->add_option("--seed", a.seed, "Fake backend: the noise generator's seed")
            ->capture_default_str();
        cmd->add_flag("--no-counters", a.no_counters, "Metal: time with the command buffer only");
        cmd->add_flag("--precise", a.precise,
                      "Compile with math mode safe and the precise float functions (default: "
                      "fast math, as the reference tables were measured); the file records which");
        cmd->add_option(
            "--fake-fail", a.fake_fail,
            "Fake backend, for testing: failures to inject, e.g. "
            "compile=FADD32/latency,run=IMUL,resolve=*,archive,counter-buffer,counter-disagree,"
            "fold=FADD");
        cmd->add_option(
            "--fake-chip", a.fake_chip,
            "Fake backend, for testing: the chip it reports (m3-max: not in the table)");
        cmd->add_option("--fake-clock-ghz", a.fake_clock_ghz,
                        "Fake backend, for testing: the clock its timings are computed at");
    };

    auto ck = std::make_shared<RunArgs>();
    CLI::App* check_cmd = app.add_subcommand(
        "check",
        "Run this first: compile every kernel of the selection with Metal (each error with its "
        "benchmark), warm the GPU, check its clock, and say what a full run will take");
    add_run_options(check_cmd, *ck);
    check_cmd->callback([ck, &action] { action = [ck] { return check(*ck); }; });

    auto r = std::make_shared<RunArgs>();
    CLI::App* run_cmd =
        app.add_subcommand("run", "Measure the suite's benchmarks and write a measurement file");
    add_run_options(run_cmd, *r);
    run_cmd->add_option("-o,--out", r->out, "Measurement file to write (results.json)")->required();
    run_cmd->add_option("--archive", r->options.archive_dir,
                        "Write each pipeline's binary archive here");
    run_cmd->callback([r, &action] { action = [r] { return run(*r); }; });

    auto list_src = std::make_shared<Source>();
    auto list_only = std::make_shared<std::string>();
    CLI::App* list_cmd = app.add_subcommand(
        "list", "List the suite's benchmarks and whether Metal can express them");
    add_source(list_cmd, *list_src);
    list_cmd->add_option("--only", *list_only, "Only the benchmarks whose id contains this text");
    list_cmd->callback([=, &action] { action = [=] { return list(*list_src, *list_only); }; });

    auto gen_src = std::make_shared<Source>();
    auto gen_only = std::make_shared<std::string>();
    auto gen_reps = std::make_shared<std::uint32_t>(0);
    CLI::App* gen_cmd = app.add_subcommand("gen", "Print the Metal kernel of one benchmark");
    add_source(gen_cmd, *gen_src);
    gen_cmd->add_option("--only", *gen_only, "The benchmark's id, or text only its id contains")
        ->required();
    gen_cmd->add_option("--repetitions", *gen_reps, "Repetitions (default: the definition's)");
    gen_cmd->callback(
        [=, &action] { action = [=] { return gen(*gen_src, *gen_only, *gen_reps); }; });

    auto suite_from = std::make_shared<std::vector<std::string>>();
    auto suite_out = std::make_shared<std::string>();
    CLI::App* suite_cmd =
        app.add_subcommand("suite", "Write a suite file from measurement files or reference CSVs");
    suite_cmd->add_option("--from", *suite_from, "Measurement files or reference CSVs")
        ->required()
        ->check(CLI::ExistingFile);
    suite_cmd->add_option("-o,--out", *suite_out, "Suite file to write")->required();
    suite_cmd->callback([=, &action] { action = [=] { return suite(*suite_from, *suite_out); }; });

    auto c = std::make_shared<CompileArgs>();
    CLI::App* compile_cmd = app.add_subcommand(
        "compile",
        "Compile a Metal kernel with the suite's settings and save its binary archive (to "
        "disassemble with applegpu and import with `agxsim kernel import`)");
    compile_cmd->add_option("metal", c->metal, "The kernel's Metal source")->required();
    compile_cmd->add_option("-o,--out", c->out, "Directory for the binary archive")->required();
    compile_cmd->add_option("--function", c->function,
                            "The kernel function (default: the file's only one)");
    compile_cmd
        ->add_option("--backend", c->backend, "metal (the GPU) or fake (checks the file only)")
        ->check(CLI::IsMember({"metal", "fake"}));
    compile_cmd->add_flag("--precise", c->precise,
                          "Math mode safe and the precise float functions (default: fast math)");
    compile_cmd->callback([c, &action] { action = [c] { return compile(*c); }; });

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        if (e.get_exit_code() == 0) return app.exit(e);
        std::cerr << "agxsim-probe: " << e.what() << " (see --help)\n";
        return kBadInput;
    }
    try {
        if ((run_cmd->parsed() && r->backend.empty()) ||
            (check_cmd->parsed() && ck->backend.empty()) ||
            (compile_cmd->parsed() && c->backend.empty()))
            throw BackendError(
                "this build has no Metal backend (Metal needs macOS); --backend fake gives "
                "synthetic timings for testing");
        return action ? action() : kOk;
    } catch (const agx::InputError& e) {
        std::cerr << "agxsim-probe: " << e.what() << "\n";
        return kBadInput;
    } catch (const GeneratorError& e) {
        std::cerr << "agxsim-probe: " << e.what() << "\n";
        return kBadInput;
    } catch (const BackendError& e) {
        std::cerr << "agxsim-probe: " << e.what() << "\n";
        return kBadInput;
    } catch (const std::exception& e) {
        std::cerr << "agxsim-probe: internal error: " << e.what() << "\n";
        return kInternal;
    }
}
