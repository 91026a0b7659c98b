// Where benchmarks come from: suite files, measurement files, reference CSVs.
#include <catch2/catch.hpp>

#include "probe_test_util.hpp"
#include "sim/common/errors.hpp"
#include "validation/probe/suite_source.hpp"

using namespace agx::probe;
using namespace probe_test;
using agx::validation::FigureKind;

TEST_CASE("a measurement file's records become one benchmark per id without the chip") {
    agx::validation::MeasurementFile f;
    for (const char* chip : {"m1-max", "a14"}) {
        agx::validation::Measurement m;
        m.id = std::string("float_instructions/FADD32/throughput/") + chip;
        m.chip = chip;
        m.kind = FigureKind::Throughput;
        m.benchmark = throughput("FADD32");
        f.records.push_back(m);
    }
    const auto e = entries_of(f);
    REQUIRE(e.size() == 1);
    CHECK(e[0].id == "float_instructions/FADD32/throughput");
    CHECK(e[0].def.name == e[0].id);
    CHECK(e[0].kind == FigureKind::Throughput);
}

TEST_CASE(
    "suite files: bare definitions with inferred kinds, the wrapped form when the kind differs") {
    std::vector<SuiteEntry> entries = {
        {"t/FADD32/throughput", FigureKind::Throughput, throughput("FADD32")},
        {"t/FADD32/latency", FigureKind::Latency, latency("FADD32")},
        {"t/odd", FigureKind::Control, latency("FMUL32")}};
    const auto j = suite_json(entries, "test");
    CHECK(j.at("benchmarks")[0].at("name") == "t/FADD32/throughput");
    CHECK(j.at("benchmarks")[2].at("kind") == "control");
    const auto path = scratch() / "suite.json";
    std::ofstream(path) << j.dump(1);
    const auto back = read_entries(path.string());
    REQUIRE(back.size() == 3);
    for (std::size_t i = 0; i < 3; ++i) {
        CHECK(back[i].id == entries[i].id);
        CHECK(back[i].kind == entries[i].kind);
        CHECK(back[i].def.method == entries[i].def.method);
    }
}

TEST_CASE("suite files are read strictly") {
    const auto path = scratch() / "bad_suite.json";
    std::ofstream(path) << R"({"benchmarks": [{"name": "a", "body": [{"op": "FADD32"}], "ilp": 1,
        "simds_per_core": 4, "register_bits": 32, "repetitions": 10, "colour": "red"}]})";
    CHECK_THROWS_WITH(read_entries(path.string()), Catch::Contains("benchmarks[0].colour"));
    std::ofstream(path) << R"({"benchmarks": 3})";
    CHECK_THROWS_AS(read_entries(path.string()), agx::InputError);
}

TEST_CASE("the shipped suite holds the reference tables' benchmarks") {
    const auto all = read_suite(default_suite_path());
    CHECK(all.size() > 300);
    bool fadd = false, control = false, vec4 = false, mix64 = false;
    for (const auto& e : all) {
        fadd = fadd || e.id == "float_instructions/FADD32/latency";
        control = control || e.kind == FigureKind::Control;
        vec4 = vec4 || e.kind == FigureKind::IlpOccupancy;
        mix64 = mix64 || e.id == "mixed_16_64bit/IADD64 + 3 IADD32/throughput";
    }
    CHECK(fadd);
    CHECK(control);
    CHECK(vec4);
    CHECK(mix64);  // the mixed tables' rows are measured too
}

// The suite `agxsim-probe run` measures by default is what `agxsim-probe
// suite` writes from the shipped reference tables and
// validation/suite/method.json, byte for byte: a change to the method or the
// importer that moves a definition fails here until the file is regenerated,
// so the probe measures the kernels `agxsim validate` simulates.
TEST_CASE("the shipped suite file is the reference tables' definitions as written now") {
    const std::string ref = std::string(AGX_SOURCE_DIR) + "/validation/data/metal-benchmarks/";
    std::string from;
    for (const char* t :
         {"control_group", "float_instructions", "float_sequences", "ilp_occupancy",
          "int_instructions", "int_sequences", "mixed_int_float", "simd_instructions",
          "simd_sequences", "mixes/mixed_16_64bit", "mixes/mixed_transcendental"})
        from += " " + quoted(ref + t + ".csv");
    const auto out = scratch() / "regenerated_suite.json";
    const Result r =
        shell(std::string(AGXSIM_PROBE_EXE) + " suite --from" + from + " -o " + out.string());
    INFO(r.out << r.err);
    REQUIRE(r.code == 0);
    CHECK(slurp(out) == slurp(std::string(AGX_SOURCE_DIR) + "/validation/suite/instructions.json"));
}
