// What a first run on a real Mac can meet, injected into the fake backend:
// a kernel Metal rejects, a binary archive that cannot be written, counter
// samples that cannot be read, hold zeros or disagree with the command
// buffer, a command buffer that fails, a GPU below its clock, a chip the
// clock table does not know. Each costs at most its benchmark, and the file
// is still written with the reason.
#include <catch2/catch.hpp>

#include "probe_test_util.hpp"
#include "validation/probe/elapsed.hpp"
#include "validation/probe/fake_backend.hpp"
#include "validation/probe/probe_run.hpp"

using namespace agx::probe;
using namespace probe_test;
using agx::validation::FigureKind;
using agx::validation::MeasurementFile;

namespace {

// A suite entry whose definition is named by its id, as in a suite file
// (the fake backend's failures match the kernel's benchmark name).
SuiteEntry entry(const std::string& id, FigureKind kind, BenchmarkDefinition def) {
    def.name = id;
    return {id, kind, def};
}

std::vector<SuiteEntry> small_suite() {
    return {entry("t/FADD32/throughput", FigureKind::Throughput, throughput("FADD32")),
            entry("t/FADD32/latency", FigureKind::Latency, latency("FADD32")),
            entry("t/IMUL32/latency", FigureKind::Latency, latency("IMUL32"))};
}

RunOptions options() {
    RunOptions o;
    o.trials = 3;
    o.suite_source = "failure tests";
    return o;
}

MeasurementFile run_with(const FakeOptions& f, RunOptions o = options()) {
    FakeBackend backend(f);
    return run_suite(backend, small_suite(), o);
}

// Written and read back: what a user would send.
MeasurementFile round_trip(const MeasurementFile& file, const std::string& name) {
    const auto path = scratch() / name;
    {
        std::ofstream out(path);
        agx::validation::write_measurements(file, out);
    }
    return agx::validation::read_measurements(path.string());
}

const agx::validation::Measurement& record(const MeasurementFile& f, const std::string& id) {
    for (const auto& m : f.records)
        if (m.id == id) return m;
    FAIL("no record " << id);
    throw std::logic_error("unreachable");
}

}  // namespace

TEST_CASE("failures: a kernel Metal rejects costs its benchmark, the file says why") {
    FakeOptions f;
    f.fail_compile = "t/FADD32/latency";
    const auto file = round_trip(run_with(f), "compile_fails.json");
    REQUIRE(file.records.size() == 3);
    const auto& bad = record(file, "t/FADD32/latency/m1-max");
    CHECK_FALSE(bad.value);
    const std::string why = bad.probe.at("not_measured");
    CHECK(why.find("newLibraryWithSource") != std::string::npos);
    CHECK(why.find("t/FADD32/latency") != std::string::npos);
    CHECK(bad.provenance.find("not measured") != std::string::npos);
    CHECK(record(file, "t/FADD32/throughput/m1-max").value);
    CHECK(record(file, "t/IMUL32/latency/m1-max").value);
    CHECK(file.probe.at("compile").at("failed") == nlohmann::json::array({"t/FADD32/latency"}));
    CHECK(file.probe.at("complete") == true);
}

TEST_CASE("failures: a binary archive that cannot be written is recorded, the timing stays") {
    FakeOptions f;
    f.fail_archive = true;
    RunOptions o = options();
    o.archive_dir = (scratch() / "archives").string();
    const auto file = round_trip(run_with(f, o), "archive_fails.json");
    for (const auto& m : file.records) {
        INFO(m.id);
        CHECK(m.value);
        for (const auto& k : m.probe.at("kernels")) {
            const std::string error = k.at("pipeline").at("binary_archive_error");
            CHECK(error.find("serializeToURL") != std::string::npos);
            CHECK_FALSE(k.at("pipeline").contains("binary_archive"));
        }
    }
}

