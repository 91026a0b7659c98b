// A whole run on the fake backend: the method (warm-up, trials, steady
// difference) gives the figures the model implies, and the file it writes is
// one `agxsim validate` accepts as it is. Also the agxsim-probe CLI.
#include <catch2/catch.hpp>

#include <map>

#include "probe_test_util.hpp"
#include "validation/probe/fake_backend.hpp"
#include "validation/probe/probe_run.hpp"

using namespace agx::probe;
using namespace probe_test;
using agx::validation::FigureKind;

namespace {

std::vector<SuiteEntry> small_suite() {
    return {{"t/FADD32/throughput", FigureKind::Throughput, throughput("FADD32")},
            {"t/FADD32/latency", FigureKind::Latency, latency("FADD32")},
            {"t/IMUL32 + 3 IADD32/throughput", FigureKind::Throughput,
             throughput("IMUL32 + 3 IADD32")}};
}

agx::validation::MeasurementFile run_small(std::uint64_t seed = 1) {
    FakeOptions f;
    f.seed = seed;
    FakeBackend backend(f);
    RunOptions o;
    o.suite_source = "small suite";
    return run_suite(backend, small_suite(), o);
}

std::string write(const agx::validation::MeasurementFile& file, const std::string& name) {
    const auto path = scratch() / name;
    std::ofstream out(path);
    agx::validation::write_measurements(file, out);
    return path.string();
}

}  // namespace

TEST_CASE("fake run: figures follow the fake model through the whole method") {
    const auto file = run_small();
    REQUIRE(file.records.size() == 3);
    // Throughput at ILP 4 and 88 simds: one FADD32 per scheduler per cycle.
    CHECK(*file.records[0].value == Approx(1.0).epsilon(0.03));
    // Latency: a 3-cycle chain plus the 2000-cycle wave cost over 1440 repetitions.
    CHECK(*file.records[1].value == Approx(3.0 + 2000.0 / 1440).epsilon(0.03));
    // IMUL32 (4 cycles) and 3 IADD32 (1 each) share the issue slots in the fake.
    CHECK(*file.records[2].value == Approx(7.0).epsilon(0.03));
    for (const auto& m : file.records) {
        CHECK(m.qualifier.empty());  // the trials agree within the 5% threshold
        INFO(m.id);
        CHECK(m.probe.at("figure_spread").get<double>() < 0.05);
    }
}

TEST_CASE("fake run: the steady method runs N and 2N kernels and warm-up absorbs the cold start") {
    const auto file = run_small();
    const auto& kernels = file.records[0].probe.at("kernels");
    REQUIRE(kernels.size() == 2);
    CHECK(kernels[0].at("repetitions") == 120);
    CHECK(kernels[1].at("repetitions") == 240);
    CHECK(kernels[0].at("warmup_seconds").size() >= 3);
    // The fake GPU runs its first three dispatches at half clock: the device
    // warm-up (the clock kernel, four command buffers in flight) takes them,
    // and the trials see the top clock.
    const auto& warm = file.probe.at("device_warmup");
    CHECK(warm.at("kernel") == clock_definition().name);
    CHECK(warm.at("gpu_seconds").get<double>() >= 0.5);
    CHECK(warm.at("settled") == true);
    CHECK(warm.at("first_seconds").get<double>() > 1.5 * warm.at("last_seconds").get<double>());
    CHECK(kernels[0].at("spread").get<double>() < 0.02);
}

TEST_CASE("fake run: the same seed gives the same file") {
    // All but the compile phase's wall-clock time.
    auto json = [](std::uint64_t seed) {
        auto j = agx::validation::to_json(run_small(seed));
        j.at("probe").at("compile").erase("seconds");
        return j;
    };
    CHECK(json(7) == json(7));
    CHECK(json(7) != json(8));
}

TEST_CASE("fake run: agxsim validate accepts the file as it is") {
    const std::string path = write(run_small(), "fake_results.json");
    const Result r = shell(std::string(AGXSIM_EXE) + " validate --config m1-max --measurements " +
                           path + " -j 2");
    INFO(r.out << r.err);
    CHECK(r.code == 0);
    CHECK(r.out.find("3 figures") != std::string::npos);
    CHECK(r.out.find("t/FADD32/latency/m1-max") != std::string::npos);
    CHECK(r.out.find("t/IMUL32 + 3 IADD32/throughput/m1-max") != std::string::npos);
}

