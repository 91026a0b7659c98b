#include "validation/lib/measurement.hpp"

#include <cmath>
#include <fstream>
#include <iomanip>
#include <set>

#include "sim/common/errors.hpp"
#include "sim/common/json_input.hpp"
#include "validation/lib/reference_csv.hpp"

namespace agx::validation {

const char* figure_kind_name(FigureKind k) {
    switch (k) {
        case FigureKind::Throughput:
            return "throughput";
        case FigureKind::Latency:
            return "latency";
        case FigureKind::IlpOccupancy:
            return "ilp_occupancy";
        case FigureKind::Control:
            return "control";
        case FigureKind::MemoryLatency:
            return "memory_latency";
        case FigureKind::Bandwidth:
            return "bandwidth";
        case FigureKind::CodeSize:
            return "code_size";
    }
    return "?";
}

namespace {

constexpr const char* kFormat = "agxsim-measurements";
constexpr int kVersion = 1;

FigureKind kind_from(const std::string& s, const std::string& where) {
    for (FigureKind k : {FigureKind::Throughput, FigureKind::Latency, FigureKind::IlpOccupancy,
                         FigureKind::Control, FigureKind::MemoryLatency, FigureKind::Bandwidth,
                         FigureKind::CodeSize})
        if (s == figure_kind_name(k)) return k;
    throw InputError(where, "unknown kind '" + s + "'");
}

std::string str(const nlohmann::json& j, const char* key, const std::string& where) {
    if (!j.contains(key) || !j.at(key).is_string())
        throw InputError(where + "." + key, "missing or not a string");
    return j.at(key).get<std::string>();
}

// An optional string: "" when absent. `where` names the key.
std::string optional_str(const nlohmann::json& j, const char* key, const std::string& where) {
    if (!j.contains(key)) return {};
    if (!j.at(key).is_string())
        throw InputError(where, std::string("expected a string, got ") + j.at(key).type_name());
    return j.at(key).get<std::string>();
}

// The largest figure a measurement may hold, in any unit: far above any
// cycle count, bandwidth or percentage a benchmark reports, low enough that
// an error percentage stays a number.
constexpr double kMaxFigure = 1e9;
// A GPU clock, as a config's clock_ghz.
constexpr double kMaxClockGhz = 10.0;

// A memory figure needs a memory benchmark of the matching kind and its unit;
// every other figure is in cycles of an ALU benchmark.
void check_kind_and_unit(const Measurement& m, const std::string& where) {
    FigureKind expected = FigureKind::Throughput;
    if (m.benchmark.memory) {
        switch (m.benchmark.memory->kind) {
            case MemoryKind::PointerChase:
            case MemoryKind::ThreadgroupChase:
                expected = FigureKind::MemoryLatency;
                break;
            case MemoryKind::Stream:
            case MemoryKind::ThreadgroupStream:
                expected = FigureKind::Bandwidth;
                break;
            case MemoryKind::CodeSize:
                expected = FigureKind::CodeSize;
                break;
        }
        if (m.kind != expected)
            throw InputError(where + ".kind",
                             std::string("a ") + memory_kind_name(m.benchmark.memory->kind) +
                                 " benchmark gives a '" + figure_kind_name(expected) + "' figure");
        const std::string unit = memory_figure_unit(m.benchmark.memory->kind);
        if (m.unit != unit)
            throw InputError(where + ".unit", "a " + std::string(figure_kind_name(expected)) +
                                                  " figure is in \"" + unit + "\"");
        return;
    }
    if (m.kind == FigureKind::MemoryLatency || m.kind == FigureKind::Bandwidth ||
        m.kind == FigureKind::CodeSize)
        throw InputError(where + ".kind",
                         std::string("a '") + figure_kind_name(m.kind) +
                             "' figure needs a memory benchmark (benchmark.memory)");
    if (m.unit != "cycles") throw InputError(where + ".unit", "only \"cycles\" is supported");
}

}  // namespace

nlohmann::json to_json(const MeasurementFile& f) {
    nlohmann::json records = nlohmann::json::array();
    for (const auto& m : f.records) {
        nlohmann::json r = {{"id", m.id},
                            {"chip", m.chip},
                            {"clock_ghz", m.clock_ghz},
                            {"kind", figure_kind_name(m.kind)},
                            {"benchmark", to_json(m.benchmark)},
                            {"value", m.value ? nlohmann::json(*m.value) : nlohmann::json(nullptr)},
                            {"qualifier", m.qualifier},
                            {"raw", m.raw},
                            {"unit", m.unit},
                            {"provenance", m.provenance}};
        if (!m.probe.is_null() && !m.probe.empty()) r["probe"] = m.probe;
        records.push_back(std::move(r));
    }
    nlohmann::json j = {{"format", kFormat}, {"version", kVersion}, {"description", f.description}};
    if (!f.probe.is_null() && !f.probe.empty()) j["probe"] = f.probe;
    j["records"] = std::move(records);
    return j;
}

void write_measurements(const MeasurementFile& f, std::ostream& out) {
    out << std::setw(1) << to_json(f) << "\n";
}

MeasurementFile read_measurements(const std::string& path) {
    if (looks_like_reference_csv(path)) {
        return import_reference_csv(path);
    }
    const nlohmann::json j = read_json_file(path, "measurement file");
    if (!j.is_object() || !j.contains("format") || j.at("format") != kFormat)
        throw InputError(
            path, std::string("not an agxsim measurement file (expected \"format\": \"") + kFormat +
                      "\")");
    if (j.contains("version") && !j.at("version").is_number_integer())
        throw InputError(path + ": version", std::string("expected the integer ") +
                                                 std::to_string(kVersion) + ", got " +
                                                 j.at("version").type_name());
    if (j.value("version", nlohmann::json(0)) != kVersion)
        throw InputError(path, "measurement format version " +
                                   j.value("version", nlohmann::json(0)).dump() +
                                   " is not supported (this agxsim reads version 1)");
    MeasurementFile f;
    f.description = optional_str(j, "description", path + ": description");
    if (j.contains("probe")) {
        if (!j.at("probe").is_object()) throw InputError(path + ": probe", "expected an object");
        f.probe = j.at("probe");
    }
    if (!j.contains("records") || !j.at("records").is_array())
        throw InputError(path, "records: missing or not an array");
    std::set<std::string> ids;
    std::size_t i = 0;
    for (const auto& r : j.at("records")) {
        const std::string where = path + ": records[" + std::to_string(i++) + "]";
        Measurement m;
        m.id = str(r, "id", where);
        if (!ids.insert(m.id).second)
            throw InputError(where + ".id", "duplicate id '" + m.id + "'");
        m.chip = str(r, "chip", where);
        // A record not measured (value null) may have no clock: no cycles were
        // computed (the Metal probe on a chip whose clock it could not learn).
        const bool measured = r.contains("value") && r.at("value").is_number();
        if (!r.contains("clock_ghz") || !r.at("clock_ghz").is_number() ||
            r.at("clock_ghz").get<double>() < 0 || r.at("clock_ghz").get<double>() > kMaxClockGhz ||
            (measured && !(r.at("clock_ghz").get<double>() > 0)))
            throw InputError(where + ".clock_ghz",
                             measured ? "missing or not a clock in GHz (above 0 and at most 10)"
                                      : "missing or not a clock in GHz (0 to 10)");
        m.clock_ghz = r.at("clock_ghz").get<double>();
        m.kind = kind_from(str(r, "kind", where), where + ".kind");
        if (!r.contains("benchmark")) throw InputError(where + ".benchmark", "missing");
        m.benchmark = benchmark_from_json(r.at("benchmark"), where + ".benchmark");
        if (!r.contains("value"))
            throw InputError(where + ".value", "missing (null when not measured)");
        if (r.at("value").is_number()) {
            const double v = r.at("value").get<double>();
            // A time, a bandwidth or a share: positive, or the error statistics mean nothing.
            if (!(std::isfinite(v) && v > 0 && v <= kMaxFigure))
                throw InputError(where + ".value",
                                 "out of range: " + r.at("value").dump() +
                                     " (a measured figure is above 0 and at most 1e9)");
            m.value = v;
        } else if (!r.at("value").is_null()) {
            throw InputError(where + ".value", "expected a number or null");
        }
        m.qualifier = optional_str(r, "qualifier", where + ".qualifier");
        if (!(m.qualifier.empty() || m.qualifier == "~" || m.qualifier == "<" ||
              m.qualifier == "≤"))
            throw InputError(where + ".qualifier", "expected \"\", \"~\", \"<\" or \"≤\"");
        m.raw = optional_str(r, "raw", where + ".raw");
        m.unit = str(r, "unit", where);
        check_kind_and_unit(m, where);
        m.provenance = str(r, "provenance", where);
        if (r.contains("probe")) {
            if (!r.at("probe").is_object())
                throw InputError(where + ".probe", "expected an object");
            m.probe = r.at("probe");
        }
        f.records.push_back(std::move(m));
    }
    return f;
}

}  // namespace agx::validation
