#include "sim/sweep/sweep_spec.hpp"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "sim/common/errors.hpp"
#include "sim/common/json_input.hpp"
#include "sim/sweep/metrics.hpp"

namespace agx::sweep {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// Past this a study belongs in several sweeps; it also bounds what a typo in
// a range (a step of 1e-9) can ask for.
constexpr std::size_t kMaxValuesPerAxis = 100'000;
constexpr std::size_t kMaxPoints = 10'000'000;
// The values of all axes together, zipped ones included: zipped axes add
// values but no points, so without this 60 zipped ranges of 100,000 values
// (3 KB of description) took seconds to read.
constexpr std::size_t kMaxAxisValues = 1'000'000;

class Reader {
  public:
    explicit Reader(std::string file) : file_(std::move(file)) {}
    [[noreturn]] void fail(const std::string& entry, const std::string& reason) const {
        throw InputError(file_ + ": " + entry, reason);
    }
    void only_keys(const json& obj, const std::string& entry,
                   std::initializer_list<const char*> keys) const {
        for (const auto& [k, v] : obj.items()) {
            bool known = false;
            std::string list;
            for (const char* key : keys) {
                known = known || k == key;
                list += (list.empty() ? "" : ", ") + std::string(key);
            }
            if (!known)
                fail(entry.empty() ? k : entry + "." + k, "unknown key (expected " + list + ")");
        }
    }
    std::string string(const json& v, const std::string& entry) const {
        if (!v.is_string() || v.get<std::string>().empty())
            fail(entry, "expected a non-empty string");
        return v.get<std::string>();
    }