TEST_CASE("fake run: Total records carry the fixed cost their control kernel measured") {
    auto vec4 = definition("t/FFMA/ilp1/simds8/32bit", "FFMA", 1, 8, 32, 1440,
                           BenchmarkDefinition::Method::Total, OperandShape::Vec4Groups);
    vec4.resident_threadgroups = 4;
    vec4.waves = 100;
    vec4.overhead_cycles = 2448;
    const std::vector<SuiteEntry> suite = {
        {"t/FADD32/throughput", FigureKind::Throughput, throughput("FADD32")},
        {"t/FADD32/latency", FigureKind::Latency, latency("FADD32")},
        {"t/FADD16/latency", FigureKind::Latency, latency("FADD16", 16)},
        {"t/IMUL32/latency", FigureKind::Latency, latency("IMUL32")},
        {"t/FFMA/ilp1/simds8/32bit", FigureKind::IlpOccupancy, vec4}};
    auto run = [&](FakeOptions f) {
        FakeBackend backend(f);
        return run_suite(backend, suite, RunOptions{});
    };
    const auto file = run(FakeOptions{});

    // One control kernel per launch shape and register width, measured
    // before the benchmarks: an empty body costs the fake's 2000 cycles a wave.
    const auto& controls = file.probe.at("control_group");
    REQUIRE(controls.size() == 3);
    std::map<std::string, double> overhead;
    for (const auto& c : controls) {
        INFO(c.dump());
        REQUIRE(c.contains("overhead_cycles"));
        CHECK_FALSE(c.contains("error"));
        overhead[c.at("kernel")] = c.at("overhead_cycles");
        CHECK(c.at("timing") == "counters");
    }
    CHECK(overhead.at("agxsim-probe/control/32bit/simds4") == Approx(2000).epsilon(0.02));
    CHECK(overhead.at("agxsim-probe/control/16bit/simds4") == Approx(2000).epsilon(0.02));
    CHECK(overhead.at("agxsim-probe/control/32bit/simds8/threadgroups4/waves100") ==
          Approx(2000).epsilon(0.02));

    auto check_record = [&](std::size_t i, const std::string& control, double suite_overhead) {
        const auto& m = file.records[i];
        INFO(m.id);
        CHECK(m.benchmark.overhead_cycles == overhead.at(control));
        const auto& o = m.probe.at("overhead");
        CHECK(o.at("source") == "measured");
        CHECK(o.at("control_kernel") == control);
        CHECK(o.at("overhead_cycles") == overhead.at(control));
        CHECK(o.at("suite_overhead_cycles") == suite_overhead);
    };
    check_record(1, "agxsim-probe/control/32bit/simds4", 2448.0);
    check_record(2, "agxsim-probe/control/16bit/simds4", 1684.8);
    check_record(3, "agxsim-probe/control/32bit/simds4", 2448.0);
    check_record(4, "agxsim-probe/control/32bit/simds8/threadgroups4/waves100", 2448.0);
    // The steady method's figure has no fixed cost in it.
    CHECK(file.records[0].benchmark.overhead_cycles == 0);
    CHECK_FALSE(file.records[0].probe.contains("overhead"));

    SECTION("timed by the command buffer, the overhead includes what it adds around the pass") {
        FakeOptions f;
        f.counters = FakeOptions::Counters::None;
        const auto cb = run(f);
        // 20 us around each pass, spread over its 250 waves at 1.296 GHz.
        CHECK(cb.probe.at("control_group")[0].at("overhead_cycles").get<double>() ==
              Approx(2000 + 20e-6 * 1.296e9 / 250).epsilon(0.02));
    }
}

TEST_CASE("fake run: a companion kernel's record names what it ran, and validate simulates it") {
    FakeBackend backend;
    const std::vector<SuiteEntry> suite = {
        {"t/FMAX32/latency", FigureKind::Latency, latency("FMAX32")},
        {"t/RINT32/throughput", FigureKind::Throughput, throughput("RINT32")},
        {"t/FADD32/latency", FigureKind::Latency, latency("FADD32")}};
    const auto file = run_suite(backend, suite, RunOptions{});
    REQUIRE(file.records.size() == 3);

    const auto& fmax = file.records[0];
    REQUIRE(fmax.benchmark.body.size() == 1);
    CHECK(fmax.benchmark.body[0].op == "FMAX32 + FADD32");
    CHECK(fmax.benchmark.body[0].count == 1);
    CHECK(fmax.benchmark.body_label() == "FMAX32 + FADD32");
    CHECK(fmax.id == "t/FMAX32/latency/m1-max");  // the id names the row it measures
    const auto& added = fmax.probe.at("companions");
    REQUIRE(added.size() == 1);
    CHECK(added[0].at("operation") == "FMAX32");
    CHECK(added[0].at("recorded_as") == "FMAX32 + FADD32");
    CHECK(added[0].at("terms")[0].at("companion") == "FADD32");
    CHECK(added[0].at("terms")[0].at("why").get<std::string>().find("fmax returns one of its "
                                                                    "inputs") != std::string::npos);
    // What validate does with the record: it expands, so it is simulated.
    CHECK(agx::validation::unsupported_reason(fmax.benchmark).empty());
    CHECK(agx::validation::expand_operation(fmax.benchmark.body[0].op, 32, fmax.id).size() == 2);
    // The fake GPU runs the companion too: two 3-cycle steps a repetition.
    CHECK(*fmax.value == Approx(6.0 + 2000.0 / 1440).epsilon(0.03));

    CHECK(file.records[1].benchmark.body_label() == "RINT32 + FADD32");
    CHECK(file.records[2].benchmark.body_label() == "FADD32");
    CHECK_FALSE(file.records[2].probe.contains("companions"));

    const std::string path = write(file, "companion_results.json");
    const Result r = shell(std::string(AGXSIM_EXE) + " validate --config m1-max --measurements " +
                           path + " -j 2");
    INFO(r.out << r.err);
    CHECK(r.code == 0);
    CHECK(r.out.find("3 figures, 3 in the statistics") != std::string::npos);
    CHECK(r.out.find("t/FMAX32/latency/m1-max") != std::string::npos);
}

