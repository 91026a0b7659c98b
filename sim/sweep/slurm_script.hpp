// The Slurm side of a sweep: an sbatch job-array script whose task I runs
// shard I of the points (`agxsim sweep run --shard I/N`) into the shared
// output directory. Nothing beyond sbatch and the array's environment
// (SLURM_ARRAY_TASK_ID, SLURM_CPUS_PER_TASK) is assumed of the cluster.
#pragma once

#include <cstddef>
#include <string>

namespace agx::sweep {

struct SlurmOptions {
    std::string executable;       // agxsim, by an absolute path the nodes can run
    std::string sweep_file;       // absolute
    std::string out_dir;          // absolute, on storage the nodes share
    std::size_t shards = 1;       // array tasks
    std::string partition;        // empty: the cluster's default
    std::string time_limit;       // empty: the partition's default
    std::size_t array_limit = 0;  // tasks running at once; 0: no limit
    unsigned cpus_per_task = 1;   // points each task runs at once
    std::string job_name;
};

// The script's text. Throws InputError for a value sbatch would misread
// (a blank or newline in a name or path).
std::string slurm_script(const SlurmOptions& o);

}  // namespace agx::sweep
