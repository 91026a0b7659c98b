#include "validation/lib/method.hpp"

#include <cstdlib>

#include <nlohmann/json.hpp>

#include "sim/common/errors.hpp"
#include "sim/common/json_input.hpp"

namespace agx::validation {

std::string validation_dir() {
    if (const char* env = std::getenv("AGXSIM_VALIDATION_DIR")) return env;
    return AGXSIM_VALIDATION_DIR;
}

namespace {

KindParameters kind(const nlohmann::json& j, const char* key, const std::string& where) {
    if (!j.contains(key)) throw InputError(where + ": " + key, "missing");
    const auto& k = j.at(key);
    KindParameters p;
    try {
        p.ilp = k.value("ilp", 1u);
        p.simds_per_core = k.value("simds_per_core", 4u);
        p.repetitions = k.at("repetitions").get<std::uint32_t>();
        p.method = k.at("method").get<std::string>() == "steady"
                       ? BenchmarkDefinition::Method::Steady
                       : BenchmarkDefinition::Method::Total;
        // Each row's definition checks them against its own simds per core.
        p.resident_threadgroups = k.value("resident_threadgroups", 0u);
        p.waves = k.value("waves", 1u);
        if (p.waves == 0 || p.waves > 100000)
            throw InputError(where + ": " + key + ".waves", "must be 1 to 100000");
        if (p.resident_threadgroups > 96)
            throw InputError(where + ": " + key + ".resident_threadgroups", "must be 0 to 96");
        const std::string shape = k.value("operand_shape", "x*y+z");
        p.operand_shape = shape == "vec4_groups" ? OperandShape::Vec4Groups
                          : shape == "x*x+1"     ? OperandShape::SelfReuse
                                                 : OperandShape::Distinct;
        if (k.contains("kernel_overhead_cycles")) {
            p.overhead_16 = k.at("kernel_overhead_cycles").at("16").get<double>();
            p.overhead_32 = k.at("kernel_overhead_cycles").at("32").get<double>();
            if (p.overhead_16 < 0 || p.overhead_32 < 0)
                throw InputError(where + ": " + key + ".kernel_overhead_cycles",
                                 "must not be negative");
        }
    } catch (const nlohmann::json::exception& e) {
        throw InputError(where + ": " + key, e.what());
    }
    return p;
}

Method load(const std::string& path) {
    const nlohmann::json j = read_json_file(path, "the measurement-method file");
    Method m;
    m.throughput = kind(j, "throughput", path);
    m.latency = kind(j, "latency", path);
    m.ilp_occupancy = kind(j, "ilp_occupancy", path);
    try {
        m.overhead_16 = j.at("kernel_overhead_cycles").at("16").get<double>();
        m.overhead_32 = j.at("kernel_overhead_cycles").at("32").get<double>();
    } catch (const nlohmann::json::exception& e) {
        throw InputError(path + ": kernel_overhead_cycles", e.what());
    }
    return m;
}

}  // namespace

const Method& method(const std::string& path) {
    static const Method m = load(path.empty() ? validation_dir() + "/suite/method.json" : path);
    return m;
}

}  // namespace agx::validation