  private:
    std::string file_;
};

// A count of points for a message: exact up to 2^53, else rounded (a
// product of axes may pass 2^64, past which converting it is undefined).
std::string points_text(double n) {
    if (n <= 9007199254740992.0) return std::to_string(static_cast<unsigned long long>(n));
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g", n);
    return buf;
}

bool is_scalar(const json& v) {
    return v.is_number() || v.is_string() || v.is_boolean();
}

std::string path_from(const std::string& base_dir, const std::string& p) {
    if (p.empty() || fs::path(p).is_absolute() || base_dir.empty()) return p;
    return (fs::path(base_dir) / p).lexically_normal().string();
}

bool looks_like_path(const std::string& config) {
    return config.find('/') != std::string::npos ||
           (config.size() > 5 && config.compare(config.size() - 5, 5, ".json") == 0);
}

std::vector<std::string> set_list(const Reader& r, const json& obj, const std::string& entry) {
    if (!obj.is_object()) r.fail(entry, "expected an object of KEY: value");
    std::vector<std::string> sets;
    for (const auto& [k, v] : obj.items()) {
        if (k.find('=') != std::string::npos) r.fail(entry + "." + k, "a key cannot contain '='");
        if (k == "cores")
            r.fail(entry + ".cores", "cores is the sweep's \"cores\" entry or an axis");
        if (!is_scalar(v) && !v.is_array()) r.fail(entry + "." + k, "expected a value");
        sets.push_back(k + "=" + value_text(v));
    }
    return sets;
}

std::vector<json> range_values(const Reader& r, const json& range, const std::string& entry) {
    if (!range.is_object())
        r.fail(entry, "expected {\"from\": A, \"to\": B, \"step\" or \"times\": S}");
    r.only_keys(range, entry, {"from", "to", "step", "times"});
    for (const char* k : {"from", "to"})
        if (!range.contains(k) || !range[k].is_number() || !std::isfinite(range[k].get<double>()))
            r.fail(entry + "." + k, "expected a finite number");
    const bool step = range.contains("step"), times = range.contains("times");
    if (step == times)
        r.fail(entry, "give exactly one of \"step\" (A, A+S, ...) or \"times\" (A, A*S, ...)");
    const json& s = step ? range["step"] : range["times"];
    const std::string sentry = entry + (step ? ".step" : ".times");
    if (!s.is_number() || !std::isfinite(s.get<double>()))
        r.fail(sentry, "expected a finite number");
    const double from = range["from"].get<double>(), to = range["to"].get<double>();
    const double by = s.get<double>();
    const bool integers = range["from"].is_number_integer() && range["to"].is_number_integer() &&
                          s.is_number_integer();
    std::vector<json> values;
    auto push = [&](double v) {
        if (values.size() >= kMaxValuesPerAxis)
            r.fail(entry, "more than " + std::to_string(kMaxValuesPerAxis) + " values");
        if (integers)
            values.push_back(static_cast<long long>(std::llround(v)));
        else
            values.push_back(v);
    };
    if (step) {
        if (by == 0 || (to - from) / by < 0)
            r.fail(sentry, "does not lead from \"from\" to \"to\"");
        const double n = std::floor((to - from) / by + 1e-9);
        if (n + 1 > kMaxValuesPerAxis)
            r.fail(entry, "more than " + std::to_string(kMaxValuesPerAxis) + " values");
        for (double i = 0; i <= n; ++i) push(from + i * by);
    } else {
        if (from == 0 || by <= 0 || by == 1 || (to / from) <= 0 ||
            (std::abs(to) >= std::abs(from)) != (by > 1))
            r.fail(
                sentry,
                "does not lead from \"from\" to \"to\" (a factor above 1 grows, below 1 shrinks)");
        const double n = std::floor(std::log(to / from) / std::log(by) + 1e-9);
        if (n + 1 > kMaxValuesPerAxis)
            r.fail(entry, "more than " + std::to_string(kMaxValuesPerAxis) + " values");
        for (double i = 0; i <= n; ++i) push(from * std::pow(by, i));
    }
    return values;
}

Axis read_axis(const Reader& r, const json& a, const std::string& entry, std::size_t dimension) {
    if (!a.is_object())
        r.fail(entry, "expected {\"key\": K, \"values\": [...]} or {\"key\": K, \"range\": {...}}");
    r.only_keys(a, entry, {"key", "values", "range"});
    if (!a.contains("key")) r.fail(entry, "missing \"key\" (a --set key, launch.KEY or cores)");
    Axis axis;
    axis.key = r.string(a["key"], entry + ".key");
    axis.dimension = dimension;
    if (axis.key.find('=') != std::string::npos) r.fail(entry + ".key", "a key cannot contain '='");
    if (a.contains("values") == a.contains("range"))
        r.fail(entry, "give exactly one of \"values\" (a list) or \"range\"");
    if (a.contains("values")) {
        const json& v = a["values"];
        if (!v.is_array() || v.empty()) r.fail(entry + ".values", "expected a non-empty list");
        if (v.size() > kMaxValuesPerAxis)
            r.fail(entry + ".values", "more than " + std::to_string(kMaxValuesPerAxis) + " values");
        for (std::size_t i = 0; i < v.size(); ++i) {
            if (!is_scalar(v[i]))
                r.fail(entry + ".values[" + std::to_string(i) + "]",
                       "expected a number, string or boolean");
            if (v[i].is_number_float() && !std::isfinite(v[i].get<double>()))
                r.fail(entry + ".values[" + std::to_string(i) + "]", "expected a finite number");
            axis.values.push_back(v[i]);
        }
    } else {
        axis.values = range_values(r, a["range"], entry + ".range");
    }
    std::set<std::string> seen;
    for (const json& v : axis.values)
        if (!seen.insert(value_text(v)).second)
            r.fail(entry, "the value " + value_text(v) + " appears twice");
    if (axis.key == "cores")
        for (const json& v : axis.values)
            if (!(v.is_number_unsigned() && v.get<unsigned long long>() > 0) &&
                !(v.is_string() && v.get<std::string>() == "all"))
                r.fail(entry, "cores takes a positive integer or \"all\", not " + value_text(v));
    return axis;
}

}  // namespace

std::string value_text(const json& v) {
    if (v.is_string()) return v.get<std::string>();
    return v.dump();
}

