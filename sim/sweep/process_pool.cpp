#include "sim/sweep/process_pool.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "sim/common/errors.hpp"

namespace agx::sweep {

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

volatile std::sig_atomic_t g_interrupted = 0;
void on_interrupt(int) {
    g_interrupted = 1;
}

// Installs the interrupt handlers for the pool's lifetime, without
// SA_RESTART so that a blocked waitpid returns.
class InterruptScope {
  public:
    InterruptScope() {
        g_interrupted = 0;
        struct sigaction sa {};
        sa.sa_handler = on_interrupt;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGINT, &sa, &old_int_);
        sigaction(SIGTERM, &sa, &old_term_);
    }
    ~InterruptScope() {
        sigaction(SIGINT, &old_int_, nullptr);
        sigaction(SIGTERM, &old_term_, nullptr);
    }

  private:
    struct sigaction old_int_ {
    }, old_term_{};
};

struct Running {
    std::size_t job;
    std::string stats_path, err_path;
    Clock::time_point start;
};

std::string last_line(const std::string& path) {
    std::ifstream in(path);
    std::string line, last;
    while (std::getline(in, line))
        if (line.find_first_not_of(" \t\r") != std::string::npos) last = line;
    const std::string prefix = "agxsim: ";
    if (last.rfind(prefix, 0) == 0) last = last.substr(prefix.size());
    return last;
}

pid_t spawn(const std::string& exe, const std::vector<std::string>& args,
            const std::string& err_path) {
    std::vector<char*> argv;
    argv.push_back(const_cast<char*>(exe.c_str()));
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    const pid_t parent = ::getpid();
    const pid_t pid = ::fork();
    if (pid != 0) return pid;
    // The child: die with the sweep; stdout to /dev/null, stderr to its file.
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(127);
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    const int null_fd = ::open("/dev/null", O_WRONLY);
    const int err_fd = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (null_fd < 0 || err_fd < 0) ::_exit(127);
    ::dup2(null_fd, STDOUT_FILENO);
    ::dup2(err_fd, STDERR_FILENO);
    ::execv(exe.c_str(), argv.data());
    ::_exit(127);
}

PointOutcome finish(const Running& r, std::size_t index, int status) {
    PointOutcome o;
    o.index = index;
    o.host_seconds = std::chrono::duration<double>(Clock::now() - r.start).count();
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        std::ifstream in(r.stats_path);
        try {
            o.stats = nlohmann::json::parse(in);
            o.ok = true;
        } catch (const nlohmann::json::exception& e) {
            o.error = std::string("its statistics do not parse: ") + e.what();
        }
    } else if (WIFEXITED(status)) {
        const std::string line = last_line(r.err_path);
        o.error = "exit " + std::to_string(WEXITSTATUS(status)) + (line.empty() ? "" : ": " + line);
        if (WEXITSTATUS(status) == 127 && line.empty()) o.error += ": cannot start the simulator";
    } else {
        o.error = std::string("killed by signal ") + std::to_string(WTERMSIG(status)) + " (" +
                  strsignal(WTERMSIG(status)) + ")";
        const std::string line = last_line(r.err_path);
        if (!line.empty()) o.error += ": " + line;
    }
    std::error_code ec;
    fs::remove(r.stats_path, ec);
    fs::remove(r.err_path, ec);
    return o;
}

}  // namespace

std::string self_executable() {
    std::error_code ec;
    const fs::path p = fs::read_symlink("/proc/self/exe", ec);
    if (ec) throw std::runtime_error("cannot find the running executable: " + ec.message());
    return p.string();
}

bool run_pool(const std::vector<PointJob>& jobs, const PoolOptions& options,
              const OutcomeHandler& on_outcome) {
    std::error_code ec;
    fs::create_directories(options.scratch_dir, ec);
    if (ec) throw InputError(options.scratch_dir, "cannot create: " + ec.message());
    InterruptScope interrupts;
    std::map<pid_t, Running> running;
    std::size_t next = 0;
    bool stopped = false;
    const std::string tag = std::to_string(::getpid());

    auto kill_all = [&] {
        for (const auto& [pid, r] : running) ::kill(pid, SIGKILL);
        for (const auto& [pid, r] : running) {
            int status = 0;
            while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
            }
            fs::remove(r.stats_path, ec);
            fs::remove(r.err_path, ec);
        }
        running.clear();
    };

    while (!stopped && (next < jobs.size() || !running.empty())) {
        while (!g_interrupted && next < jobs.size() &&
               running.size() < std::max(1u, options.jobs)) {
            const PointJob& job = jobs[next];
            const std::string base =
                options.scratch_dir + "/point-" + std::to_string(job.index) + "-" + tag;
            Running r{next, base + ".json", base + ".err", Clock::now()};
            std::vector<std::string> args = job.args;
            args.push_back("--stats");
            args.push_back(r.stats_path);
            const pid_t pid = spawn(options.executable, args, r.err_path);
            if (pid < 0) {
                kill_all();
                throw std::runtime_error(std::string("cannot start a point: ") +
                                         std::strerror(errno));
            }
            running.emplace(pid, r);
            ++next;
        }
        if (g_interrupted) break;
        int status = 0;
        const pid_t pid = ::waitpid(-1, &status, 0);
        if (pid < 0) {
            if (errno == EINTR) continue;
            break;  // no children left
        }
        const auto it = running.find(pid);
        if (it == running.end()) continue;
        const Running r = it->second;
        running.erase(it);
        if (g_interrupted) {  // killed by the same Ctrl-C, perhaps: not a result
            fs::remove(r.stats_path, ec);
            fs::remove(r.err_path, ec);
            break;
        }
        if (!on_outcome(finish(r, jobs[r.job].index, status))) stopped = true;
    }
    const bool complete = !g_interrupted && !stopped;
    kill_all();
    return complete;
}

}  // namespace agx::sweep
