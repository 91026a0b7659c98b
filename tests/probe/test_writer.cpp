// The measurement file the probe writes: the project's format, read back by
// validation::read_measurements with the probe's own record intact.
#include <catch2/catch.hpp>

#include <cstdio>

#include "probe_test_util.hpp"
#include "validation/lib/measurement.hpp"
#include "validation/probe/fake_backend.hpp"
#include "validation/probe/probe_run.hpp"

using namespace agx::probe;
using namespace probe_test;
using agx::validation::FigureKind;

namespace {

agx::validation::MeasurementFile fake_file(
    FakeOptions::Counters counters = FakeOptions::Counters::Real) {
    FakeOptions f;
    f.counters = counters;
    FakeBackend backend(f);
    RunOptions o;
    o.trials = 3;
    o.suite_source = "test";
    return run_suite(backend,
                     {{"t/FADD32/latency", FigureKind::Latency, latency("FADD32")},
                      {"t/SIN_PT_1/latency", FigureKind::Latency, latency("SIN_PT_1")}},
                     o);
}

}  // namespace

TEST_CASE(
    "writer: the probe's records round-trip through write_measurements and read_measurements") {
    const auto file = fake_file();
    const auto path = scratch() / "written.json";
    {
        std::ofstream out(path);
        agx::validation::write_measurements(file, out);
    }
    const auto back = agx::validation::read_measurements(path.string());
    CHECK(back.description == file.description);
    CHECK(back.probe == file.probe);
    REQUIRE(back.records.size() == 2);
    for (std::size_t i = 0; i < 2; ++i) {
        CHECK(back.records[i].id == file.records[i].id);
        CHECK(back.records[i].probe == file.records[i].probe);
        CHECK(back.records[i].value == file.records[i].value);
        CHECK(to_json(back.records[i].benchmark) == to_json(file.records[i].benchmark));
    }
}

TEST_CASE("writer: what a measured record holds") {
    const auto file = fake_file();
    const auto& m = file.records[0];
    CHECK(m.id == "t/FADD32/latency/m1-max");
    CHECK(m.chip == "m1-max");
    CHECK(m.clock_ghz == 1.296);
    CHECK(m.kind == FigureKind::Latency);
    CHECK(m.unit == "cycles");
    REQUIRE(m.value);
    char raw[32];
    std::snprintf(raw, sizeof raw, "%.3f", *m.value);
    CHECK(m.raw == raw);
    CHECK(m.provenance.find("SYNTHETIC") == 0);
    CHECK(m.provenance.find("best of 3 trials") != std::string::npos);
    const auto& p = m.probe;
    CHECK(p.at("device").at("cores") == 32);
    CHECK(p.at("device").at("family") == "Apple7");
    CHECK(p.at("device").at("clock_ghz") == 1.296);
    CHECK(p.at("device").at("clock_source") == "chip table");
    CHECK(p.at("device").contains("os"));
    REQUIRE(p.at("kernels").size() == 1);  // total method: the N run only
    const auto& k = p.at("kernels")[0];
    CHECK(k.at("trial_seconds").size() == 3);
    CHECK(k.at("pipeline").at("max_total_threads_per_threadgroup") == 1024);
    CHECK(k.at("pipeline").contains("registers"));
    CHECK(k.at("timing") == "counters");
    CHECK(p.at("figure_trials").size() == 3);
    CHECK(p.at("figure_spread").get<double>() >= 0);
    CHECK(p.at("launch").at("waves") == 250);
    CHECK(file.probe.at("method").at("trials") == 3);
    CHECK(file.description.find("SYNTHETIC") == 0);
}

TEST_CASE(
    "writer: an operation Metal cannot express is recorded as not measured, with the reason") {
    const auto file = fake_file();
    const auto& m = file.records[1];
    CHECK_FALSE(m.value);
    CHECK(m.raw.empty());
    CHECK(m.provenance.find("not measured") != std::string::npos);
    CHECK(m.probe.at("not_measured").get<std::string>().find("SIN_PT_1") != std::string::npos);
}

TEST_CASE("writer: all-zero counter timestamps fall back to the command buffer's times") {
    const auto file = fake_file(FakeOptions::Counters::Zeros);
    const auto& m = file.records[0];
    CHECK(m.probe.at("kernels")[0].at("timing") == "command_buffer");
    CHECK(m.provenance.find("GPUStartTime/GPUEndTime") != std::string::npos);
}

TEST_CASE("measurement files without a probe record stay as they were") {
    agx::validation::MeasurementFile f;
    agx::validation::Measurement m;
    m.id = "a";
    m.chip = "m1";
    m.clock_ghz = 1.278;
    m.benchmark = latency("FADD32");
    m.provenance = "hand";
    f.records.push_back(m);
    const auto j = agx::validation::to_json(f);
    CHECK_FALSE(j.contains("probe"));
    CHECK_FALSE(j.at("records")[0].contains("probe"));
}
