// Child processes: the one place that forks. SystemC elaborates once per
// process, so every simulation that is not the process's only one runs in
// a child: a fork of this process (validation's runner) or another program
// started with exec (the sweep's pool, the speed benchmark, sbatch).
//
// A ChildProcess does not wait for its child on destruction: whoever started
// it reaps it, with wait() or wait_any().
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace agx {

// Where one of a child's standard streams goes.
struct ChildStream {
    enum class To {
        Parent,  // shared with this process
        Null,    // /dev/null
        File,    // `path`, truncated, or created with mode 0644
        Pipe,    // to this process, read with ChildProcess::read_output (stdout only)
    };
    To to = To::Parent;
    std::string path;
};

struct ChildOptions {
    ChildStream out, err;
    bool search_path = false;  // the program is found on PATH, as a shell does
    // SIGKILL when this process dies, and SIGINT and SIGTERM at their defaults
    // even if this process ignores them: a child must not outlive its runner.
    bool die_with_parent = false;
};

// How a child ended.
struct ChildExit {
    int status = 0;       // as waitpid reports it
    long max_rss_kb = 0;  // peak resident memory (ru_maxrss); 0 from wait_any
    // User + system time: unlike wall time, not stretched by other work on a
    // busy machine. 0 from wait_any.
    double cpu_seconds = 0;

    bool exited() const;    // it returned from main or called exit
    int exit_code() const;  // its exit status; -1 if a signal killed it
    int signal() const;     // the signal that killed it; 0 if it exited
};

class ChildProcess {
  public:
    // Runs `program` with `argv` (argv[0] included). If the child cannot
    // open its streams or exec the program, it exits 127 and start_error()
    // says why. Throws std::system_error if no process can be created.
    static ChildProcess exec(const std::string& program, const std::vector<std::string>& argv,
                             const ChildOptions& options = {});

    // Forks a copy of this process that runs `body` and exits 0, or 1 if
    // `body` throws; what `body` returns is read_output()'s text. That text
    // travels through a pipe of its own, not stdout, where the work may print.
    // Throws std::system_error if no process can be created.
    static ChildProcess fork(const std::function<std::string()>& body);

    ChildProcess() = default;  // no child, until one is moved in
    ChildProcess(ChildProcess&& other) noexcept;
    ChildProcess& operator=(ChildProcess&& other) noexcept;
    ChildProcess(const ChildProcess&) = delete;
    ChildProcess& operator=(const ChildProcess&) = delete;
    ~ChildProcess();

    int pid() const { return pid_; }
    // The errno that kept exec() from starting the program; 0 if it started.
    int start_error() const { return start_error_; }

    // Everything the child writes to its output pipe, until it closes it.
    std::string read_output();
    // Waits for this child to end, unless wait_any has reaped it already.
    ChildExit wait();
    // Sends SIGKILL, unless wait() has reaped it; wait() still reaps it.
    void kill();

  private:
    int pid_ = -1;
    int out_fd_ = -1;
    int start_error_ = 0;
};

// Waits for any child to end: its pid, or -1 with errno set as waitpid sets
// it (EINTR when a signal arrives, ECHILD when none is left).
int wait_any(ChildExit& exit);

}  // namespace agx
