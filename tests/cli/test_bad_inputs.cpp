// Guards against what fuzzing finds: a crash on deeply nested JSON, a
// --stats file corrupted by concurrent runs, a hang on a slow DRAM,
// "internal error" on bad input, numbers that reach the statistics
// unchecked, and binary traces that `run` takes but `trace convert` cannot
// write back. Each bad input must give exit 2 and one line naming the file
// and the key or line, and leave no output file.
//
// The inputs are minimised under tests/cli/bad_inputs/ (README.md there says
// what each holds); the deeply nested ones are written here, since what
// matters about them is only their depth.
#include <catch2/catch.hpp>

#include "tests/cli/cli_run.hpp"

#include <sys/wait.h>
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/trace/open_trace.hpp"
#include "sim/trace/trace_writer.hpp"
#include "sim/trace/workload.hpp"

namespace fs = std::filesystem;
using namespace agx_test;

namespace {

std::string bad(const std::string& name) {
    return std::string(AGX_SOURCE_DIR) + "/tests/cli/bad_inputs/" + name;
}

// Runs `agxsim ARGS` under `timeout`, so that a hang fails (exit 124)
// instead of stalling the suite. ARGS may use the shell ($(cat FILE)).
Result agxsim_within(int seconds, const std::string& args) {
    const fs::path out = scratch() / "stdout.txt", err = scratch() / "stderr.txt";
    const std::string cmd = "timeout " + std::to_string(seconds) + " " + agx_test::agxsim_exe() +
                            " " + args + " >" + out.string() + " 2>" + err.string();
    const int status = std::system(cmd.c_str());
    Result r;
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = slurp(out);
    r.err = slurp(err);
    return r;
}

// Exit 2 (not 1, an internal error, nor a signal), one line on stderr
// naming `where` and saying `reason`.
void expect_refused(const std::string& args, const std::string& where, const std::string& reason) {
    const Result r = agxsim_within(120, args);
    INFO("args: " << args.substr(0, 300) << "\nstderr: " << r.err.substr(0, 600));
    CHECK(r.code == 2);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    CHECK(r.err.find(where) != std::string::npos);
    CHECK(r.err.find(reason) != std::string::npos);
    CHECK(r.err.find("internal error") == std::string::npos);
}

// `depth` nested objects {"a": {"a": ... 1 ...}}.
std::string nested_objects(std::size_t depth) {
    std::string s;
    for (std::size_t i = 0; i < depth; ++i) s += "{\"a\":";
    s += "1";
    s.append(depth, '}');
    return s;
}

const std::string kStatsTrace = example("load_wait_use.trace");

}  // namespace

// --- 1. deep nesting -------------------------------------------------------

