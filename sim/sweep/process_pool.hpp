// Runs a sweep's points, each as its own agxsim process (SystemC elaborates
// once per process), at most `jobs` at a time.
//
// A point's process writes its statistics to a file of its own in a scratch
// directory; its stderr goes to another, whose last line is the point's error
// when it fails. The children die with the sweep (PR_SET_PDEATHSIG), and an
// interrupt (SIGINT, SIGTERM) stops the pool: running points are killed and
// not reported, so a rerun runs them again. A point that outlives its
// wall-time limit is killed and reported as a failure of that point.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace agx::sweep {

struct PointJob {
    std::size_t index = 0;
    std::vector<std::string> args;  // after the executable; --stats FILE is appended
};

struct PointOutcome {
    std::size_t index = 0;
    bool ok = false;
    std::string error;  // one line, when !ok
    nlohmann::json stats;
    double host_seconds = 0;
};

struct PoolOptions {
    std::string executable;   // agxsim itself
    std::string scratch_dir;  // created if absent; the pool's files are removed
    unsigned jobs = 1;
    // Wall-time limit of one point, in seconds (0: none): a point still
    // running after it is killed and reported failed, saying so.
    unsigned point_seconds = 0;
};

// Called in the sweep's process as each point finishes, in completion order.
// Returning false stops the pool (the running points are killed).
using OutcomeHandler = std::function<bool(const PointOutcome&)>;

// Runs the jobs; returns false if an interrupt or the handler stopped it.
bool run_pool(const std::vector<PointJob>& jobs, const PoolOptions& options,
              const OutcomeHandler& on_outcome);

// The running executable's absolute path (/proc/self/exe).
std::string self_executable();

}  // namespace agx::sweep
