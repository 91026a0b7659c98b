#include "sim/config/config_read.hpp"

#include <cstdint>
#include <limits>
#include <optional>

#include "sim/config/config_error.hpp"
#include "sim/config/config_schema.hpp"
#include "sim/config/config_validate.hpp"

namespace agx::config_detail {

using nlohmann::json;

namespace {

// "string \"8k\"", short enough to quote in a one-line error.
std::string describe(const json& v) {
    std::string text = v.dump();
    if (text.size() > 40) text = text.substr(0, 37) + "...";
    return std::string(v.type_name()) + " " + text;
}

// --- key structure --------------------------------------------------------

void check_leaf_form(const ConfigDocument& doc, const std::string& path, const json& v) {
    if (!v.is_object()) return;  // a bare value
    if (!v.contains("value"))
        throw config_error(doc.where(path), path,
                           "expected a setting, written X or {\"value\": X, \"source\": \"...\"}");
    for (const auto& [k, inner] : v.items()) {
        if (k == "value") continue;
        if (k != "source")
            throw config_error(doc.where(path), key_path(path, k),
                               "unknown key in a setting (only \"value\" and \"source\")");
        if (!inner.is_string() || inner.get<std::string>().empty())
            throw config_error(doc.where(path), key_path(path, k),
                               "expected a non-empty string saying where the value comes from");
    }
}

void check_keys(const ConfigDocument& doc, const json& group, const std::string& at) {
    const KeySet& keys = known_keys();
    for (const auto& [k, v] : group.items()) {
        const std::string path = key_path(at, k);
        if (keys.leaves.count(path)) {
            check_leaf_form(doc, path, v);
        } else if (keys.groups.count(path)) {
            if (!v.is_object() || is_leaf_object(v))
                throw config_error(
                    doc.where(path), path,
                    "expected a group of settings (a JSON object of keys), got " +
                        (v.is_object() ? std::string("a single setting") : describe(v)));
            check_keys(doc, v, path);
        } else if (at == "core.timing") {
            throw config_error(
                doc.where(path), path,
                "unknown timing class (not a timing class of the instruction catalogue)");
        } else {
            const std::string hint = nearest_key(path);
            throw config_error(
                doc.where(path), path,
                "unknown key" + (hint.empty() ? "" : " (did you mean " + hint + "?)"));
        }
    }
}

// --- typed leaves ----------------------------------------------------------
// Each returns the reason the value does not fit, or nothing.

std::optional<std::string> parse(const json& v, std::uint32_t& out) {
    if (v.is_number_unsigned()) {
        if (v.get<std::uint64_t>() > std::numeric_limits<std::uint32_t>::max())
            return "too large: " + v.dump() + " (at most 4294967295)";
        out = v.get<std::uint32_t>();
        return std::nullopt;
    }
    if (v.is_number_integer()) return "must not be negative, got " + v.dump();
    return "expected a non-negative integer, got " + describe(v);
}

std::optional<std::string> parse(const json& v, double& out) {
    if (!v.is_number()) return "expected a number, got " + describe(v);
    out = v.get<double>();
    return std::nullopt;
}

std::optional<std::string> parse(const json& v, std::string& out) {
    if (!v.is_string()) return "expected a string, got " + describe(v);
    out = v.get<std::string>();
    return std::nullopt;
}

// A choice by name (sim/config/policies.hpp).
template <class E, std::enable_if_t<is_policy<E>::value, int> = 0>
std::optional<std::string> parse(const json& v, E& out) {
    if (!v.is_string()) return "expected a string, got " + describe(v);
    const std::string name = v.get<std::string>();
    const std::optional<E> value = policy_from_name<E>(name);
    if (!value)
        return "unknown name '" + name + "' (expected one of: " + policy_name_list<E>() + ")";
    out = *value;
    return std::nullopt;
}

std::optional<std::string> parse(const json& v, std::vector<OccupancyStep>& out) {
    const std::string shape = "expected a list of {\"halves\": N, \"threads\": N}";
    if (!v.is_array()) return shape + ", got " + describe(v);
    out.clear();
    for (std::size_t i = 0; i < v.size(); ++i) {
        const json& step = v[i];
        const std::string at = "step " + std::to_string(i + 1) + ": ";
        if (!step.is_object() || step.size() != 2 || !step.contains("halves") ||
            !step.contains("threads"))
            return at + shape + ", got " + describe(step);
        OccupancyStep s;
        if (auto bad = parse(step["halves"], s.halves)) return at + "halves: " + *bad;
        if (auto bad = parse(step["threads"], s.threads)) return at + "threads: " + *bad;
        out.push_back(s);
    }
    return std::nullopt;
}

// Reads every leaf visit_fields names, recording its source.
struct LeafReader {
    const ConfigDocument& doc;
    std::map<std::string, std::string>& sources;

    template <class T>
    void operator()(const std::string& path, T& member) {
        const json* node = &doc.tree;
        std::string walked;
        std::size_t from = 0;
        while (true) {
            const auto dot = path.find('.', from);
            const std::string part =
                path.substr(from, dot == std::string::npos ? std::string::npos : dot - from);
            walked = key_path(walked, part);
            auto it = node->find(part);
            if (it == node->end())
                throw config_error(doc.file, walked,
                                   walked == path
                                       ? "missing key (every setting must be given)"
                                       : "missing group of settings (every setting must be given)");
            node = &*it;
            if (dot == std::string::npos) break;
            from = dot + 1;
        }

        const json& value = is_leaf_object(*node) ? (*node)["value"] : *node;
        if (auto bad = parse(value, member)) throw config_error(doc.where(path), path, *bad);

        if (is_leaf_object(*node) && node->contains("source"))
            sources[path] = (*node)["source"].get<std::string>();
        else
            sources[path] = "no source given in " + doc.where(path);
    }
};

}  // namespace

MachineConfig read_config(const ConfigDocument& doc) {
    check_keys(doc, doc.tree, "");
    MachineConfig cfg = config_skeleton();
    visit_fields(cfg, LeafReader{doc, cfg.sources});
    if (auto problem = find_problem(cfg)) {
        const std::string key = doc.latest(problem->key, problem->also);
        throw config_error(doc.where(key), key, problem->reason);
    }
    return cfg;
}

}  // namespace agx::config_detail