TEST_CASE("bad inputs: JSON nested 100,000 deep is refused wherever JSON is read, not a crash") {
    const std::string deep = nested_objects(100'000);

    const fs::path cfg = write_file("deep_config.json", deep);
    expect_refused("run -q " + kStatsTrace + " --config " + cfg.string(), "deep_config.json",
                   "nested deeper than 256 levels");

    // Reached through `extends`: the base file is named.
    const fs::path base = write_file("deep_base.json", deep);
    const fs::path child = write_file("extends_deep.json", R"({"extends": "deep_base.json"})");
    expect_refused("config show " + child.string(), "deep_base.json", "nested deeper");

    // A measurement file whose probe record is deep.
    const fs::path meas = write_file(
        "deep_measurement.json",
        R"({"format": "agxsim-measurements", "version": 1, "records": [], "probe": )" + deep + "}");
    expect_refused("validate -m " + meas.string(), "deep_measurement.json", "nested deeper");

    // A profile.
    const fs::path profile =
        write_file("deep_profile.json",
                   R"({"format": "agxsim-profile 1", "instructions": [], "x": )" + deep + "}");
    expect_refused("profile show " + profile.string(), "deep_profile.json", "nested deeper");
}

TEST_CASE("bad inputs: a --set value of 65,000 nested arrays is refused, not a crash") {
    // Given through the shell, so that the command line stays short; the
    // value is one argument of 130,000 characters.
    const fs::path value =
        write_file("deep_set.txt", std::string(65'000, '[') + std::string(65'000, ']'));
    const Result r =
        agxsim_within(120, "run -q " + kStatsTrace + " --set \"core.l1d.size_bytes=$(cat " +
                               value.string() + ")\"");
    INFO(r.err.substr(0, 400));
    CHECK(r.code == 2);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    CHECK(r.err.find("--set core.l1d.size_bytes=[[[") != std::string::npos);
    CHECK(r.err.find("nested deeper than 256 levels") != std::string::npos);
    CHECK(r.err.size() < 400);  // the override is quoted shortened
}

TEST_CASE("bad inputs: JSON nested within the limit still reads") {
    // 200 levels: not a setting, so the key is what is wrong, not the depth.
    std::string value = std::string(200, '[') + std::string(200, ']');
    expect_refused("config show m1 --set 'core.l1d.size_bytes=" + value + "'",
                   "core.l1d.size_bytes", "expected a non-negative integer");
}

// --- 2. concurrent output files ------------------------------------------

TEST_CASE("bad inputs: an output file's temporary is its own, so concurrent runs never mix") {
    const fs::path stats = scratch() / "same.json";
    fs::remove(stats);
    // What another run writing the same file had in progress under the old
    // fixed temporary name: a run must neither write into it nor rename it.
    const fs::path other = scratch() / "same.json.partial";
    std::ofstream(other) << "another run's half-written statistics";
    const Result r = agxsim("run -q " + kStatsTrace + " --stats " + stats.string());
    INFO(r.err);
    REQUIRE(r.code == 0);
    CHECK(nlohmann::json::parse(slurp(stats)).at("cycles").is_number_unsigned());
    CHECK(slurp(other) == "another run's half-written statistics");
    fs::remove(other);

    // Runs at once on the same file: whichever renames last wins, whole.
    for (int round = 0; round < 3; ++round) {
        std::string cmd = "(";
        for (int i = 0; i < 6; ++i)
            cmd += agx_test::agxsim_exe() + " run -q " + kStatsTrace + " --stats " +
                   stats.string() + " & ";
        cmd += "wait) >/dev/null 2>&1";
        REQUIRE(std::system(cmd.c_str()) == 0);
        const auto j = nlohmann::json::parse(slurp(stats));  // throws if mixed
        CHECK(j.at("cycles").is_number_unsigned());
        CHECK_FALSE(partial_left(stats));
    }
}

TEST_CASE("bad inputs: report directories and trace conversions are completed whole") {
    // Several conversions to one file at once: the file is one of them, whole.
    const fs::path out = scratch() / "converted.trace";
    std::string cmd = "(";
    for (int i = 0; i < 6; ++i)
        cmd += agx_test::agxsim_exe() + " trace convert " + example("imad_fadd_mix.trace") + " " +
               out.string() + " --format text & ";
    cmd += "wait) >/dev/null 2>&1";
    REQUIRE(std::system(cmd.c_str()) == 0);
    CHECK(agxsim("run -q " + out.string()).code == 0);
    CHECK_FALSE(partial_left(out));

    // Two runs given one report directory: one completes it, neither mixes.
    const fs::path dir = scratch() / "report";
    fs::remove_all(dir);
    cmd = "(";
    for (int i = 0; i < 2; ++i)
        cmd +=
            agx_test::agxsim_exe() + " run -q " + kStatsTrace + " --report " + dir.string() + " & ";
    cmd += "wait) >/dev/null 2>&1";
    std::system(cmd.c_str());
    REQUIRE(fs::exists(dir / "stats.json"));
    CHECK(nlohmann::json::parse(slurp(dir / "stats.json")).at("cycles").is_number_unsigned());
    CHECK_FALSE(partial_left(dir));
}

// --- 3. rates and latencies ----------------------------------------------

TEST_CASE("bad inputs: a DRAM efficiency of 1e-12 is refused at once, not a hang") {
    expect_refused("run -q " + kStatsTrace + " --set memory.dram.efficiency=1e-12",
                   "memory.dram.efficiency", "out of range: 1e-12 (must be 0.01 to 1)");
    // The slowest DRAM the range allows runs, and promptly.
    const fs::path stats = scratch() / "slow.json";
    const Result r =
        agxsim_within(120, "run -q " + kStatsTrace + " --set memory.dram.efficiency=0.01 --stats " +
                               stats.string());
    INFO(r.err);
    CHECK(r.code == 0);
}

TEST_CASE("bad inputs: rates and latencies outside their physical range are refused") {
    const std::string run = "config show m1 --set ";
    expect_refused(run + "clock_ghz=0.001", "clock_ghz", "must be 0.1 to 10");
    expect_refused(run + "memory.dram.data_rate_mtps=1", "memory.dram.data_rate_mtps",
                   "must be 100 to 100000");
    expect_refused(run + "memory.dram.latency_ns=1000000", "memory.dram.latency_ns",
                   "must be 1 to 10000");
    expect_refused(run + "memory.dram.bus_width_bits=4000000000", "memory.dram.bus_width_bits",
                   "must be 8 to 16384");
    expect_refused(run + "memory.l2.hit_latency_ns=4000000000", "memory.l2.hit_latency_ns",
                   "must be 0.1 to 50000 ns");
    expect_refused(run + "memory.slc.bytes_per_ns=0", "memory.slc.bytes_per_ns",
                   "must be 0.1 to 10000 bytes per ns");
    expect_refused(run + "memory.l2.set_hash_bits=64", "memory.l2.set_hash_bits",
                   "must be 0 to 48");
    expect_refused(run + "memory.dram.set_index=xor", "memory.dram.set_index", "");
    expect_refused(run + "memory.dram.address_mapping=hashed", "memory.dram.address_mapping",
                   "expected one of: low_bits, xor, ipoly");
    // A hashed mapping takes channel and bank numbers from address bits.
    expect_refused(run + "memory.dram.channels=12 --set memory.dram.bus_width_bits=192",
                   "memory.dram.channels",
                   "12 is not a power of two, which address_mapping ipoly needs");
    expect_refused(run + "core.l1d.bytes_per_cycle=4000000000", "core.l1d.bytes_per_cycle",
                   "must be 1 to 4096");
    expect_refused(run + "core.timing.threadgroup_load.latency=4000000000",
                   "core.timing.threadgroup_load.latency", "must be");
    // Without their bounds these two would be an internal error (out of
    // memory, a model's own limit).
    expect_refused(run + "memory.l2.mshrs=4000000000", "memory.l2.mshrs", "must be 1 to 4096");
    expect_refused(run + "core.register_cache.entries=4000000000", "core.register_cache.entries",
                   "must be 1 to 256");
}

// --- 4. bad input, not internal errors ------------------------------------

TEST_CASE("bad inputs: a JSON number beyond a double names its file") {
    expect_refused("run -q " + kStatsTrace + " --config " + bad("config_number_overflow.json"),
                   "config_number_overflow.json", "number overflow parsing '1e999'");
    expect_refused("validate -m " + bad("measurement_number_overflow.json"),
                   "measurement_number_overflow.json", "number overflow parsing '1e999'");
}

TEST_CASE("bad inputs: a measurement file's fields of the wrong JSON type") {
    expect_refused("validate -m " + bad("measurement_description_type.json"),
                   "measurement_description_type.json: description", "expected a string");
    expect_refused("validate -m " + bad("measurement_format_type.json"),
                   "measurement_format_type.json", "\"format\": \"agxsim-measurements\"");
    expect_refused("validate -m " + bad("measurement_version_type.json"),
                   "measurement_version_type.json: version", "expected the integer 1");
    expect_refused("validate -m " + bad("measurement_qualifier_type.json"),
                   "measurement_qualifier_type.json: records[0].qualifier", "expected a string");
    expect_refused("validate -m " + bad("measurement_raw_type.json"),
                   "measurement_raw_type.json: records[0].raw", "expected a string");
}

TEST_CASE("bad inputs: a reference CSV's integer cell missing or not a number") {
    expect_refused("validate -m " + bad("reference_missing_integer.csv"),
                   "reference_missing_integer.csv:2: ilp", "missing");
    expect_refused("validate -m " + bad("reference_not_integer.csv"),
                   "reference_not_integer.csv:2: simds_per_core",
                   "expected a non-negative integer below 2^32, got 'eight'");
}

// --- 5. numbers in range ---------------------------------------------------

TEST_CASE("bad inputs: a measured figure is positive, so no statistic is nan% or below -100%") {
    expect_refused("validate -m " + bad("measurement_value_zero.json"),
                   "measurement_value_zero.json: records[0].value", "out of range: 0");
    expect_refused("validate -m " + bad("measurement_value_negative.json"),
                   "measurement_value_negative.json: records[0].value", "out of range: -3.9");
    expect_refused("validate -m " + bad("reference_nan_figure.csv"), "reference_nan_figure.csv:2",
                   "the figure 'nan' is out of range");
    expect_refused("validate -m " + bad("measurement_overhead_range.json"),
                   "measurement_overhead_range.json: records[0].benchmark.overhead_cycles",
                   "must be 0 to 1000000 cycles");
}

TEST_CASE("bad inputs: a profile's counts are counts") {
    expect_refused("profile show " + bad("profile_negative_count.json"),
                   "profile_negative_count.json: instructions[0].issues", "expected a count");
    expect_refused("profile show " + bad("profile_pc_type.json"),
                   "profile_pc_type.json: instructions[0].pc", "expected a count");
}

// --- 6. binary traces round-trip or are refused ----------------------------

TEST_CASE("bad inputs: binary traces that the text format cannot hold are refused on read") {
    const struct {
        const char* file;
        const char* reason;
    } cases[] = {
        {"operand_kind0.agxb", "fadd32 source 2: operand of kind 0 (none)"},
        {"kernel_name_blank.agxb", "kernel name with a blank"},
        {"kernel_name_newline.agxb", "kernel name with a blank, line break"},
        {"kernel_name_hash.agxb", "kernel name with '#'"},
        {"kernel_name_long.agxb", "a kernel name of 65524 bytes (at most 65523)"},
    };
    for (const auto& c : cases) {
        expect_refused("run -q " + bad(c.file), c.file, c.reason);
        const fs::path out = scratch() / "never.trace";
        fs::remove(out);
        expect_refused("trace convert " + bad(c.file) + " " + out.string() + " --format text",
                       c.file, c.reason);
        CHECK_FALSE(fs::exists(out));
        CHECK_FALSE(partial_left(out));
    }
    // The base they were made from is fine.
    CHECK(agxsim("run -q " + bad("binary_base.trace")).code == 0);
}

TEST_CASE("bad inputs: a kernel name no trace can hold is refused when written") {
    const struct {
        const char* file;
        const char* where;
        const char* reason;
    } cases[] = {
        {"kernel_name_long.agxk", "kernel name 'kkkkkkkk", "65524 bytes (at most 65523)"},
        {"kernel_name_control.agxk", "kernel name 'bad?name'", "control character"},
    };
    for (const auto& c : cases) {
        const fs::path out = scratch() / "never.agxb";
        fs::remove(out);
        expect_refused("kernel record " + bad(c.file) + " -o " + out.string(), c.where, c.reason);
        CHECK_FALSE(fs::exists(out));
        CHECK_FALSE(partial_left(out));
    }
}

TEST_CASE("trace convert: every example goes text -> binary -> text -> binary byte for byte") {
    // The example's own binary keeps its line numbers, comments counted; the
    // text the converter writes has none, so the bytes repeat from there:
    // T0 -> B1 -> T1 -> B2 -> T2 -> B3 with T1 == T2 and B2 == B3, and B1
    // holds the same instructions as B2 but for their source lines.
    const fs::path dir = fs::path(AGX_SOURCE_DIR) / "traces" / "examples";
    std::vector<fs::path> examples;
    for (const auto& e : fs::directory_iterator(dir))
        if (e.path().extension() == ".trace") examples.push_back(e.path());
    REQUIRE(examples.size() >= 5);
    for (const fs::path& t0 : examples) {
        const std::string n = (scratch() / t0.stem()).string();
        const std::string b1 = n + ".1.agxb", t1 = n + ".1.trace", b2 = n + ".2.agxb",
                          t2 = n + ".2.trace", b3 = n + ".3.agxb";
        INFO(t0);
        REQUIRE(agxsim("trace convert " + t0.string() + " " + b1).code == 0);
        REQUIRE(agxsim("trace convert " + b1 + " " + t1 + " --format text").code == 0);
        REQUIRE(agxsim("trace convert " + t1 + " " + b2).code == 0);
        REQUIRE(agxsim("trace convert " + b2 + " " + t2 + " --format text").code == 0);
        REQUIRE(agxsim("trace convert " + t2 + " " + b3).code == 0);
        CHECK(slurp(t1) == slurp(t2));
        CHECK(slurp(b2) == slurp(b3));

        auto w1 = agx::open_trace(b1), w2 = agx::open_trace(b2);
        REQUIRE(w1->launch().threadgroups == w2->launch().threadgroups);
        const std::uint32_t simds = w1->launch().simds_per_threadgroup();
        for (std::uint32_t g = 0; g < w1->launch().threadgroups; ++g)
            for (std::uint32_t s = 0; s < simds; ++s) {
                auto a = w1->open(g, s), b = w2->open(g, s);
                std::uint64_t count = 0;
                for (; a->peek() && b->peek(); a->advance(), b->advance(), ++count)
                    if (!agx::same_instruction(*a->peek(), *b->peek(), false)) break;
                INFO("threadgroup " << g << " simd " << s << " instruction " << count);
                CHECK(a->peek() == nullptr);
                CHECK(b->peek() == nullptr);
            }
    }
}

// --- 7. found by the fuzz targets (tests/fuzz/) ---------------------------

TEST_CASE("bad inputs: a binary trace holds only what its text form can say") {
    // A threadgroup store past the launch's threadgroup memory: the binary
    // reader took it, and `trace convert --format text` wrote a trace that
    // the text reader refused.
    const char* file = "threadgroup_outside.agxb";
    const char* reason =
        "threadgroup_store lane 4 address 0x10 (4 bytes) is outside the launch's "
        "threadgroup_memory=16";
    expect_refused("run -q " + bad(file), file, reason);
    const fs::path out = scratch() / "never.trace";
    fs::remove(out);
    expect_refused("trace convert " + bad(file) + " " + out.string() + " --format text", file,
                   reason);
    CHECK_FALSE(fs::exists(out));
}

TEST_CASE("bad inputs: a --set value that is not JSON must be UTF-8 text") {
    // Taken as a string, it made `config show` fail with an internal error.
    expect_refused("config show m1 --set \"$(printf 'name=m1-\\377')\"", "--set name=m1-",
                   "the value is not UTF-8 text");
}

TEST_CASE("bad inputs: a reference CSV with a repeated row or bytes that are not UTF-8") {
    // `data import` wrote measurement files that `validate` then refused
    // (a duplicate id), or failed with an internal error writing the JSON.
    const std::vector<std::string> commands = {"validate -m ",
                                               "data import -o " + scratch().string() + " "};
    for (const std::string& command : commands) {
        expect_refused(command + bad("reference_repeated_row.csv"), "reference_repeated_row.csv:3",
                       "is already given at " + bad("reference_repeated_row.csv") + ":2");
        expect_refused(command + bad("reference_not_utf8.csv"), "reference_not_utf8.csv:2",
                       "not UTF-8 text");
    }
    CHECK_FALSE(fs::exists(scratch() / "reference_repeated_row.json"));
}

TEST_CASE("bad inputs: kernel import checks the attributes it writes, as the kernel reader does") {
    // applegpu's exec-mask count copied as written: the imported kernel did
    // not load.
    expect_refused("kernel import " + bad("import_exec_levels.dis"), "import_exec_levels.dis:2",
                   "bad n=");
}

// --- 7. config keys that do nothing ----------------------------------------

// Overrides that make a run stop mid-way: the first instruction fetch waits
// on DRAM longer than the deadlock detector allows.
const std::string kSlowerThanDetector =
    " --set core.deadlock_cycles=1000 --set memory.dram.latency_ns=2000";

TEST_CASE("bad inputs: the number of wait slots is the ISA's, not a config key") {
    // core.wait_slots changed nothing: the encoding has 2 slots, and traces
    // and kernels are checked against them whatever the key said.
    expect_refused("config show m1 --set core.wait_slots=4", "core.wait_slots", "unknown key");
    const fs::path trace =
        write_file("slot2.trace",
                   "agxsim-trace 1\nkernel name=slot2\n"
                   "launch threads_per_threadgroup=32 threadgroups=1 registers=16 "
                   "threadgroup_memory=0\nsimd 0\n"
                   "  device_load r4, u0_u1 slot=2 size=32 addr=0x10000+4*lane\n"
                   "  wait 0\nend\n");
    expect_refused("run -q " + trace.string(), "slot2.trace:5", "slot");
}

// --- 8. operand widths --------------------------------------------------------

TEST_CASE("bad inputs: a 32-bit operand is one register, not the halves of two") {
    expect_refused("run -q " + bad("operand_straddle.trace"), "operand_straddle.trace:8",
                   "a 32-bit operand is one register, not the halves of two");
    // Memory data may still be a run of halves.
    const fs::path trace =
        write_file("halves_data.trace",
                   "agxsim-trace 1\nkernel name=halves_data\n"
                   "launch threads_per_threadgroup=32 threadgroups=1 registers=8 "
                   "threadgroup_memory=0\nsimd 0\n"
                   "  device_load r0h_r1l, u0_u1 slot=0 size=32 addr=0x10000+4*lane\n"
                   "  wait 0\nend\n");
    const Result r = agxsim_within(120, "run -q " + trace.string());
    INFO(r.err);
    CHECK(r.code == 0);
}

// --- 9. small ones ------------------------------------------------------------

TEST_CASE("bad inputs: a repeat count beyond its limit names the limit") {
    expect_refused("run -q " + bad("repeat_too_many.trace"), "repeat_too_many.trace:7",
                   "(expected 1 to 4294967295)");
}

TEST_CASE("bad inputs: a run stopped by an error prints the error alone") {
    // A deadlock found mid-run (instruction fetches from a DRAM slower than
    // the detector's threshold): SystemC's "Simulation stopped by user" note
    // must not add a second line, on stdout, even with -q.
    for (const std::string quiet : {"-q ", ""}) {
        const Result r = agxsim_within(120, "run " + quiet + kStatsTrace + kSlowerThanDetector);
        INFO(quiet << "\nstdout: " << r.out << "\nstderr: " << r.err);
        CHECK(r.code != 0);
        CHECK(r.err.find("deadlock at cycle") != std::string::npos);
        CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
        CHECK(r.out.find("stopped by user") == std::string::npos);
        CHECK(r.err.find("stopped by user") == std::string::npos);
        if (!quiet.empty()) CHECK(r.out.empty());
    }
}

TEST_CASE("bad inputs: validate fails when its simulations fail") {
    // Every simulation stopped by the deadlock detector: validate must not
    // print its table and exit 0. The memory points run measured or not, and
    // a failure among them is a failure too (not "not measured").
    const std::string file = std::string(AGX_SOURCE_DIR) + "/validation/data/memory_m1.json";
    const fs::path report = scratch() / "failed_report";
    fs::remove_all(report);
    const Result r = agxsim_within(300, "validate -c m1 -m " + file + " --only pointer_chase/1" +
                                            kSlowerThanDetector + " --report " + report.string());
    INFO("stdout: " << r.out.substr(0, 3000) << "\nstderr: " << r.err);
    CHECK(r.code == 3);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    CHECK(r.err.find("failed") != std::string::npos);
    CHECK(r.out.find(" failed ") != std::string::npos);
    CHECK(r.out.find("(simulation failed: ") != std::string::npos);
    // The report is written whole, and counts them.
    const auto summary = nlohmann::json::parse(slurp(report / "summary.json"));
    INFO(summary.dump());
    CHECK(summary.dump().find("\"failed\":0") == std::string::npos);
    CHECK(summary.dump().find("\"failed\":") != std::string::npos);
}

TEST_CASE("bad inputs: launch expressions in checked 64-bit arithmetic, nested to a limit") {
    const std::string run =
        "run " + std::string(AGX_SOURCE_DIR) + "/traces/kernels/saxpy.agxk --set ";
    const std::string leaves = "the value leaves 64-bit signed integers";
    // INT64_MIN / -1 once killed the process with SIGFPE.
    expect_refused(run + "'launch.n=(-9223372036854775807-1)/-1'", "launch.n", leaves);
    expect_refused(run + "'launch.n=-(-9223372036854775807-1)'", "launch.n", leaves);
    expect_refused(run + "launch.n=9223372036854775807+1", "launch.n", leaves);
    expect_refused(run + "launch.n=3037000500*3037000500", "launch.n", leaves);
    expect_refused(run + "launch.n=1/0", "launch.n", "division by zero");
    // 65,000 nested parentheses once overflowed the stack (50,000 here: one
    // argument of a command line holds at most 128 KB); the message elides
    // the expression in the middle.
    const std::string deep = std::string(50000, '(') + "1" + std::string(50000, ')');
    expect_refused(run + "'launch.n=" + deep + "'", "launch.n", "nested deeper than 200 levels");
    const Result r = agxsim(run + "'launch.n=" + deep + "'");
    CHECK(r.err.size() < 300);
    // Within the limits an expression still evaluates: INT64_MIN % -1 is 0.
    const Result ok = agxsim(run + "'launch.n=2048+(-9223372036854775807-1)%-1' -q");
    CHECK(ok.code == 0);
}

TEST_CASE("launch expressions read numbers as decimal or 0x hex, never octal") {
    // A leading zero once made a number octal: 040 was 32 and 09 refused.
    const std::string run =
        "run " + std::string(AGX_SOURCE_DIR) + "/traces/kernels/saxpy.agxk -q --stats ";
    auto threads = [&](const std::string& n) {
        const fs::path stats = scratch() / "numbers.json";
        const Result r = agxsim(run + stats.string() + " --set launch.n=" + n);
        INFO(n << ": " << r.err);
        REQUIRE(r.code == 0);
        return nlohmann::json::parse(slurp(stats)).at("simd_instructions").get<std::uint64_t>();
    };
    const auto forty = threads("40");
    CHECK(threads("040") == forty);
    CHECK(threads("0x28") == forty);
    CHECK(threads("09") == threads("9"));
    CHECK(threads("32") != forty);
}

// --- 10. the output policy ----------------------------------------------------

TEST_CASE("bad inputs: an output replaces only a regular file that is no input or other output") {
    // Renaming over a FIFO, a device node, a symbolic link or a read-only
    // file once replaced it with a regular file, exit 0 (as root, --dump
    // y=/dev/null replaced the machine's /dev/null). Each is refused with
    // one line and left as it was.
    const fs::path dir = scratch() / "special";
    fs::remove_all(dir);
    fs::create_directories(dir / "a_directory");
    const std::string kernel = (dir / "k.agxk").string();
    fs::copy_file(std::string(AGX_SOURCE_DIR) + "/traces/kernels/saxpy.agxk", kernel);
    const std::string run = "run -q " + kernel + " --set launch.n=256 ";
    REQUIRE(std::system(("mkfifo " + (dir / "fifo").string()).c_str()) == 0);
    std::ofstream(dir / "target.txt") << "kept";
    fs::create_symlink("target.txt", dir / "link");
    std::ofstream(dir / "read_only.txt") << "kept";
    fs::permissions(dir / "read_only.txt", fs::perms::owner_read | fs::perms::group_read);
    // A device node (a copy of /dev/null's) where the test may make one.
    const bool device =
        std::system(("mknod " + (dir / "null").string() + " c 1 3 2>/dev/null").c_str()) == 0;

    expect_refused(run + "--dump y=" + (dir / "fifo").string(), "fifo", "is a FIFO");
    CHECK(fs::is_fifo(dir / "fifo"));
    if (device) {
        expect_refused(run + "--dump y=" + (dir / "null").string(), "null",
                       "is a character device");
        CHECK(fs::is_character_file(dir / "null"));
    }
    expect_refused(run + "--dump y=" + (dir / "link").string(), "link", "is a symbolic link");
    CHECK(fs::is_symlink(dir / "link"));
    CHECK(slurp(dir / "target.txt") == "kept");
    expect_refused(run + "--stats " + (dir / "read_only.txt").string(), "read_only.txt",
                   "is read-only");
    CHECK(slurp(dir / "read_only.txt") == "kept");
    expect_refused(run + "--profile " + (dir / "a_directory").string(), "a_directory",
                   "is a directory");

    // An output that is an input of the command, or another output.
    const std::string kernel_text = slurp(kernel);
    expect_refused("kernel record " + kernel + " -o " + kernel, "k.agxk", "is an input");
    expect_refused(run + "--dump y=" + kernel, "k.agxk", "is an input");
    expect_refused("trace convert " + kernel + " " + kernel, "k.agxk", "is an input");
    CHECK(slurp(kernel) == kernel_text);
    const fs::path same = dir / "same.json";
    expect_refused(run + "--stats " + same.string() + " --profile " + same.string(), "same.json",
                   "two outputs");
    // A dump and a report directory of one name once left the dump behind.
    expect_refused(run + "--dump y=" + (dir / "r").string() + " --report " + (dir / "r").string(),
                   "r", "two outputs");
    CHECK_FALSE(fs::exists(dir / "r"));
    CHECK_FALSE(fs::exists(same));
    CHECK_FALSE(partial_left(same));
}

TEST_CASE("bad inputs: an output stops at its first write error, with the reason") {
    // A 2^40-byte sparse buffer dumped to a full disk once ran on for hours
    // before failing. A file size limit stands in for the full disk.
    const fs::path k = write_file("huge_dump.agxk",
                                  "agxsim-kernel 1\n"
                                  "launch grid=32 threadgroup=32 registers=4\n"
                                  "buffer y size=1099511627776 fill=zero\n"
                                  "uniform u0_u1 buffer=y\n"
                                  "  stop\n");
    const fs::path dump = scratch() / "huge_dump.bin";
    const fs::path err = scratch() / "stderr.txt";
    const std::string cmd = "sh -c \"trap '' XFSZ; ulimit -f 64; exec timeout 60 " +
                            agx_test::agxsim_exe() + " run -q " + k.string() +
                            " --dump y=" + dump.string() + "\" 2>" + err.string();
    const int status = std::system(cmd.c_str());
    const std::string text = slurp(err);
    INFO(text);
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 2);
    CHECK(text.find("huge_dump.bin: cannot write: File too large") != std::string::npos);
    CHECK(std::count(text.begin(), text.end(), '\n') == 1);
    CHECK_FALSE(fs::exists(dump));
    CHECK_FALSE(partial_left(dump));
}

// --- 11. bounded inputs -------------------------------------------------------

TEST_CASE("bad inputs: a reader refuses a device, a FIFO, a directory or a file past its limit") {
    // `agxsim run /dev/zero` and ten other readers once grew to 0.5-1.7 GB
    // in 10 s; a directory read as an empty file. Each is refused before it
    // is read, in a moment.
    const fs::path dir = scratch() / "inputs";
    fs::remove_all(dir);
    fs::create_directories(dir / "a_directory");
    const std::string fifo = (dir / "fifo").string();
    REQUIRE(std::system(("mkfifo " + fifo).c_str()) == 0);
    const std::string kernel = std::string(AGX_SOURCE_DIR) + "/traces/kernels/saxpy.agxk";
    const std::string device = "/dev/zero";  // only read
    const std::string folder = (dir / "a_directory").string();
    for (const std::string& special : {device, fifo, folder}) {
        const std::string kind = special == device ? "a character device"
                                 : special == fifo ? "a FIFO"
                                                   : "a directory";
        const auto refused = [&](const std::string& args, const std::string& what) {
            const Result r = agxsim_within(20, args);
            INFO(args << "\nstderr: " << r.err);
            CHECK(r.code == 2);
            CHECK(r.err == "agxsim: " + special + ": cannot open " + what + ": it is " + kind +
                               ", not a regular file\n");
        };
        refused("run " + special, "trace");
        refused("run -q " + kernel + " --launch " + special, "launch file");
        refused("profile show " + special, "profile");
        refused("sweep check " + special, "the sweep description");
        refused("kernel import " + special, "listing");
        refused("trace convert " + special + " " + (dir / "out.agxb").string(), "trace");
        const fs::path fill = write_file("fill_from_special.agxk",
                                         "agxsim-kernel 1\n"
                                         "launch grid=32 threadgroup=32 registers=4\n"
                                         "buffer x size=128 fill=file path=" +
                                             special + "\n  stop\n");
        refused("run -q " + fill.string(), "buffer data");
    }
    // A file past its format's limit is refused by its size, unread (a
    // sparse file here).
    const fs::path huge = dir / "huge.json";
    std::ofstream(huge).put('{');
    fs::resize_file(huge, 300u << 20);
    expect_refused("profile show " + huge.string(), "huge.json",
                   "314572800 bytes, more than the limit of 256 MiB");
    expect_refused("validate -m " + huge.string(), "huge.json", "more than the limit of 256 MiB");
}

// --- 12. count options --------------------------------------------------------

TEST_CASE("bad inputs: a count option takes a decimal count in its range and nothing else") {
    // --max-instructions -1 (and 2^64) once meant unlimited and "" meant 0;
    // --timeline-max-events -1 and --top -1 were taken.
    const std::string kernel = std::string(AGX_SOURCE_DIR) + "/traces/kernels/saxpy.agxk";
    const std::string run = "run -q " + kernel + " --set launch.n=256 ";
    for (const std::string value : {"-1", "18446744073709551616", "''", "1e3", "0x10", "0", "+5"})
        expect_refused(run + "--max-instructions " + value, "--max-instructions",
                       "expected a count from 1 to 18446744073709551615");
    expect_refused(run + "--timeline-max-events -1 --timeline " +
                       (scratch() / "counts_timeline.json").string(),
                   "--timeline-max-events", "got '-1'");
    expect_refused(run + "--max-simd-instructions -1", "--max-simd-instructions",
                   "expected a count from 0 to");
    const fs::path profile = scratch() / "counts_profile.json";
    REQUIRE(agxsim(run + "--profile " + profile.string()).code == 0);
    expect_refused("profile show " + profile.string() + " --top -1", "--top", "got '-1'");
    expect_refused("sweep run x.json --out x -j 0", "--jobs", "expected a count from 1 to 1024");
    // A long value is elided in the middle.
    const Result r = agxsim(run + "--max-instructions " + std::string(5000, '7'));
    CHECK(r.code == 2);
    CHECK(r.err.size() < 200);
    // Counts within the range still work; 0 is "no limit" where it says so.
    CHECK(agxsim(run + "--max-instructions 100000 --max-simd-instructions 0").code == 0);
    CHECK(agxsim("profile show " + profile.string() + " --top 2").code == 0);
}

// --- 13. messages -------------------------------------------------------------

TEST_CASE("bad inputs: every message is one line of bounded length, whatever the input holds") {
    // Error lines once repeated the whole bad value (65 KB-1.5 MB), a NUL
    // byte cut a message mid-word, and a newline in a file name made two
    // lines. Control characters show as escapes; a long value is elided in
    // its middle.
    const std::string kernel = std::string(AGX_SOURCE_DIR) + "/traces/kernels/saxpy.agxk";
    const std::string run = "run -q " + kernel + " ";
    const std::string long_value(60000, 'x');
    for (const std::string& args :
         {run + "--set core.l1d.size_bytes=" + long_value, run + "--set " + long_value + "=1",
          run + "--dump " + long_value + "=y", run + "--cores " + long_value,
          run + "-c " + long_value, run + "--timeline-window " + long_value}) {
        const Result r = agxsim_within(60, args);
        INFO(args.substr(0, 80) << "\nstderr: " << r.err.substr(0, 400));
        CHECK(r.code == 2);
        CHECK(r.err.size() < 400);
        CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    }
    std::string text = slurp(kernel);
    text.replace(text.find("    stop"), 8, std::string("    st\0op", 9));
    const fs::path nul = write_file("nul_in_mnemonic.agxk", text);
    expect_refused(run.substr(0, 7) + nul.string(), "nul_in_mnemonic.agxk:22",
                   "unknown mnemonic 'st\\x00op'");
    text = slurp(kernel);
    text.replace(text.find("    stop"), 8, "    st\x1b[31mop");
    const fs::path esc = write_file("escape_in_mnemonic.agxk", text);
    expect_refused(run.substr(0, 7) + esc.string(), "escape_in_mnemonic.agxk:22",
                   "unknown mnemonic 'st\\x1b[31mop'");
    expect_refused("run 'no\nsuch'", "no\\nsuch", "cannot open trace");
}

// --- 14. kernel import ----------------------------------------------------------

TEST_CASE("bad inputs: kernel import takes only directives from --launch and every listing line") {
    const std::string dir = std::string(AGX_SOURCE_DIR) + "/traces/kernels/imported/";
    const fs::path out = scratch() / "imported_bad.agxk";
    fs::remove(out);
    // A code line in the launch file was copied into the kernel, ahead of
    // the listing's code: `stop` made every output 0, exit 0.
    const fs::path launch =
        write_file("code_in_launch.launch", slurp(dir + "collatz.launch") + "    stop\n");
    expect_refused(
        "kernel import " + dir + "collatz.dis --launch " + launch.string() + " -o " + out.string(),
        "code_in_launch.launch:8", "'stop' is not a launch directive");
    // An instruction line with a malformed offset or bytes was dropped, and
    // the kernel computed wrong results.
    const std::string listing = slurp(dir + "collatz.dis");
    const std::string line = "  4c: 0e0d461200000000";
    REQUIRE(listing.find(line) != std::string::npos);
    for (const std::string bad :
         {"  4g: 0e0d461200000000", "  4c 0e0d461200000000", "  4c: 0e0d46120000000"}) {
        std::string text = listing;
        text.replace(text.find(line), line.size(), bad);
        const fs::path dis = write_file("malformed_offset.dis", text);
        expect_refused("kernel import " + dis.string() + " -o " + out.string(),
                       "malformed_offset.dis:20", "does not read as 'OFFSET: BYTES mnemonic");
    }
    CHECK_FALSE(fs::exists(out));
}

// --- 12f, 8c. empty tables and edited sweep manifests ----------------------------

TEST_CASE("bad inputs: data import refuses a table with no rows and writes nothing") {
    // An empty CSV (or one of a blank line) once gave "(0 records)", exit 0.
    const fs::path out = scratch() / "import_out";
    fs::remove_all(out);
    fs::create_directories(out);
    const fs::path good =
        std::string(AGX_SOURCE_DIR) + "/validation/data/metal-benchmarks/float_instructions.csv";
    for (const std::string& text : {std::string(), std::string("\n")}) {
        const fs::path empty = write_file("empty_table.csv", text);
        // The good table first: nothing of it is written either.
        expect_refused(
            "data import -o " + out.string() + " " + good.string() + " " + empty.string(),
            "empty_table.csv", "holds no measurement rows");
        CHECK(fs::is_empty(out));
    }
}

TEST_CASE(
    "bad inputs: a sweep manifest whose fields have other types is refused, not an "
    "internal error") {
    // A version written as a string gave exit 1, "internal error".
    const fs::path dir = scratch() / "edited_sweep";
    fs::remove_all(dir);
    fs::create_directories(dir);
    for (const std::string& manifest :
         {std::string(
              R"({"agxsim_sweep": "1", "description": {}, "source": "s.json", "base_dir": "."})"),
          std::string(R"({"agxsim_sweep": 1, "description": {}, "base_dir": "."})"),
          std::string(R"({"agxsim_sweep": 1, "description": {}, "source": 3, "base_dir": "."})"),
          std::string(R"([1, 2])")}) {
        std::ofstream(dir / "sweep.json") << manifest;
        for (const char* command : {"sweep collect ", "sweep plot "})
            expect_refused(command + dir.string(), "sweep.json",
                           "not a sweep manifest of this agxsim version");
    }
}

// --- 12a. byte-order marks --------------------------------------------------------

TEST_CASE(
    "bad inputs: a kernel or a trace that starts with a UTF-8 byte-order mark reads as "
    "without it") {
    // A kernel saved by an editor that writes a byte-order mark was "not an
    // agxsim trace".
    // The summary's cycles and instructions (its first line names the file,
    // its host line varies).
    const auto summary = [](const std::string& out) {
        const auto at = out.find("\n  cycles");
        return at == std::string::npos ? std::string() : out.substr(at, out.find("\n  IPC") - at);
    };
    for (const char* file : {"traces/kernels/saxpy.agxk", "traces/examples/ffma_chain.trace"}) {
        const std::string original = std::string(AGX_SOURCE_DIR) + "/" + file;
        const fs::path marked = write_file(std::string("bom_") + fs::path(file).filename().string(),
                                           "\xEF\xBB\xBF" + slurp(original));
        const Result plain = agxsim_within(120, "run " + original);
        const Result with_bom = agxsim_within(120, "run " + marked.string());
        INFO(file << "\nstderr: " << with_bom.err);
        REQUIRE(plain.code == 0);
        CHECK(with_bom.code == 0);
        CHECK(summary(with_bom.out) == summary(plain.out));
    }
}

// --- 11. profile show ------------------------------------------------------------

TEST_CASE(
    "bad inputs: profile show prints each instruction on a row of its own, escaped, and "
    "refuses counts whose sums wrap") {
    const auto entry = [](const std::string& text, const std::string& count) {
        nlohmann::json x = {{"issues", std::stoull(count)},
                            {"lanes", 32},
                            {"line", 1},
                            {"mnemonic", "fadd32"},
                            {"pc", 0},
                            {"register_cache", {{"hits", 0}, {"misses", 0}}},
                            {"text", text},
                            {"waits", {{"dependency", std::stoull(count)}}}};
        return x;
    };
    nlohmann::json p = {
        {"format", "agxsim-profile 1"},
        {"cycles", 10},
        {"instructions",
         {entry(std::string(300, 'a'), "5"), entry("evil \x1b[31mRED\nsecond line", "3")}}};
    const fs::path file = write_file("odd_texts_profile.json", p.dump());
    const Result r = agxsim_within(60, "profile show " + file.string());
    INFO(r.out << r.err);
    REQUIRE(r.code == 0);
    // A heading line, a blank line, the table's head and two rows: a long or
    // multi-line text does not run into the next row.
    const auto table = r.out.substr(r.out.find("\n\n") + 2);
    CHECK(std::count(table.begin(), table.end(), '\n') == 3);
    CHECK(r.out.find('\x1b') == std::string::npos);  // no terminal escape reaches the terminal
    CHECK(r.out.find("evil \\x1b[31mRED\\nsecond line") != std::string::npos);
    CHECK(r.out.find(std::string(80, 'a') + "...") != std::string::npos);

    // Counts of at most 2^53 each, whose sum passes 2^64: refused, not wrapped
    // into shares past 100%.
    nlohmann::json big = {{"format", "agxsim-profile 1"},
                          {"instructions", nlohmann::json::array()}};
    for (int i = 0; i < 2100; ++i) big["instructions"].push_back(entry("x", "9007199254740992"));
    const fs::path wrapping = write_file("wrapping_profile.json", big.dump());
    expect_refused("profile show " + wrapping.string(), "wrapping_profile.json: instructions[",
                   "the counts add up past 2^64");
}

TEST_CASE("bad inputs: a report whose writing fails leaves the directory as it was") {
    // validate --report on a full disk once left a new summary.json beside the
    // old results.csv: a report of two runs. A file size limit of 6 KB stands
    // in for the full disk: the summary fits, the results do not.
    const fs::path dir = scratch() / "report_full";
    fs::remove_all(dir);
    const std::string data = std::string(AGX_SOURCE_DIR) + "/validation/data/";
    const std::string validate =
        agx_test::agxsim_exe() + " validate --config m1-max --summary-only";
    REQUIRE(std::system((validate + " -m " + data + "control_group.json --report " + dir.string() +
                         " >/dev/null")
                            .c_str()) == 0);
    const std::string summary = slurp(dir / "summary.json"), results = slurp(dir / "results.csv");
    const fs::path err = scratch() / "stderr.txt";
    const std::string cmd = "bash -c \"trap '' XFSZ; ulimit -f 6; exec " + validate + " -m " +
                            data + "float_instructions.json --report " + dir.string() +
                            " >/dev/null\" 2>" + err.string();
    const int status = std::system(cmd.c_str());
    const std::string text = slurp(err);
    INFO(text);
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 2);
    CHECK(text.find("results.csv: cannot write: File too large") != std::string::npos);
    CHECK(std::count(text.begin(), text.end(), '\n') == 1);
    CHECK(slurp(dir / "summary.json") == summary);
    CHECK(slurp(dir / "results.csv") == results);
    std::size_t files = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++files;
    CHECK(files == 3);  // summary.json, results.csv, correlation.svg: no partial file
}
