// Runs one measurement in a child process of its own: SystemC elaborates
// once per process, and a fresh process makes its peak resident memory the
// measurement's alone.
#pragma once

#include <string>
#include <vector>

namespace agx::bench {

struct ChildResult {
    int exit_code = -1;  // -1 if killed by a signal
    std::string output;  // its standard output
    double wall_seconds = 0;
    long max_rss_kb = 0;     // getrusage's ru_maxrss of the child (wait4)
    double cpu_seconds = 0;  // its user + system time: unlike wall time, not
                             // stretched by other work on a busy machine
};

// Runs this executable again (/proc/self/exe) with `args`; its standard
// error goes to ours.
ChildResult run_self(const std::vector<std::string>& args);

}  // namespace agx::bench