TEST_CASE("failures: counters that cannot be resolved for one benchmark: it alone falls back") {
    FakeOptions f;
    f.fail_resolve = "t/IMUL32";
    const auto file = round_trip(run_with(f), "resolve_fails_once.json");
    const auto& timing = file.probe.at("timing");
    CHECK(timing.at("source") == "counters");  // chosen once, on the clock kernel
    CHECK(timing.at("fallbacks") == nlohmann::json::array({"t/IMUL32/latency"}));
    const auto& imul = record(file, "t/IMUL32/latency/m1-max");
    REQUIRE(imul.value);
    CHECK(imul.probe.at("kernels")[0].at("timing") == "command_buffer");
    CHECK(imul.probe.at("timing_fallback").get<std::string>().find("resolveCounterRange") !=
          std::string::npos);
    CHECK(imul.provenance.find("GPUStartTime/GPUEndTime") != std::string::npos);
    const auto& fadd = record(file, "t/FADD32/latency/m1-max");
    CHECK(fadd.probe.at("kernels")[0].at("timing") == "counters");
    CHECK_FALSE(fadd.probe.contains("timing_fallback"));
    CHECK(file.probe.at("device").at("stage_boundary_counters") == true);
}

TEST_CASE("failures: counters unreadable everywhere: one source, the command buffer, and why") {
    FakeOptions f;
    f.fail_resolve = "*";
    const auto file = round_trip(run_with(f), "resolve_fails.json");
    const auto& timing = file.probe.at("timing");
    CHECK(timing.at("source") == "command_buffer");
    CHECK(timing.at("reason").get<std::string>().find("resolveCounterRange") != std::string::npos);
    CHECK(timing.at("fallbacks").empty());
    for (const auto& m : file.records) {
        CHECK(m.value);
        for (const auto& k : m.probe.at("kernels")) CHECK(k.at("timing") == "command_buffer");
    }
    // Sampled, but not used.
    CHECK(file.probe.at("device").at("counters_sampled") == true);
    CHECK(file.probe.at("device").at("stage_boundary_counters") == false);
}

TEST_CASE("failures: zero counter samples are recorded as counters not used") {
    FakeOptions f;
    f.counters = FakeOptions::Counters::Zeros;
    const auto file = run_with(f);
    CHECK(file.probe.at("timing").at("source") == "command_buffer");
    CHECK(file.probe.at("timing").at("reason").get<std::string>().find("zero") !=
          std::string::npos);
    CHECK(file.probe.at("device").at("stage_boundary_counters") == false);
    for (const auto& e : file.probe.at("timing").at("cross_check"))
        CHECK(e.at("counters").get<std::string>().find("zero") != std::string::npos);
}

TEST_CASE("failures: no counter sample buffer: the command buffer times the run") {
    FakeOptions f;
    f.fail_counter_buffer = true;
    const auto file = run_with(f);
    CHECK(file.probe.at("timing").at("source") == "command_buffer");
    CHECK(file.probe.at("timing").at("reason").get<std::string>().find(
              "newCounterSampleBufferWithDescriptor") != std::string::npos);
    CHECK(file.probe.at("device").at("counters_sampled") == false);
    for (const auto& m : file.records) CHECK(m.value);
}

TEST_CASE("failures: counters that agree with the command buffer time the run") {
    const auto file = run_with(FakeOptions{});
    const auto& timing = file.probe.at("timing");
    CHECK(timing.at("source") == "counters");
    CHECK(timing.at("cross_check_agrees") == true);
    CHECK(timing.at("reason").get<std::string>().find("within the tolerance") != std::string::npos);
    CHECK(timing.at("tolerance").at("rule") == counter_tolerance_text());
    CHECK(timing.at("tolerance").at("gap") == kCounterGap);
    // Every dispatch of the clock kernel was compared; the first few are listed.
    CHECK(timing.at("cross_checked").get<std::size_t>() >= 6);
    REQUIRE(timing.at("cross_check").size() >= 4);
    for (const auto& e : timing.at("cross_check")) {
        CHECK(e.at("agree") == true);
        CHECK(e.at("counters_seconds").get<double>() <=
              e.at("command_buffer_seconds").get<double>());
    }
    CHECK(timing.at("fallbacks").empty());
    for (const auto& m : file.records) {
        INFO(m.id);
        REQUIRE(m.value);
        for (const auto& k : m.probe.at("kernels")) CHECK(k.at("timing") == "counters");
        CHECK(m.provenance.find("stage-boundary counter timestamps") != std::string::npos);
    }
}

