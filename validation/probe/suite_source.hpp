// Where the probe's benchmarks come from: a suite file
// (validation/suite/<name>.json, {"benchmarks": [...]}) or the definitions
// inside a measurement file or reference CSV, which name the same benchmarks
// the simulator is validated on.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "validation/lib/measurement.hpp"

namespace agx::probe {

struct SuiteEntry {
    std::string id;  // the figure's id without its chip: "float_instructions/FADD32/throughput"
    validation::FigureKind kind = validation::FigureKind::Throughput;
    validation::BenchmarkDefinition def;
};

// The kind of figure a bare definition gives: a memory benchmark's by its
// memory kind; steady -> throughput, an empty body -> control, the vec4 shape
// -> ilp_occupancy, anything else -> latency.
validation::FigureKind infer_kind(const validation::BenchmarkDefinition& def);

// A measurement file's benchmarks, one per id with the chip suffix removed
// (the M1 Max and A14 records of a row are one benchmark).
std::vector<SuiteEntry> entries_of(const validation::MeasurementFile& file);

// A suite file: each entry of "benchmarks" is a definition (its name is the
// id, the kind inferred) or {"id", "kind", "benchmark"}. Throws InputError.
std::vector<SuiteEntry> read_suite(const std::string& path);

// Either: a JSON object with "benchmarks" is a suite, anything else goes to
// validation::read_measurements (measurement JSON or reference CSV).
std::vector<SuiteEntry> read_entries(const std::string& path);

// The suite file for `entries`: bare definitions named by their ids, and the
// wrapped form where the kind differs from what infer_kind would say.
// The description comes first in the file.
nlohmann::ordered_json suite_json(const std::vector<SuiteEntry>& entries,
                                  const std::string& description);

// validation/suite/instructions.json ($AGXSIM_VALIDATION_DIR honoured).
std::string default_suite_path();

}  // namespace agx::probe
