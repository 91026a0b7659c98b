#include "sim/sweep/process_pool.hpp"

#include <signal.h>
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
#include <system_error>

#include "sim/common/child_process.hpp"
#include "sim/common/errors.hpp"

namespace agx::sweep {

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

volatile std::sig_atomic_t g_interrupted = 0;
void on_interrupt(int) {
    g_interrupted = 1;
}
// SIGALRM only wakes the blocked waitpid, so that overdue points are killed.
void on_alarm(int) {}

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
        sa.sa_handler = on_alarm;
        sigaction(SIGALRM, &sa, &old_alarm_);
    }
    ~InterruptScope() {
        ::alarm(0);
        sigaction(SIGINT, &old_int_, nullptr);
        sigaction(SIGTERM, &old_term_, nullptr);
        sigaction(SIGALRM, &old_alarm_, nullptr);
    }

  private:
    struct sigaction old_int_ {
    }, old_term_{}, old_alarm_{};
};

struct Running {
    std::size_t job;
    std::string stats_path, err_path;
    Clock::time_point start;
    ChildProcess child;
    unsigned killed_after = 0;  // seconds: killed for outliving the point's limit (0: not)
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

ChildProcess spawn(const std::string& exe, const std::vector<std::string>& args,
                   const std::string& err_path) {
    std::vector<std::string> argv{exe};
    argv.insert(argv.end(), args.begin(), args.end());
    ChildOptions options;
    options.out.to = ChildStream::To::Null;
    options.err = {ChildStream::To::File, err_path};
    options.die_with_parent = true;  // die with the sweep
    return ChildProcess::exec(exe, argv, options);
}

PointOutcome finish(const Running& r, std::size_t index, const ChildExit& ended) {
    PointOutcome o;
    o.index = index;
    o.host_seconds = std::chrono::duration<double>(Clock::now() - r.start).count();
    if (r.killed_after) {
        o.error = "stopped after its wall-time limit of " + std::to_string(r.killed_after) +
                  " s (--point-seconds)";
    } else if (ended.exit_code() == 0) {
        std::ifstream in(r.stats_path);
        try {
            o.stats = nlohmann::json::parse(in);
            o.ok = true;
        } catch (const nlohmann::json::exception& e) {
            o.error = std::string("its statistics do not parse: ") + e.what();
        }
    } else if (ended.exited()) {
        const std::string line = last_line(r.err_path);
        o.error = "exit " + std::to_string(ended.exit_code()) + (line.empty() ? "" : ": " + line);
        if (ended.exit_code() == 127 && line.empty()) o.error += ": cannot start the simulator";
    } else {
        o.error = std::string("killed by signal ") + std::to_string(ended.signal()) + " (" +
                  strsignal(ended.signal()) + ")";
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
    std::map<int, Running> running;
    std::size_t next = 0;
    bool stopped = false;
    const std::string tag = std::to_string(::getpid());

    auto kill_all = [&] {
        for (auto& [pid, r] : running) r.child.kill();
        for (auto& [pid, r] : running) {
            r.child.wait();
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
            Running r{next, base + ".json", base + ".err", Clock::now(), {}, 0};
            std::vector<std::string> args = job.args;
            args.push_back("--stats");
            args.push_back(r.stats_path);
            try {
                r.child = spawn(options.executable, args, r.err_path);
            } catch (const std::system_error& e) {
                kill_all();
                throw std::runtime_error(std::string("cannot start a point: ") +
                                         std::strerror(e.code().value()));
            }
            const int pid = r.child.pid();
            running.emplace(pid, std::move(r));
            ++next;
        }
        if (g_interrupted) break;
        if (options.point_seconds > 0) {
            // Kill the points past their limit, and wake for the next deadline.
            const auto now = Clock::now();
            const auto limit = std::chrono::seconds(options.point_seconds);
            auto soonest = limit;
            for (auto& [pid, r] : running) {
                if (r.killed_after) continue;
                const auto left = r.start + limit - now;
                if (left <= Clock::duration::zero()) {
                    r.child.kill();
                    r.killed_after = options.point_seconds;
                } else {
                    soonest =
                        std::min(soonest, std::chrono::duration_cast<std::chrono::seconds>(left) +
                                              std::chrono::seconds(1));
                }
            }
            ::alarm(static_cast<unsigned>(soonest.count()));
        }
        ChildExit ended;
        const int pid = wait_any(ended);
        if (pid < 0) {
            if (errno == EINTR) continue;
            break;  // no children left
        }
        const auto it = running.find(pid);
        if (it == running.end()) continue;
        const Running r = std::move(it->second);
        running.erase(it);
        if (g_interrupted) {  // killed by the same Ctrl-C, perhaps: not a result
            fs::remove(r.stats_path, ec);
            fs::remove(r.err_path, ec);
            break;
        }
        if (!on_outcome(finish(r, jobs[r.job].index, ended))) stopped = true;
    }
    const bool complete = !g_interrupted && !stopped;
    kill_all();
    return complete;
}

}  // namespace agx::sweep