TEST_CASE("failures: counters that disagree with the command buffer: it times the run, and why") {
    FakeOptions f;
    f.counter_disagree = "*";  // the samples span half of every pass
    const auto file = round_trip(run_with(f), "counters_disagree.json");
    const auto& timing = file.probe.at("timing");
    CHECK(timing.at("source") == "command_buffer");
    const std::string reason = timing.at("reason");
    CHECK(reason.find("disagree with the command buffer on dispatch 1 of the clock kernel") !=
          std::string::npos);
    CHECK(reason.find(counter_tolerance_text()) != std::string::npos);
    CHECK(timing.at("cross_check_agrees") == false);
    for (const auto& e : timing.at("cross_check")) CHECK(e.at("agree") == false);
    // Sampled and readable, but not trusted.
    CHECK(file.probe.at("device").at("counters_sampled") == true);
    CHECK(file.probe.at("device").at("stage_boundary_counters") == false);
    for (const auto& m : file.records) {
        INFO(m.id);
        REQUIRE(m.value);
        for (const auto& k : m.probe.at("kernels")) CHECK(k.at("timing") == "command_buffer");
        CHECK(m.provenance.find("GPUStartTime/GPUEndTime") != std::string::npos);
    }
    // Timed by the command buffer, the figures are the fake model's (the
    // counters' would halve them).
    CHECK(*record(file, "t/FADD32/throughput/m1-max").value == Approx(1.0).epsilon(0.03));
    CHECK(*record(file, "t/FADD32/latency/m1-max").value ==
          Approx(3.0 + 2000.0 / 1440).epsilon(0.05));
}

TEST_CASE("failures: counters that disagree on one benchmark: it alone falls back, and why") {
    FakeOptions f;
    f.counter_disagree = "t/IMUL32";
    const auto file = round_trip(run_with(f), "counters_disagree_once.json");
    const auto& timing = file.probe.at("timing");
    CHECK(timing.at("source") == "counters");
    CHECK(timing.at("fallbacks") == nlohmann::json::array({"t/IMUL32/latency"}));
    const auto& imul = record(file, "t/IMUL32/latency/m1-max");
    REQUIRE(imul.value);
    CHECK(imul.probe.at("kernels")[0].at("timing") == "command_buffer");
    const std::string why = imul.probe.at("timing_fallback");
    CHECK(why.find("the counters disagree with the command buffer on dispatch 1") !=
          std::string::npos);
    CHECK(record(file, "t/FADD32/latency/m1-max").probe.at("kernels")[0].at("timing") ==
          "counters");
}

TEST_CASE("timing: every timed dispatch is queued back to back, several in flight") {
    FakeBackend backend;
    RunOptions o = options();
    o.in_flight = 3;
    const auto file = run_suite(backend, small_suite(), o);
    const auto& sent = backend.submitted();
    CHECK(sent.alone == 0);  // nothing submitted and waited for on its own
    CHECK(sent.max_in_flight == 3);
    // The warm-up, two clock checks, and each benchmark's warm-up and trials.
    CHECK(sent.batches >= 1 + 2 + 2 * 3);
    std::size_t timed = 0;
    for (const auto& m : file.records)
        for (const auto& k : m.probe.at("kernels"))
            timed += k.at("warmup_seconds").size() + k.at("trial_seconds").size();
    CHECK(sent.batched > timed);
    CHECK(file.probe.at("timing").at("submission").get<std::string>().find("3 command buffers") !=
          std::string::npos);
}

