#include "sim/sweep/slurm_script.hpp"

#include <sstream>

#include "sim/common/errors.hpp"

namespace agx::sweep {

namespace {

// Single-quoted for the shell.
std::string quoted(const std::string& s) {
    std::string q = "'";
    for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

void check_directive(const std::string& what, const std::string& value) {
    for (char c : value)
        if (c == ' ' || c == '\n' || c == '\t' || c == '\'' || c == '"')
            throw InputError(what + " " + value, "cannot hold blanks or quotes in an #SBATCH line");
}

}  // namespace

std::string slurm_script(const SlurmOptions& o) {
    check_directive("--partition", o.partition);
    check_directive("--time", o.time_limit);
    check_directive("the job name", o.job_name);
    check_directive("--out", o.out_dir);
    std::ostringstream s;
    s << "#!/bin/sh\n";
    s << "# agxsim sweep: task I of this array runs shard I of " << o.shards << " of the points.\n";
    s << "#SBATCH --job-name=" << o.job_name << "\n";
    s << "#SBATCH --array=0-" << o.shards - 1;
    if (o.array_limit > 0) s << "%" << o.array_limit;
    s << "\n";
    s << "#SBATCH --cpus-per-task=" << o.cpus_per_task << "\n";
    s << "#SBATCH --ntasks=1\n";
    s << "#SBATCH --output=" << o.out_dir << "/slurm/task-%a.log\n";
    if (!o.partition.empty()) s << "#SBATCH --partition=" << o.partition << "\n";
    if (!o.time_limit.empty()) s << "#SBATCH --time=" << o.time_limit << "\n";
    s << "set -e\n";
    s << "exec " << quoted(o.executable) << " sweep run " << quoted(o.sweep_file) << " --out "
      << quoted(o.out_dir) << " --shard \"${SLURM_ARRAY_TASK_ID}/" << o.shards
      << "\" -j \"${SLURM_CPUS_PER_TASK:-" << o.cpus_per_task << "}\" --no-progress\n";
    return s.str();
}

}  // namespace agx::sweep
