// Running another program (sbatch) and reading what it printed.
#pragma once

#include <string>
#include <vector>

namespace agx::sweep {

struct CommandResult {
    bool started = false;  // false: not found or not runnable (see error)
    int exit_code = -1;    // the exit status, or 128 + the signal that killed it
    std::string out, err_last_line, error;
};

// Runs argv[0] (searched on PATH) with the arguments, waits for it, and
// returns its exit status, stdout and last line of stderr.
CommandResult run_external(const std::vector<std::string>& argv);

}  // namespace agx::sweep