TEST_CASE("fake backend: a batch runs back to back, each dispatch with its counter samples") {
    FakeOptions f;
    f.cold_dispatches = 0;
    f.noise = 0;
    FakeBackend backend(f);
    const auto def = latency("FADD32");
    const Kernel k = generate_kernel(def, def.repetitions);
    const PipelineInfo p = backend.compile(k, "");
    Dispatch d;
    d.threadgroups = 32 * 250;
    d.threads_per_threadgroup = 128;
    d.threadgroup_memory_bytes = 61440;
    d.params.active_simds = 4;
    const auto times = backend.run_batch(repeated(p, d, 4), 4);
    REQUIRE(times.size() == 4);
    for (std::size_t i = 0; i < times.size(); ++i) {
        INFO(i);
        const CrossCheck c = cross_check(times[i]);
        REQUIRE(c.counter_seconds);
        CHECK(c.agree);
        if (i > 0) CHECK(times[i].gpu_start == times[i - 1].gpu_end);  // no idle between them
    }
    const DispatchTiming alone = backend.run(p, d);
    CHECK(alone.gpu_start > times.back().gpu_end);  // a dispatch alone waits for its submission

    SECTION("an injected disagreement: the counters span half the pass") {
        f.counter_disagree = "FADD32";
        FakeBackend bad(f);
        const PipelineInfo q = bad.compile(k, "");
        const auto t = bad.run_batch(repeated(q, d, 2), 2);
        for (const auto& e : t) {
            const CrossCheck c = cross_check(e);
            REQUIRE(c.counter_seconds);
            CHECK_FALSE(c.agree);
            CHECK(*c.counter_seconds < 0.6 * c.command_buffer_seconds);
        }
    }
    SECTION("the failure's name on the command line") {
        FakeOptions parsed;
        parse_fake_failures("counter-disagree=IMUL,resolve", parsed);
        CHECK(parsed.counter_disagree == "IMUL");
        parse_fake_failures("counter-disagree", parsed);
        CHECK(parsed.counter_disagree == "*");
    }
}

TEST_CASE("failures: a command buffer error in the warm-up costs the warm-up and the check") {
    FakeOptions f;
    f.fail_run = "agxsim-probe/clock";
    const auto file = round_trip(run_with(f), "warmup_fails.json");
    CHECK(file.probe.at("device_warmup").at("error").get<std::string>().find("MTLCommandBuffer") !=
          std::string::npos);
    CHECK(file.probe.at("clock_check").at("ok") == false);
    CHECK(file.description.find("CLOCK CHECK FAILED") != std::string::npos);
    // Measured at the table's clock, but the clock is not proven: approximate.
    for (const auto& m : file.records) {
        REQUIRE(m.value);
        CHECK(m.qualifier == "~");
        CHECK(m.provenance.find("CLOCK CHECK FAILED") != std::string::npos);
    }
    // The timing source is still chosen, on the first kernel timed: the
    // control group's, measured before the benchmarks.
    CHECK(file.probe.at("timing").at("chosen_on") == "agxsim-probe/control/32bit/simds4");
}

TEST_CASE("failures: a command buffer error in one benchmark costs that benchmark") {
    FakeOptions f;
    f.fail_run = "t/IMUL32";
    const auto file = round_trip(run_with(f), "run_fails.json");
    const auto& bad = record(file, "t/IMUL32/latency/m1-max");
    CHECK_FALSE(bad.value);
    CHECK(bad.probe.at("not_measured").get<std::string>().find("MTLCommandBuffer execution") !=
          std::string::npos);
    CHECK(record(file, "t/FADD32/latency/m1-max").value);
    CHECK(record(file, "t/FADD32/throughput/m1-max").value);
}

