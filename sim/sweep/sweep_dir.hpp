// A sweep's output directory, the only thing a sweep's processes share (on
// one machine or across a cluster's nodes):
//
//   sweep.json          the description it holds results of, with where it was read
//   results.csv         one row per point (a local run, or `collect`'s merge)
//   shards/I-of-N.csv   shard I's rows (`sweep run --shard I/N`)
//   slurm/              the job-array script and its tasks' logs
//   scratch/            the running points' statistics, removed as they finish
#pragma once

#include <string>
#include <vector>

#include "sim/sweep/process_pool.hpp"
#include "sim/sweep/results_csv.hpp"
#include "sim/sweep/sweep_spec.hpp"

namespace agx::sweep {

struct Shard {
    std::size_t index = 0, count = 1;
    bool contains(std::size_t point) const { return point % count == index; }
};

// "I/N" with 0 <= I < N. Throws InputError naming --shard.
Shard parse_shard(const std::string& text);

std::string results_path(const std::string& dir, const Shard& shard, bool sharded);
std::string shards_dir(const std::string& dir);

// Records `spec` as the directory's sweep, or checks that the directory
// already holds results of the same description. Throws InputError if it
// holds another sweep's.
void claim_directory(const std::string& dir, const SweepSpec& spec);

// The sweep a directory holds results of (its files need not exist here).
SweepSpec read_directory(const std::string& dir);

// results.csv's columns: point, workload, config, each axis, each metric,
// host_seconds, status, error.
std::vector<std::string> results_header(const SweepSpec& spec);
std::vector<std::string> results_row(const SweepSpec& spec, const Point& p, const PointOutcome& o);

// Checks that every row of `table`, read from `file`, is a point of `spec`:
// its point number is one of the sweep's, and its workload, config and axis
// values are that point's. Rows of another description (a sweep.json edited
// after the run, with an axis reordered, say) would otherwise be drawn or
// merged under the wrong labels. Throws InputError naming the file and row.
void check_rows_are_points(const SweepSpec& spec, const ResultsTable& table,
                           const std::string& file);

// A config's name in results: the name, or a path's file stem.
std::string config_label(const std::string& config);

}  // namespace agx::sweep
