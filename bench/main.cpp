// agxsim_bench: how fast the simulator runs (docs/performance.md).
//
//   build/bench/agxsim_bench [--short] [--json] [--runs N] [--config m1] [--only NAME...]
//
// Every measurement runs in a child process of its own (this executable
// again, with a hidden first argument): SystemC elaborates once per process,
// and the child's peak resident memory is then the measurement's alone.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <systemc>

#include "child.hpp"
#include "report.hpp"
#include "sim/common/child_process.hpp"
#include "workloads.hpp"

namespace agx::bench {

namespace {

constexpr const char* kSimulateChild = "--child-simulate";
constexpr const char* kDecodeChild = "--child-decode";

// Runs this executable again (/proc/self/exe) with `args`, its standard
// error going to ours; its one line of JSON, or the reason it failed.
nlohmann::json measure(const std::vector<std::string>& args, ChildExit& child, std::string& error) {
    std::vector<std::string> argv{"agxsim_bench"};
    argv.insert(argv.end(), args.begin(), args.end());
    ChildOptions options;
    options.out.to = ChildStream::To::Pipe;
    ChildProcess process = ChildProcess::exec("/proc/self/exe", argv, options);
    const std::string output = process.read_output();
    child = process.wait();
    if (child.exit_code() != 0) {
        error = child.exit_code() < 0 ? "killed by a signal"
                                      : "exit code " + std::to_string(child.exit_code());
        return {};
    }
    try {
        return nlohmann::json::parse(output);
    } catch (const std::exception& e) {
        error = std::string("unreadable output: ") + e.what();
        return {};
    }
}

// Each measurement runs `runs` times and keeps the fastest: on a shared
// machine, other work only ever slows a run down.
struct Settings {
    std::string config;
    unsigned runs = 1;
};

// Measures a row `runs` times (`once` makes one measurement) and keeps the
// fastest by `seconds`, with the highest peak memory of all the runs; the
// first failed run is the row.
template <class Row, class Once, class Seconds>
Row fastest_of(unsigned runs, Once once, Seconds seconds) {
    Row best;
    long peak = 0;
    for (unsigned run = 0; run < runs; ++run) {
        Row row = once();
        if (!row.error.empty()) return row;
        peak = std::max(peak, row.peak_rss_kb);
        if (run == 0 || seconds(row) < seconds(best)) best = row;
    }
    best.peak_rss_kb = peak;
    return best;
}

SimulationRow simulate(const std::string& label, const std::string& what,
                       const std::string& workload, std::uint64_t instructions, unsigned cores,
                       const Settings& s, const std::string& trace_dir) {
    std::cerr << "agxsim_bench: " << label << " ..." << std::endl;
    auto once = [&] {
        SimulationRow row;
        row.name = label;
        row.what = what;
        ChildExit child;
        const nlohmann::json j = measure({kSimulateChild, workload, std::to_string(instructions),
                                          std::to_string(cores), s.config, trace_dir},
                                         child, row.error);
        if (!row.error.empty()) return row;
        row.peak_rss_kb = child.max_rss_kb;
        row.cpu_seconds = child.cpu_seconds;
        row.simd_instructions = j.at("simd_instructions").get<std::uint64_t>();
        row.cycles = j.at("cycles").get<std::uint64_t>();
        row.host_seconds = j.at("host_seconds").get<double>();
        row.cores = cores;
        return row;
    };
    return fastest_of<SimulationRow>(s.runs, once,
                                     [](const SimulationRow& r) { return r.host_seconds; });
}

DecodeRow decode(const std::string& kind, const std::string& what, std::uint64_t instructions,
                 const Settings& s, const std::string& dir) {
    std::cerr << "agxsim_bench: decode " << kind << " ..." << std::endl;
    auto once = [&] {
        DecodeRow row;
        row.kind = kind;
        row.what = what;
        ChildExit child;
        const nlohmann::json j =
            measure({kDecodeChild, kind, std::to_string(instructions), dir}, child, row.error);
        if (!row.error.empty()) return row;
        row.peak_rss_kb = child.max_rss_kb;
        row.decode_cpu_seconds = j.at("decode_cpu_seconds").get<double>();
        row.instructions = j.at("instructions").get<std::uint64_t>();
        row.file_bytes = j.at("file_bytes").get<std::uint64_t>();
        row.open_seconds = j.at("open_seconds").get<double>();
        row.decode_seconds = j.at("decode_seconds").get<double>();
        return row;
    };
    return fastest_of<DecodeRow>(s.runs, once, [](const DecodeRow& r) { return r.decode_seconds; });
}

std::string millions(std::uint64_t n) {
    return n % 1'000'000 == 0 ? std::to_string(n / 1'000'000) + "M"
                              : std::to_string(n / 1000) + "k";
}

int run_benchmark(int argc, char** argv) {
    CLI::App app{
        "agxsim_bench: simulated SIMD-instructions and cycles per host second, host ns per "
        "SIMD-instruction and peak memory, for workloads that stress different parts of the "
        "model (docs/performance.md)",
        "agxsim_bench"};
    bool short_run = false, json = false;
    Settings settings;
    settings.config = "m1";
    std::vector<std::string> only;
    app.add_flag("--short", short_run,
                 "A few hundred thousand instructions per workload: proves it runs (CI)");
    app.add_flag("--json", json, "Print the results as JSON instead of a table");
    app.add_option("-c,--config", settings.config, "Machine config")->capture_default_str();
    app.add_option("--runs", settings.runs,
                   "Run every measurement this many times and keep the fastest")
        ->check(CLI::Range(1u, 100u))
        ->capture_default_str();
    app.add_option("--only", only, "Run only these workloads (and no scaling or decode rows)");
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e);
    }
    for (const auto& name : only)
        if (!find_workload(name)) {
            std::cerr << "agxsim_bench: no workload '" << name << "'\n";
            return 2;
        }