TEST_CASE(
    "failures: a control kernel that cannot run: Total records keep the suite's overhead, "
    "and say why") {
    FakeOptions f;
    f.fail_run = "agxsim-probe/control";
    const auto file = round_trip(run_with(f), "control_fails.json");
    const auto& controls = file.probe.at("control_group");
    REQUIRE(controls.size() == 1);
    CHECK(controls[0].at("error").get<std::string>().find("MTLCommandBuffer execution") !=
          std::string::npos);
    CHECK_FALSE(controls[0].contains("overhead_cycles"));
    for (const char* id : {"t/FADD32/latency/m1-max", "t/IMUL32/latency/m1-max"}) {
        INFO(id);
        const auto& m = record(file, id);
        REQUIRE(m.value);  // the benchmark itself is measured
        CHECK(m.benchmark.overhead_cycles == 2448.0);
        const auto& o = m.probe.at("overhead");
        CHECK(o.at("source").get<std::string>().find("suite") != std::string::npos);
        CHECK(o.at("overhead_cycles") == 2448.0);
        const std::string why = o.at("reason");
        CHECK(why.find("the control group could not be measured") != std::string::npos);
        CHECK(why.find("agxsim-probe/control/32bit/simds4") != std::string::npos);
        CHECK(why.find("MTLCommandBuffer execution") != std::string::npos);
    }

    SECTION("nor compile") {
        FakeOptions g;
        g.fail_compile = "agxsim-probe/control";
        const auto file2 = run_with(g);
        const std::string why =
            record(file2, "t/FADD32/latency/m1-max").probe.at("overhead").at("reason");
        CHECK(why.find("newLibraryWithSource") != std::string::npos);
        CHECK(record(file2, "t/FADD32/latency/m1-max").benchmark.overhead_cycles == 2448.0);
    }
}

TEST_CASE("clock: a GPU below the assumed clock is caught and measured") {
    FakeOptions f;
    f.clock_ghz = 1.2;  // the table says 1.296 for the M1 Max
    const auto file = run_with(f);
    const auto& c = file.probe.at("clock_check");
    CHECK(c.at("ok") == false);
    CHECK(c.at("measured_clock_ghz").get<double>() == Approx(1.2).epsilon(0.02));
    CHECK(c.at("figure_cycles").get<double>() == Approx(1.296 / 1.2).epsilon(0.02));
    const std::string message = c.at("message");
    CHECK(message.find("NOT AT THE ASSUMED CLOCK") != std::string::npos);
    CHECK(message.find("below") != std::string::npos);
    for (const auto& m : file.records) CHECK(m.qualifier == "~");
}

TEST_CASE("clock: the check passes at the table's clock, at the start and at the end") {
    const auto file = run_with(FakeOptions{});
    for (const char* key : {"clock_check", "clock_check_end"}) {
        INFO(key);
        const auto& c = file.probe.at(key);
        CHECK(c.at("ok") == true);
        CHECK(c.at("figure_cycles").get<double>() == Approx(1.0).epsilon(0.03));
        CHECK(c.at("measured_clock_ghz").get<double>() == Approx(1.296).epsilon(0.03));
    }
    CHECK(file.probe.at("device").at("table_clock_ghz") == 1.296);
    CHECK(file.probe.at("device").at("clock_source") == "chip table");
}

TEST_CASE("clock: a chip the table does not know runs at its measured clock") {
    FakeOptions f;
    f.chip = "m3-max";
    f.name = "Apple M3 Max (fake)";
    f.clock_ghz = 1.398;
    const auto file = round_trip(run_with(f), "unknown_chip.json");
    const auto& d = file.probe.at("device");
    CHECK(d.at("clock_source") == "measured");
    CHECK(d.at("table_clock_ghz").is_null());
    CHECK(d.at("clock_ghz").get<double>() == Approx(1.398).epsilon(0.02));
    REQUIRE(file.records.size() == 3);
    const auto& fadd = record(file, "t/FADD32/throughput/m3-max");
    REQUIRE(fadd.value);
    CHECK(*fadd.value == Approx(1.0).epsilon(0.03));
    CHECK(fadd.qualifier.empty());
    CHECK(fadd.clock_ghz == Approx(1.398).epsilon(0.02));
    CHECK(fadd.provenance.find("(measured)") != std::string::npos);
}

TEST_CASE("clock: an unknown chip whose clock kernel fails: not measured, with the reason") {
    FakeOptions f;
    f.chip = "m3-max";
    f.fail_compile = "agxsim-probe/clock";
    const auto file = round_trip(run_with(f), "unknown_chip_no_clock.json");
    REQUIRE(file.records.size() == 3);
    for (const auto& m : file.records) {
        CHECK_FALSE(m.value);
        CHECK(m.probe.at("not_measured").get<std::string>().find("--clock-ghz") !=
              std::string::npos);
    }
}

