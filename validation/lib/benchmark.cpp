#include "validation/lib/benchmark.hpp"

#include <set>

#include "sim/common/errors.hpp"

namespace agx::validation {

const char* operand_shape_name(OperandShape s) {
    switch (s) {
        case OperandShape::Distinct:
            return "x*y+z";
        case OperandShape::SelfReuse:
            return "x*x+1";
        case OperandShape::Vec4Groups:
            return "vec4_groups";
    }
    return "?";
}

namespace {

OperandShape shape_from(const std::string& s, const std::string& where) {
    for (OperandShape v :
         {OperandShape::Distinct, OperandShape::SelfReuse, OperandShape::Vec4Groups})
        if (s == operand_shape_name(v)) return v;
    throw InputError(where, "unknown operand_shape '" + s + "' (x*y+z, x*x+1 or vec4_groups)");
}

template <typename T>
T get(const nlohmann::json& j, const char* key, const std::string& where) {
    if (!j.contains(key)) throw InputError(where + "." + key, "missing");
    try {
        return j.at(key).get<T>();
    } catch (const nlohmann::json::exception&) {
        throw InputError(where + "." + key, "wrong type");
    }
}

std::uint32_t positive(const nlohmann::json& j, const char* key, const std::string& where,
                       std::uint32_t max) {
    const auto& v = j.at(key);
    if (!v.is_number_unsigned() || v.get<std::uint64_t>() < 1 || v.get<std::uint64_t>() > max)
        throw InputError(where + "." + key, "expected an integer from 1 to " + std::to_string(max));
    return v.get<std::uint32_t>();
}

}  // namespace

std::string BenchmarkDefinition::body_label() const {
    std::string s;
    for (const auto& item : body) {
        if (!s.empty()) s += " + ";
        if (item.count > 1) s += std::to_string(item.count) + " ";
        s += item.op;
    }
    return s.empty() ? "(empty)" : s;
}

std::vector<isa::ExpansionStep> expand_operation(const std::string& op, std::uint32_t register_bits,
                                                 const std::string& where) {
    // A width-less name takes the benchmark's width first: "FFMA" at 16 bits is FFMA16.
    if (auto steps = isa::expand_metal(op + std::to_string(register_bits))) return *steps;
    if (auto steps = isa::expand_metal(op)) return *steps;
    throw InputError(where, "operation '" + op +
                                "' has no expansion in the ISA catalogue (see `agxsim isa list`)");
}

std::string unsupported_reason(const BenchmarkDefinition& def) {
    for (const auto& item : def.body) {
        try {
            expand_operation(item.op, def.register_bits, def.name);
        } catch (const InputError&) {
            return "unsupported: no expansion for '" + item.op + "'";
        }
    }
    return "";
}

nlohmann::json to_json(const BenchmarkDefinition& b) {
    nlohmann::json body = nlohmann::json::array();
    for (const auto& item : b.body) body.push_back({{"op", item.op}, {"count", item.count}});
    nlohmann::json j = {
        {"name", b.name},
        {"body", body},
        {"ilp", b.ilp},
        {"simds_per_core", b.simds_per_core},
        {"register_bits", b.register_bits},
        {"repetitions", b.repetitions},
        {"unroll", b.unroll},
        {"operand_shape", operand_shape_name(b.operand_shape)},
        {"overhead_cycles", b.overhead_cycles},
        {"method", b.method == BenchmarkDefinition::Method::Steady ? "steady" : "total"}};
    // Written only when they say something: most definitions are one wave of
    // as few threadgroups as hold their simds.
    if (b.resident_threadgroups) j["resident_threadgroups"] = b.resident_threadgroups;
    if (b.waves != 1) j["waves"] = b.waves;
    if (b.memory) j["memory"] = to_json(*b.memory);
    return j;
}

BenchmarkDefinition benchmark_from_json(const nlohmann::json& j, const std::string& where) {
    static const std::set<std::string> known = {
        "name",           "body",          "ilp",
        "simds_per_core", "register_bits", "repetitions",
        "unroll",         "operand_shape", "overhead_cycles",
        "method",         "memory",        "resident_threadgroups",
        "waves"};
    if (!j.is_object()) throw InputError(where, "a benchmark must be a JSON object");
    for (const auto& [k, v] : j.items())
        if (!known.count(k)) throw InputError(where + "." + k, "unknown key");
    for (const char* k : {"name", "body", "ilp", "simds_per_core", "register_bits", "repetitions"})
        if (!j.contains(k)) throw InputError(where + "." + k, "missing");

    BenchmarkDefinition b;
    b.name = get<std::string>(j, "name", where);
    b.ilp = positive(j, "ilp", where, 16);
    b.simds_per_core = positive(j, "simds_per_core", where, 1024);
    b.register_bits = positive(j, "register_bits", where, 64);
    if (b.register_bits != 16 && b.register_bits != 32)
        throw InputError(where + ".register_bits", "expected 16 or 32");
    b.repetitions = positive(j, "repetitions", where, 1u << 30);
    if (j.contains("unroll")) {
        const auto& u = j.at("unroll");
        if (!u.is_number_unsigned())
            throw InputError(where + ".unroll", "expected an integer (0: fully unrolled)");
        b.unroll = u.get<std::uint32_t>();
    }
    if (j.contains("operand_shape"))
        b.operand_shape =
            shape_from(get<std::string>(j, "operand_shape", where), where + ".operand_shape");
    if (j.contains("overhead_cycles")) {
        b.overhead_cycles = get<double>(j, "overhead_cycles", where);
        // A kernel's fixed cost: thousands of cycles; the launch holds it in 32 bits.
        if (!(b.overhead_cycles >= 0 && b.overhead_cycles <= 1e6))
            throw InputError(where + ".overhead_cycles",
                             "out of range: " + j.at("overhead_cycles").dump() +
                                 " (must be 0 to 1000000 cycles)");
    }
    if (j.contains("method")) {
        const auto m = get<std::string>(j, "method", where);
        if (m == "steady")
            b.method = BenchmarkDefinition::Method::Steady;
        else if (m != "total")
            throw InputError(where + ".method", "expected 'total' or 'steady'");
    }
    if (j.contains("resident_threadgroups")) {
        b.resident_threadgroups = positive(j, "resident_threadgroups", where, 96);
        if (b.simds_per_core % b.resident_threadgroups != 0 ||
            b.simds_per_core / b.resident_threadgroups > 32)
            throw InputError(where + ".resident_threadgroups",
                             "must divide simds_per_core (" + std::to_string(b.simds_per_core) +
                                 ") into threadgroups of at most 32 simds");
    }
    if (j.contains("waves")) b.waves = positive(j, "waves", where, 100000);
    if (j.contains("memory") && (j.contains("resident_threadgroups") || j.contains("waves")))
        throw InputError(where + (j.contains("waves") ? ".waves" : ".resident_threadgroups"),
                         "not supported for a memory benchmark (its launch is its own)");
    if (j.contains("memory"))
        b.memory = memory_benchmark_from_json(j.at("memory"), where + ".memory");
    const auto& body = j.at("body");
    if (!body.is_array()) throw InputError(where + ".body", "expected an array of {op, count}");
    for (std::size_t i = 0; i < body.size(); ++i) {
        const std::string w = where + ".body[" + std::to_string(i) + "]";
        BodyItem item;
        item.op = get<std::string>(body[i], "op", w);
        item.count = body[i].contains("count") ? positive(body[i], "count", w, 1024) : 1;
        b.body.push_back(item);
    }
    return b;
}

}  // namespace agx::validation