    namespace fs = std::filesystem;
    std::string dir_template = (fs::temp_directory_path() / "agxsim-bench-XXXXXX").string();
    if (!::mkdtemp(dir_template.data())) {
        std::cerr << "agxsim_bench: cannot create a temporary directory\n";
        return 1;
    }
    const std::string dir = dir_template;

    Report report;
    report.config = settings.config;
    report.runs = settings.runs;
    report.mode = short_run ? "short" : "full";
    for (const WorkloadSpec& w : workload_specs()) {
        if (!only.empty() && std::find(only.begin(), only.end(), w.name) == only.end()) continue;
        const std::uint64_t n = short_run ? w.short_run : w.full;
        Settings row_settings = settings;
        if (!w.config.empty()) row_settings.config = w.config;
        report.workloads.push_back(simulate(w.name, w.what, w.name, n, w.cores, row_settings, ""));
        if (w.name == "ffma_ilp4")
            report.workloads.push_back(simulate(
                "ffma_ilp4 (trace)", "ffma_ilp4 read from a binary trace (the loop a repeat block)",
                w.name, n, 1, settings, dir));
    }
    if (only.empty()) {
        const std::vector<std::uint64_t> sizes =
            short_run ? std::vector<std::uint64_t>{100'000, 200'000, 400'000}
                      : std::vector<std::uint64_t>{1'000'000, 10'000'000, 100'000'000};
        for (std::uint64_t n : sizes)
            report.scaling.push_back(
                simulate("ffma_ilp4 " + millions(n),
                         "ffma_ilp4 at growing lengths: time should grow linearly, "
                         "memory not at all",
                         "ffma_ilp4", n, 1, settings, ""));
        // The executed kernel at the shortest and longest length: its lane
        // state and device memory must not grow with the run either.
        for (std::uint64_t n : {sizes.front(), sizes.back()})
            report.scaling.push_back(
                simulate("kernel_ilp4 " + millions(n),
                         "kernel_ffma_ilp4 (as kernel_ilp4) at growing lengths", "kernel_ffma_ilp4",
                         n, 1, settings, ""));
        report.decode.push_back(
            decode("repeat",
                   "ffma_ilp4 as a benchmark trace: 88 simds run one section whose loop "
                   "is a repeat block",
                   short_run ? 1'000'000 : 50'000'000, settings, dir));
        report.decode.push_back(
            decode("flat",
                   "stream_load written out flat: 88 sections, every instruction its own "
                   "record, as in a captured trace",
                   short_run ? 200'000 : 5'000'000, settings, dir));
    }
    fs::remove_all(dir);

    if (json)
        std::cout << to_json(report).dump(2) << "\n";
    else
        print_table(std::cout, report);
    bool failed = false;
    for (const auto& r : report.workloads) failed |= !r.error.empty();
    for (const auto& r : report.scaling) failed |= !r.error.empty();
    for (const auto& r : report.decode) failed |= !r.error.empty();
    return failed ? 1 : 0;
}

}  // namespace

}  // namespace agx::bench

// The simulation child runs under the SystemC kernel: sc_main gets its
// arguments (workload, instructions, cores, config, trace directory).
int sc_main(int argc, char* argv[]) {
    if (argc != 7) return 2;
    try {
        return agx::bench::simulate_child(argv[2], std::stoull(argv[3]),
                                          static_cast<unsigned>(std::stoul(argv[4])), argv[5],
                                          argv[6]);
    } catch (const std::exception& e) {
        std::cerr << "agxsim_bench: " << argv[2] << ": " << e.what() << "\n";
        return 1;
    }
}

int main(int argc, char* argv[]) {
    using namespace agx::bench;
    const std::string first = argc > 1 ? argv[1] : "";
    if (first == kSimulateChild) {
        ::setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 1);
        return sc_core::sc_elab_and_sim(argc, argv);
    }
    if (first == kDecodeChild) {
        if (argc != 5) return 2;
        try {
            return decode_child(argv[2], std::stoull(argv[3]), argv[4]);
        } catch (const std::exception& e) {
            std::cerr << "agxsim_bench: decode " << argv[2] << ": " << e.what() << "\n";
            return 1;
        }
    }
    return run_benchmark(argc, argv);
}