TEST_CASE("warm-up: back to back until the rate settles by GPU time") {
    FakeOptions f;
    f.cold_dispatches = 0;
    f.cold_seconds = 0.3;  // half clock for the first 0.3 s the GPU is busy
    RunOptions o = options();
    const auto file = run_with(f, o);
    const auto& w = file.probe.at("device_warmup");
    INFO(w.dump());
    CHECK(w.at("settled") == true);
    CHECK(w.at("in_flight") == 4);
    // It ran past the slow start and its minimum GPU time.
    CHECK(w.at("gpu_seconds").get<double>() >= o.warmup_seconds);
    const auto rates = w.at("seconds_per_dispatch_by_batch").get<std::vector<double>>();
    CHECK(rates.front() > 1.9 * rates.back());
    CHECK(file.probe.at("clock_check").at("ok") == true);

    SECTION("a GPU that stays slow settles too, and the clock check catches it") {
        f.cold_seconds = 100;
        const auto slow = run_with(f, o);
        CHECK(slow.probe.at("device_warmup").at("settled") == true);
        const auto& c = slow.probe.at("clock_check");
        CHECK(c.at("ok") == false);
        CHECK(c.at("measured_clock_ghz").get<double>() == Approx(1.296 / 2).epsilon(0.03));
        CHECK(c.at("message").get<std::string>().find("50.") != std::string::npos);
    }
    SECTION("a warm-up that reaches its limit first stops there and says so") {
        f.cold_seconds = 0;
        o.warmup_seconds = 10;  // more than the limit allows
        o.warmup_max_seconds = 0.4;
        const auto noisy = run_with(f, o);
        const auto& nw = noisy.probe.at("device_warmup");
        CHECK(nw.at("settled") == false);
        CHECK(nw.at("gpu_seconds").get<double>() >= 0.4);
        CHECK(nw.at("gpu_seconds").get<double>() < 0.7);
    }
}

TEST_CASE("checkpoint: the file is written after the compile phase and every benchmark") {
    std::vector<MeasurementFile> written;
    RunOptions o = options();
    o.checkpoint = [&](const MeasurementFile& f) { written.push_back(f); };
    const auto file = run_with(FakeOptions{}, o);
    // Compile, clock check, three benchmarks, and the end.
    REQUIRE(written.size() == 6);
    CHECK(written.front().records.empty());
    CHECK(written.front().description.find("PARTIAL") != std::string::npos);
    CHECK(written[3].records.size() == 2);
    CHECK(written.back().probe.at("complete") == true);
    CHECK(written.back().description.find("PARTIAL") == std::string::npos);
    CHECK(agx::validation::to_json(written.back()) == agx::validation::to_json(file));
}

TEST_CASE("check: every compile error with its benchmark, the clock, and a run's length") {
    FakeOptions f;
    f.fail_compile = "t/IMUL32";
    FakeBackend backend(f);
    auto entries = small_suite();
    entries.push_back(entry("t/SIN_PT_1/latency", FigureKind::Latency, latency("SIN_PT_1")));
    const CheckReport r = check_suite(backend, entries, options());
    CHECK(r.benchmarks == 4);
    // FADD32 throughput (N and 2N) and latency, and the latencies' control kernel
    CHECK(r.kernels == 4);
    REQUIRE(r.compile_errors.size() == 1);
    CHECK(r.compile_errors[0].first == "t/IMUL32/latency");
    CHECK(r.compile_errors[0].second.find("newLibraryWithSource") != std::string::npos);
    REQUIRE(r.not_measurable.size() == 1);
    CHECK(r.not_measurable[0].first == "t/SIN_PT_1/latency");
    CHECK(r.clock.ok);
    CHECK(r.clock.measured_clock_ghz == Approx(1.296).epsilon(0.03));
    CHECK(r.timing.at("source") == "counters");
    CHECK(r.warmup.at("settled") == true);
    CHECK(r.estimate_high_seconds >= r.estimate_low_seconds);
    CHECK(r.estimate_low_seconds > 0);
}

