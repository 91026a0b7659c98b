// Hardware measurements in the project's own format: one record per figure,
// with the chip, its clock, the full definition of the benchmark that
// produced it, the value, its unit and where it comes from. The Metal probe
// writes this format; `agxsim validate` reads it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "validation/lib/benchmark.hpp"

namespace agx::validation {

// The memory kinds go with memory benchmarks (memory_benchmark.hpp):
// memory_latency in cycles, bandwidth in GB/s, code_size in percent of peak.
enum class FigureKind : std::uint8_t {
    Throughput,
    Latency,
    IlpOccupancy,
    Control,
    MemoryLatency,
    Bandwidth,
    CodeSize
};
const char* figure_kind_name(FigureKind k);

struct Measurement {
    std::string id;          // unique in its file: "float_instructions/FADD32/throughput/m1-max"
    std::string chip;        // config name of the chip measured: "m1-max", "a14"
    double clock_ghz = 0.0;  // the clock the cycles were computed with
    FigureKind kind = FigureKind::Throughput;
    BenchmarkDefinition benchmark;
    std::optional<double> value;  // absent: not measured
    std::string qualifier;        // "" exact, "~" approximate, "<" or "≤" an upper bound
    std::string raw;              // the value as the source wrote it
    std::string unit = "cycles";  // "cycles"; memory figures: their kind's unit
    std::string provenance;
    // What the Metal probe recorded about this figure (device, clock, trials,
    // pipelines); written when not empty, read back when present.
    nlohmann::json probe;

    // Only exact figures count in the error statistics.
    bool exact() const { return value.has_value() && qualifier.empty(); }
};

struct MeasurementFile {
    std::string description;
    std::vector<Measurement> records;
    nlohmann::json probe;  // the probe's run as a whole; written when not empty
};

nlohmann::json to_json(const MeasurementFile& f);
void write_measurements(const MeasurementFile& f, std::ostream& out);
// Reads a measurement file (JSON) or a reference CSV (by its header), see
// reference_csv.hpp. Throws InputError naming the file and the record.
MeasurementFile read_measurements(const std::string& path);

}  // namespace agx::validation
