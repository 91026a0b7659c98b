// A sweep: the description of a what-if study (docs/sweeps.md) read from
// JSON into plain structs, and the points it spans.
//
// A point is one simulation: one workload on one config with one value of
// every axis. Points are numbered in a fixed order (workload, then config,
// then the axes, the first axis outermost), so a point's number names it in
// results, shards and resumes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace agx::sweep {

// What one point simulates.
struct WorkloadSpec {
    enum class Kind { file, suite };
    Kind kind = Kind::file;
    std::string name;  // the label in results and plots
    std::string path;  // a trace or kernel (file), a measurement file (suite)
    std::string suite_id;
    std::vector<std::string> sets;  // this workload's own --set KEY=VALUE
};

// One axis: a --set key (or `cores`) and its values. Axes in a zip group
// move together: a group contributes one dimension to the product.
struct Axis {
    std::string key;
    std::vector<nlohmann::json> values;
    std::size_t dimension = 0;  // the axes of one zip share a dimension
};

struct SweepSpec {
    std::string file;      // the description's path, as given (for messages)
    std::string base_dir;  // relative paths in the description are from here
    std::string name, description;
    std::vector<WorkloadSpec> workloads;
    std::vector<std::string> configs;  // names or resolved paths
    std::string cores = "1";           // --cores unless an axis sets it
    std::vector<std::string> sets;     // every point's --set KEY=VALUE
    std::vector<Axis> axes;            // flattened, in description order
    std::size_t dimensions = 0;        // groups: axes outside a zip count one each
    std::vector<std::string> metrics;  // names (see metrics.hpp)
    std::vector<std::size_t> dimension_size;
    std::vector<std::size_t> baseline;  // a value index per dimension (0 when not given)
    nlohmann::json document;            // the description as read
};

struct Point {
    std::size_t index = 0;
    std::size_t workload = 0, config = 0;
    std::vector<std::size_t> value_index;  // per dimension, into each of its axes' values
    const nlohmann::json& value(const SweepSpec& spec, std::size_t axis) const {
        return spec.axes[axis].values[value_index[spec.axes[axis].dimension]];
    }
};

// Reads and checks the description's shape (keys, types, ranges, files that
// must exist). Throws InputError("<file>: <entry>", reason). Checks that need
// the simulator's config loader are in validate.hpp.
SweepSpec read_sweep(const std::string& path);

// Parses a description already in memory (`file` names it in messages,
// `base_dir` anchors relative paths). Without `check_files` the workloads'
// files need not exist (reading results on another machine).
SweepSpec parse_sweep(const nlohmann::json& doc, const std::string& file,
                      const std::string& base_dir, bool check_files = true);

std::size_t point_count(const SweepSpec& spec);
Point point_at(const SweepSpec& spec, std::size_t index);

// A value as it appears in --set and in results.csv: strings bare, others as JSON.
std::string value_text(const nlohmann::json& v);

// The --set arguments of a point, in order: the sweep's, the workload's, the axes'
// (`cores` excluded).
std::vector<std::string> point_sets(const SweepSpec& spec, const Point& p);
std::string point_cores(const SweepSpec& spec, const Point& p);

// Whether every dimension other than `except` and `except2` is at its baseline.
bool at_baseline(const SweepSpec& spec, const Point& p, std::size_t except = SIZE_MAX,
                 std::size_t except2 = SIZE_MAX);

}  // namespace agx::sweep