SweepSpec read_sweep(const std::string& path) {
    const json doc = read_json_file(path, "the sweep description");
    std::error_code ec;
    const fs::path dir = fs::absolute(path, ec).parent_path().lexically_normal();
    return parse_sweep(doc, path, ec ? fs::path(path).parent_path().string() : dir.string());
}

SweepSpec parse_sweep(const json& doc, const std::string& file, const std::string& base_dir,
                      bool check_files) {
    const Reader r(file);
    SweepSpec spec;
    spec.file = file;
    spec.base_dir = base_dir;
    spec.document = doc;
    if (!doc.is_object()) r.fail("(top)", "expected an object");
    r.only_keys(doc, "",
                {"name", "description", "workloads", "configs", "cores", "set", "axes", "metrics",
                 "baseline"});
    if (!doc.contains("name")) r.fail("name", "missing (names the study in results and plots)");
    spec.name = r.string(doc["name"], "name");
    if (doc.contains("description")) {
        if (!doc["description"].is_string()) r.fail("description", "expected a string");
        spec.description = doc["description"].get<std::string>();
    }

    // Workloads.
    if (!doc.contains("workloads") || !doc["workloads"].is_array() || doc["workloads"].empty())
        r.fail("workloads", "expected a non-empty list of traces, kernels or suite benchmarks");
    std::set<std::string> names;
    for (std::size_t i = 0; i < doc["workloads"].size(); ++i) {
        const json& w = doc["workloads"][i];
        const std::string entry = "workloads[" + std::to_string(i) + "]";
        WorkloadSpec ws;
        if (w.is_string()) {
            ws.path = path_from(base_dir, r.string(w, entry));
        } else if (w.is_object()) {
            r.only_keys(w, entry, {"path", "suite", "measurements", "name", "set"});
            if (w.contains("path") == w.contains("suite"))
                r.fail(entry,
                       "give \"path\" (a trace or kernel) or \"suite\" (a benchmark id) with "
                       "\"measurements\"");
            if (w.contains("path")) {
                ws.path = path_from(base_dir, r.string(w["path"], entry + ".path"));
                if (w.contains("measurements"))
                    r.fail(entry + ".measurements", "only for a \"suite\" workload");
            } else {
                ws.kind = WorkloadSpec::Kind::suite;
                ws.suite_id = r.string(w["suite"], entry + ".suite");
                if (!w.contains("measurements"))
                    r.fail(
                        entry,
                        "a \"suite\" workload needs \"measurements\" (the file that defines it)");
                ws.path = path_from(base_dir, r.string(w["measurements"], entry + ".measurements"));
            }
            if (w.contains("name")) ws.name = r.string(w["name"], entry + ".name");
            if (w.contains("set")) ws.sets = set_list(r, w["set"], entry + ".set");
        } else {
            r.fail(entry, "expected a path or an object");
        }
        std::error_code ec;
        if (check_files && !fs::is_regular_file(ws.path, ec))
            r.fail(entry, "no such file: " + ws.path);
        if (ws.name.empty())
            ws.name = ws.kind == WorkloadSpec::Kind::suite ? ws.suite_id
                                                           : fs::path(ws.path).stem().string();
        // A name is a cell of results.csv and a label of the plots (whose
        // file names keep only its letters and digits): no comma, quote or
        // newline. A suite id's '/' is fine, so the id is its default name.
        for (char c : ws.name)
            if (c == ',' || c == '"' || c == '\n')
                r.fail(entry + ".name", "'" + ws.name + "' cannot hold , \" or a newline");
        if (!names.insert(ws.name).second)
            r.fail(entry, "a second workload named '" + ws.name + "' (give it a \"name\")");
        spec.workloads.push_back(std::move(ws));
    }

    // Configs.
    if (!doc.contains("configs")) {
        spec.configs.push_back("m1");
    } else {
        if (!doc["configs"].is_array() || doc["configs"].empty())
            r.fail("configs", "expected a non-empty list of config names or paths");
        std::set<std::string> seen;
        for (std::size_t i = 0; i < doc["configs"].size(); ++i) {
            const std::string entry = "configs[" + std::to_string(i) + "]";
            std::string c = r.string(doc["configs"][i], entry);
            if (looks_like_path(c)) c = path_from(base_dir, c);
            if (!seen.insert(c).second) r.fail(entry, "'" + c + "' appears twice");
            spec.configs.push_back(c);
        }
    }

    if (doc.contains("cores")) {
        const json& c = doc["cores"];
        if (!(c.is_number_unsigned() && c.get<unsigned long long>() > 0) &&
            !(c.is_string() && c.get<std::string>() == "all"))
            r.fail("cores", "expected a positive integer or \"all\"");
        spec.cores = value_text(c);
    }
    if (doc.contains("set")) spec.sets = set_list(r, doc["set"], "set");

    // Axes. The points are counted as each is read (a double: the product
    // may pass 2^64), so that a description spanning too many is refused
    // before it expands the ranges of the axes after.
    double total =
        static_cast<double>(spec.workloads.size()) * static_cast<double>(spec.configs.size());
    if (doc.contains("axes")) {
        const json& axes = doc["axes"];
        if (!axes.is_array()) r.fail("axes", "expected a list");
        std::set<std::string> keys;
        std::size_t all_values = 0;
        auto count_values = [&](const Axis& axis, const std::string& entry) {
            all_values += axis.values.size();
            if (all_values > kMaxAxisValues)
                r.fail(entry, "the axes hold more than " + std::to_string(kMaxAxisValues) +
                                  " values in all (split the study)");
        };
        for (std::size_t i = 0; i < axes.size(); ++i) {
            const std::string entry = "axes[" + std::to_string(i) + "]";
            const json& a = axes[i];
            const std::size_t dim = spec.dimension_size.size();
            if (a.is_object() && a.contains("zip")) {
                r.only_keys(a, entry, {"zip"});
                const json& z = a["zip"];
                if (!z.is_array() || z.size() < 2)
                    r.fail(entry + ".zip",
                           "expected a list of at least two axes that move together");
                for (std::size_t j = 0; j < z.size(); ++j) {
                    Axis axis = read_axis(r, z[j], entry + ".zip[" + std::to_string(j) + "]", dim);
                    count_values(axis, entry + ".zip[" + std::to_string(j) + "]");
                    if (j > 0 && axis.values.size() != spec.axes.back().values.size())
                        r.fail(entry + ".zip[" + std::to_string(j) + "]",
                               "has " + std::to_string(axis.values.size()) +
                                   " values, the axes before it " +
                                   std::to_string(spec.axes.back().values.size()) +
                                   " (zipped axes move together)");
                    spec.axes.push_back(std::move(axis));
                }
            } else {
                spec.axes.push_back(read_axis(r, a, entry, dim));
                count_values(spec.axes.back(), entry);
            }
            spec.dimension_size.push_back(spec.axes.back().values.size());
            for (std::size_t k = 0; k < spec.axes.size(); ++k)
                if (spec.axes[k].dimension == dim && !keys.insert(spec.axes[k].key).second)
                    r.fail(entry, "the key '" + spec.axes[k].key + "' is swept twice");
            total *= static_cast<double>(spec.dimension_size.back());
            if (total > kMaxPoints)
                r.fail(entry, "takes the sweep to " + points_text(total) + " points, more than " +
                                  std::to_string(kMaxPoints) + " (split the study)");
        }
        // A value the axes sweep cannot also be set, at the top or for one
        // workload: the axis would override it without a word.
        for (const std::string& s : spec.sets)
            if (keys.count(s.substr(0, s.find('='))))
                r.fail("set", "'" + s.substr(0, s.find('=')) + "' is also an axis");
        for (std::size_t i = 0; i < spec.workloads.size(); ++i)
            for (const std::string& s : spec.workloads[i].sets)
                if (keys.count(s.substr(0, s.find('='))))
                    r.fail("workloads[" + std::to_string(i) + "].set",
                           "'" + s.substr(0, s.find('=')) + "' is also an axis");
    }
    spec.dimensions = spec.dimension_size.size();
    if (total > kMaxPoints)
        r.fail("axes", "spans " + points_text(total) + " points, more than " +
                           std::to_string(kMaxPoints) + " (split the study)");

    // Metrics.
    if (!doc.contains("metrics")) {
        spec.metrics = default_metrics();
    } else {
        const json& m = doc["metrics"];
        if (!m.is_array() || m.empty())
            r.fail("metrics", "expected a non-empty list of metric names");
        std::set<std::string> seen;
        for (std::size_t i = 0; i < m.size(); ++i) {
            const std::string entry = "metrics[" + std::to_string(i) + "]";
            const std::string name = r.string(m[i], entry);
            const std::string problem = metric_name_problem(name);
            if (!problem.empty()) r.fail(entry, problem);
            for (const std::string& n : expand_metric(name))
                if (seen.insert(n).second) spec.metrics.push_back(n);
        }
    }

    // Baseline: a value of each axis it names; the others at their first value.
    spec.baseline.assign(spec.dimensions, 0);
    if (doc.contains("baseline")) {
        const json& b = doc["baseline"];
        if (!b.is_object()) r.fail("baseline", "expected an object of axis key: value");
        std::vector<bool> named(spec.dimensions, false);
        for (const auto& [k, v] : b.items()) {
            const Axis* axis = nullptr;
            for (const Axis& a : spec.axes)
                if (a.key == k) axis = &a;
            if (!axis) r.fail("baseline." + k, "not an axis of this sweep");
            std::size_t at = SIZE_MAX;
            for (std::size_t i = 0; i < axis->values.size(); ++i)
                if (value_text(axis->values[i]) == value_text(v)) at = i;
            if (at == SIZE_MAX)
                r.fail("baseline." + k, value_text(v) + " is not one of the axis' values");
            if (named[axis->dimension] && spec.baseline[axis->dimension] != at)
                r.fail("baseline." + k, "disagrees with the axis zipped with it");
            named[axis->dimension] = true;
            spec.baseline[axis->dimension] = at;
        }
    }
    return spec;
}

