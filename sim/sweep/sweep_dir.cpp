#include "sim/sweep/sweep_dir.hpp"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "sim/common/errors.hpp"
#include "sim/common/json_input.hpp"
#include "sim/common/output_file.hpp"
#include "sim/sweep/metrics.hpp"
#include "sim/sweep/results_csv.hpp"

namespace agx::sweep {

namespace {
namespace fs = std::filesystem;
constexpr int kManifestVersion = 1;

std::string manifest_path(const std::string& dir) {
    return dir + "/sweep.json";
}

std::string absolute(const std::string& p) {
    std::error_code ec;
    const fs::path a = fs::absolute(p, ec);
    return ec ? p : a.lexically_normal().string();
}

std::string format_double(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.10g", v);
    return buf;
}
}  // namespace

Shard parse_shard(const std::string& text) {
    const auto slash = text.find('/');
    auto number = [&](const std::string& s) -> std::size_t {
        if (s.empty() || s.size() > 9 || s.find_first_not_of("0123456789") != std::string::npos)
            throw InputError("--shard " + text, "expected I/N, shard I of N counted from 0");
        return std::stoul(s);
    };
    if (slash == std::string::npos)
        throw InputError("--shard " + text, "expected I/N, shard I of N counted from 0");
    Shard s{number(text.substr(0, slash)), number(text.substr(slash + 1))};
    if (s.count == 0 || s.index >= s.count)
        throw InputError("--shard " + text, "expected 0 <= I < N");
    return s;
}

std::string shards_dir(const std::string& dir) {
    return dir + "/shards";
}

std::string results_path(const std::string& dir, const Shard& shard, bool sharded) {
    if (!sharded) return dir + "/results.csv";
    return shards_dir(dir) + "/" + std::to_string(shard.index) + "-of-" +
           std::to_string(shard.count) + ".csv";
}

void claim_directory(const std::string& dir, const SweepSpec& spec) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) throw InputError(dir, "cannot create the output directory: " + ec.message());
    const std::string path = manifest_path(dir);
    if (fs::exists(path)) {
        const SweepSpec held = read_directory(dir);
        if (held.document != spec.document || absolute(held.base_dir) != absolute(spec.base_dir))
            throw InputError(dir, "holds results of another sweep description (" + held.file +
                                      "); use another --out directory");
        return;
    }
    nlohmann::json m = {{"agxsim_sweep", kManifestVersion},
                        {"source", absolute(spec.file)},
                        {"base_dir", absolute(spec.base_dir)},
                        {"points", point_count(spec)},
                        {"description", spec.document}};
    write_file_atomically(path, m.dump(2) + "\n");  // never half a file to a concurrent claim
}

SweepSpec read_directory(const std::string& dir) {
    const std::string path = manifest_path(dir);
    if (!fs::exists(path))
        throw InputError(
            dir, "holds no sweep (no sweep.json): run `agxsim sweep run` or `sweep slurm` first");
    const nlohmann::json m = read_json_file(path, "the sweep manifest");
    // Every field checked for its type before it is read: an edited manifest
    // is refused, not an internal error.
    const auto is_string = [&](const char* key) { return m.contains(key) && m[key].is_string(); };
    if (!m.is_object() || !m.contains("agxsim_sweep") || !m["agxsim_sweep"].is_number_integer() ||
        m["agxsim_sweep"].get<std::int64_t>() != kManifestVersion || !m.contains("description") ||
        !is_string("source") || !is_string("base_dir"))
        throw InputError(path, "not a sweep manifest of this agxsim version");
    return parse_sweep(m["description"], m["source"].get<std::string>(),
                       m["base_dir"].get<std::string>(),
                       /*check_files=*/false);
}

std::string config_label(const std::string& config) {
    if (config.find('/') == std::string::npos && config.find(".json") == std::string::npos)
        return config;
    return fs::path(config).stem().string();
}

std::vector<std::string> results_header(const SweepSpec& spec) {
    std::vector<std::string> h = {"point", "workload", "config"};
    for (const Axis& a : spec.axes) h.push_back(a.key);
    for (const std::string& m : spec.metrics) h.push_back(m);
    for (const char* c : {"host_seconds", "status", "error"}) h.push_back(c);
    return h;
}

namespace {
// The columns that say which point a row is, after its number: workload,
// config and each axis's value.
std::vector<std::string> point_columns(const SweepSpec& spec, const Point& p) {
    std::vector<std::string> c = {spec.workloads[p.workload].name,
                                  config_label(spec.configs[p.config])};
    for (std::size_t a = 0; a < spec.axes.size(); ++a) c.push_back(value_text(p.value(spec, a)));
    return c;
}
}  // namespace

std::vector<std::string> results_row(const SweepSpec& spec, const Point& p, const PointOutcome& o) {
    std::vector<std::string> r = {std::to_string(p.index)};
    for (std::string& c : point_columns(spec, p)) r.push_back(std::move(c));
    for (const std::string& m : spec.metrics) {
        const auto v = o.ok ? metric_value(o.stats, m) : std::nullopt;
        r.push_back(v ? format_double(*v) : "");
    }
    r.push_back(format_double(o.host_seconds));
    r.push_back(o.ok ? "ok" : "failed");
    r.push_back(o.ok ? "" : o.error);
    return r;
}

void check_rows_are_points(const SweepSpec& spec, const ResultsTable& table,
                           const std::string& file) {
    for (std::size_t i = 0; i < table.rows.size(); ++i) {
        const std::vector<std::string>& row = table.rows[i];
        // read_results() checked the first column is a number; a number
        // past the sweep's points is another sweep's row.
        const std::size_t point = std::stoull(row.at(0)), n = point_count(spec);
        if (point >= n)
            throw InputError(file + ":" + std::to_string(i + 2),
                             "point " + row[0] + " is past the sweep's " + std::to_string(n) +
                                 " points: the results are another sweep's");
        const std::vector<std::string> want = point_columns(spec, point_at(spec, point));
        for (std::size_t c = 0; c < want.size(); ++c)
            if (row.at(c + 1) != want[c])
                throw InputError(file + ":" + std::to_string(i + 2),
                                 "point " + row[0] + "'s " + table.header.at(c + 1) + " is '" +
                                     bounded_message(row[c + 1]) + "' where the sweep's point " +
                                     row[0] + " has '" + bounded_message(want[c]) +
                                     "': the results are not of the directory's sweep.json "
                                     "(edited after the run?)");
    }
}

}  // namespace agx::sweep
