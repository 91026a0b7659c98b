#include "validation/probe/suite_source.hpp"

#include <fstream>
#include <set>

#include "sim/common/errors.hpp"
#include "sim/common/json_input.hpp"
#include "validation/lib/method.hpp"
#include "validation/lib/reference_csv.hpp"

namespace agx::probe {

using validation::BenchmarkDefinition;
using validation::FigureKind;

namespace {

FigureKind kind_named(const std::string& s, const std::string& where) {
    // Every kind the measurement format names (figure_kind_name says "?" past the last).
    for (int i = 0; i < 32; ++i) {
        const auto k = static_cast<FigureKind>(i);
        if (std::string(validation::figure_kind_name(k)) == "?") break;
        if (s == validation::figure_kind_name(k)) return k;
    }
    throw InputError(where, "unknown kind '" + s + "'");
}

}  // namespace

FigureKind infer_kind(const BenchmarkDefinition& def) {
    if (def.memory) {
        switch (def.memory->kind) {
            case validation::MemoryKind::PointerChase:
            case validation::MemoryKind::ThreadgroupChase:
                return FigureKind::MemoryLatency;
            case validation::MemoryKind::Stream:
            case validation::MemoryKind::ThreadgroupStream:
                return FigureKind::Bandwidth;
            case validation::MemoryKind::CodeSize:
                return FigureKind::CodeSize;
        }
    }
    if (def.body.empty()) return FigureKind::Control;
    if (def.method == BenchmarkDefinition::Method::Steady) return FigureKind::Throughput;
    if (def.operand_shape == validation::OperandShape::Vec4Groups) return FigureKind::IlpOccupancy;
    return FigureKind::Latency;
}

std::vector<SuiteEntry> entries_of(const validation::MeasurementFile& file) {
    std::vector<SuiteEntry> out;
    std::set<std::string> seen;
    for (const auto& m : file.records) {
        std::string id = m.id;
        const std::string suffix = "/" + m.chip;
        if (id.size() > suffix.size() &&
            id.compare(id.size() - suffix.size(), suffix.size(), suffix) == 0)
            id.resize(id.size() - suffix.size());
        if (!seen.insert(id).second) continue;
        SuiteEntry e{id, m.kind, m.benchmark};
        e.def.name = id;
        out.push_back(std::move(e));
    }
    return out;
}

std::vector<SuiteEntry> read_suite(const std::string& path) {
    const nlohmann::json j = read_json_file(path, "suite file");
    if (!j.is_object() || !j.contains("benchmarks") || !j.at("benchmarks").is_array())
        throw InputError(path, "a suite file is an object with a \"benchmarks\" array");
    std::vector<SuiteEntry> out;
    std::set<std::string> ids;
    std::size_t i = 0;
    for (const auto& b : j.at("benchmarks")) {
        const std::string where = path + ": benchmarks[" + std::to_string(i++) + "]";
        SuiteEntry e;
        if (b.is_object() && b.contains("benchmark")) {
            if (!b.contains("id") || !b.at("id").is_string())
                throw InputError(where + ".id", "missing or not a string");
            e.def = validation::benchmark_from_json(b.at("benchmark"), where + ".benchmark");
            e.id = b.at("id").get<std::string>();
            e.kind = b.contains("kind") && b.at("kind").is_string()
                         ? kind_named(b.at("kind").get<std::string>(), where + ".kind")
                         : infer_kind(e.def);
        } else {
            e.def = validation::benchmark_from_json(b, where);
            e.id = e.def.name;
            e.kind = infer_kind(e.def);
        }
        if (!ids.insert(e.id).second) throw InputError(where, "duplicate id '" + e.id + "'");
        out.push_back(std::move(e));
    }
    return out;
}

std::vector<SuiteEntry> read_entries(const std::string& path) {
    if (!std::ifstream(path)) throw InputError(path, "cannot open");
    if (!validation::looks_like_reference_csv(path)) {
        // Peek: a suite has "benchmarks"; a measurement file has "records".
        const auto j = read_json_file(path);
        if (j.is_object() && j.contains("benchmarks")) return read_suite(path);
    }
    return entries_of(validation::read_measurements(path));
}

nlohmann::ordered_json suite_json(const std::vector<SuiteEntry>& entries,
                                  const std::string& description) {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& e : entries) {
        BenchmarkDefinition def = e.def;
        def.name = e.id;
        if (infer_kind(def) == e.kind)
            list.push_back(validation::to_json(def));
        else
            list.push_back({{"id", e.id},
                            {"kind", validation::figure_kind_name(e.kind)},
                            {"benchmark", validation::to_json(def)}});
    }
    nlohmann::ordered_json j;
    j["description"] = description;
    j["benchmarks"] = nlohmann::ordered_json::parse(list.dump());
    return j;
}

std::string default_suite_path() {
    return validation::validation_dir() + "/suite/instructions.json";
}

}  // namespace agx::probe