TEST_CASE("cli: agxsim-probe check on the fake backend, ready or not") {
    const std::string exe = AGXSIM_PROBE_EXE;
    const std::string suite = (scratch() / "check_suite.json").string();
    std::ofstream(suite) << R"({"benchmarks": [
      {"name": "c/FADD32/latency", "body": [{"op": "FADD32"}], "ilp": 1, "simds_per_core": 4,
       "register_bits": 32, "repetitions": 1440},
      {"name": "c/IMUL32/latency", "body": [{"op": "IMUL32"}], "ilp": 1, "simds_per_core": 4,
       "register_bits": 32, "repetitions": 1440}]})";
    const std::string base = exe + " check --backend fake --suite " + suite;

    Result r = shell(base);
    INFO(r.out << r.err);
    CHECK(r.code == 0);
    CHECK(r.out.find("compile errors: none") != std::string::npos);
    CHECK(r.out.find("clock: FADD32 throughput") != std::string::npos);
    CHECK(r.out.find("a full run of these 2 benchmarks") != std::string::npos);
    CHECK(r.out.find("ready: agxsim-probe run --out results.json") != std::string::npos);

    r = shell(base + " --fake-fail compile=c/IMUL32");
    CHECK(r.code == 1);
    CHECK(r.out.find("  c/IMUL32/latency: [MTLDevice newLibraryWithSource") != std::string::npos);

    // The control kernels a run measures first are compiled by check too.
    r = shell(base + " --fake-fail compile=agxsim-probe/control/");
    CHECK(r.code == 1);
    CHECK(r.out.find("  agxsim-probe/control/32bit/simds4") != std::string::npos);

    r = shell(base + " --fake-clock-ghz 1.1");
    CHECK(r.code == 2);
    CHECK(r.out.find("NOT AT THE ASSUMED CLOCK") != std::string::npos);

    r = shell(base + " --fake-chip m3-max");
    CHECK(r.code == 0);
    CHECK(r.out.find("clock 1.") != std::string::npos);  // the fake's 1.296, measured
    CHECK(r.out.find("(measured)") != std::string::npos);

    r = shell(base + " --fake-fail counter-disagree");
    CHECK(r.code == 0);
    CHECK(r.out.find("timing: command_buffer (the stage-boundary counters disagree") !=
          std::string::npos);

    r = shell(base + " --fake-fail nonsense");
    CHECK(r.code == 2);
    CHECK(r.err.find("unknown fake failure 'nonsense'") != std::string::npos);
}

TEST_CASE("cli: run with injected failures still writes the file") {
    const std::string exe = AGXSIM_PROBE_EXE;
    const std::string suite = (scratch() / "fail_suite.json").string();
    std::ofstream(suite) << R"({"benchmarks": [
      {"name": "f/FADD32/latency", "body": [{"op": "FADD32"}], "ilp": 1, "simds_per_core": 4,
       "register_bits": 32, "repetitions": 1440},
      {"name": "f/IMUL32/latency", "body": [{"op": "IMUL32"}], "ilp": 1, "simds_per_core": 4,
       "register_bits": 32, "repetitions": 1440}]})";
    const std::string out = (scratch() / "fail_results.json").string();
    const Result r = shell(exe + " run --backend fake --trials 2 --suite " + suite + " --out " +
                           out + " --archive " + (scratch() / "fail_archives").string() +
                           " --fake-fail compile=f/IMUL32,resolve=*,archive");
    INFO(r.out << r.err);
    REQUIRE(r.code == 0);
    CHECK(r.out.find("1 of 2 benchmarks measured") != std::string::npos);
    const auto file = agx::validation::read_measurements(out);
    CHECK(file.probe.at("complete") == true);
    CHECK(file.probe.at("timing").at("source") == "command_buffer");
    CHECK_FALSE(file.records[1].value);
    CHECK(file.records[0].probe.at("kernels")[0].at("pipeline").contains("binary_archive_error"));
}