TEST_CASE("cli: agxsim-probe run on the fake backend, then gen and list") {
    const std::string suite = (scratch() / "cli_suite.json").string();
    std::ofstream(suite) << R"({"benchmarks": [
      {"name": "cli/FMUL16/latency", "body": [{"op": "FMUL16"}], "ilp": 1, "simds_per_core": 4,
       "register_bits": 16, "repetitions": 1440},
      {"name": "cli/SIN_PT_1/latency", "body": [{"op": "SIN_PT_1"}], "ilp": 1, "simds_per_core": 4,
       "register_bits": 32, "repetitions": 1440}]})";
    const std::string out = (scratch() / "cli_results.json").string();
    const std::string exe = AGXSIM_PROBE_EXE;

    Result r =
        shell(exe + " run --suite " + suite + " --out " + out + " --backend fake --trials 2");
    INFO(r.out << r.err);
    REQUIRE(r.code == 0);
    CHECK(r.out.find("1 of 2 benchmarks measured") != std::string::npos);
    CHECK(r.err.find("[2/2] cli/SIN_PT_1/latency/m1-max: not measured") != std::string::npos);
    const auto file = agx::validation::read_measurements(out);
    CHECK(file.records.size() == 2);
    for (const auto& e : std::filesystem::directory_iterator(scratch()))
        CHECK(e.path().filename().string().rfind("cli_results.json.partial", 0) != 0);

    r = shell(exe + " gen --suite " + suite + " --only cli/FMUL16");
    CHECK(r.code == 0);
    CHECK(r.out.find("x0_0 = x0_0 * y_h;") != std::string::npos);

    r = shell(exe + " list --suite " + suite);
    CHECK(r.code == 0);
    CHECK(r.out.find("cli/SIN_PT_1/latency") != std::string::npos);
    CHECK(r.out.find("not measurable") != std::string::npos);

    r = shell(exe + " gen --suite " + suite + " --only cli/");
    CHECK(r.code == 2);
    CHECK(r.err.find("2 benchmarks match") != std::string::npos);
}

TEST_CASE("cli: without Metal, run asks for the fake backend and writes nothing") {
    const std::string out = (scratch() / "never.json").string();
    const Result r = shell(std::string(AGXSIM_PROBE_EXE) + " run --out " + out + " --only FADD32");
    if (r.err.find("no Metal backend") == std::string::npos &&
        r.err.find("not in this build") == std::string::npos)
        SUCCEED("built with Metal");  // on macOS the Metal backend exists
    else {
        CHECK(r.code == 2);
        CHECK_FALSE(std::filesystem::exists(out));
    }
}

TEST_CASE("cli: compile finds the kernel function of a Metal file and refuses what it cannot") {
    const std::string exe = AGXSIM_PROBE_EXE;
    const std::string metal = (scratch() / "user.metal").string();
    std::ofstream(metal)
        << "#include <metal_stdlib>\nusing namespace metal;\n"
           "kernel void scale(device float* x [[buffer(0)]],\n"
           "                  uint i [[thread_position_in_grid]]) { x[i] *= 2; }\n";
    const std::string out = (scratch() / "archives").string();
    Result r = shell(exe + " compile " + metal + " --out " + out + " --backend fake");
    INFO(r.out << r.err);
    CHECK(r.code == 0);
    CHECK(r.out.find("scale: compiled on agxsim fake GPU") != std::string::npos);
    CHECK(r.out.find("no binary archive") != std::string::npos);
    CHECK_FALSE(std::filesystem::exists(out));  // the fake backend writes nothing

    r = shell(exe + " compile " + metal + " --out " + out + " --backend fake --function other");
    CHECK(r.code == 2);
    CHECK(r.err.find("user.metal: no kernel function named 'other'") != std::string::npos);

    const std::string two = (scratch() / "two.metal").string();
    std::ofstream(two) << "kernel void a(device int* p) {}\nkernel  void b (device int* p) {}\n";
    r = shell(exe + " compile " + two + " --out " + out + " --backend fake");
    CHECK(r.code == 2);
    CHECK(r.err.find("several kernel functions (a, b): name one with --function") !=
          std::string::npos);
    CHECK(shell(exe + " compile " + two + " --out " + out + " --backend fake --function b").code ==
          0);
}