std::size_t point_count(const SweepSpec& spec) {
    std::size_t n = spec.workloads.size() * spec.configs.size();
    for (std::size_t d : spec.dimension_size) n *= d;
    return n;
}

Point point_at(const SweepSpec& spec, std::size_t index) {
    Point p;
    p.index = index;
    p.value_index.assign(spec.dimensions, 0);
    std::size_t rest = index;
    for (std::size_t d = spec.dimensions; d-- > 0;) {
        p.value_index[d] = rest % spec.dimension_size[d];
        rest /= spec.dimension_size[d];
    }
    p.config = rest % spec.configs.size();
    p.workload = rest / spec.configs.size();
    return p;
}

std::vector<std::string> point_sets(const SweepSpec& spec, const Point& p) {
    std::vector<std::string> sets = spec.sets;
    const auto& w = spec.workloads[p.workload].sets;
    sets.insert(sets.end(), w.begin(), w.end());
    for (std::size_t a = 0; a < spec.axes.size(); ++a)
        if (spec.axes[a].key != "cores")
            sets.push_back(spec.axes[a].key + "=" + value_text(p.value(spec, a)));
    return sets;
}

std::string point_cores(const SweepSpec& spec, const Point& p) {
    for (std::size_t a = 0; a < spec.axes.size(); ++a)
        if (spec.axes[a].key == "cores") return value_text(p.value(spec, a));
    return spec.cores;
}

bool at_baseline(const SweepSpec& spec, const Point& p, std::size_t except, std::size_t except2) {
    for (std::size_t d = 0; d < spec.dimensions; ++d)
        if (d != except && d != except2 && p.value_index[d] != spec.baseline[d]) return false;
    return true;
}

}  // namespace agx::sweep
