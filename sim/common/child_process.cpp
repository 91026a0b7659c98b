#include "sim/common/child_process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <system_error>
#include <utility>

namespace agx {

namespace {

[[noreturn]] void throw_errno(const char* what) {
    throw std::system_error(errno, std::generic_category(), what);
}

// Between fork and exec only async-signal-safe calls: the error goes to the
// parent as the raw errno through `fd`.
[[noreturn]] void fail_start(int fd) {
    const int error = errno;
    const ssize_t written = ::write(fd, &error, sizeof error);
    (void)written;
    ::_exit(127);
}

// Close-on-exec: only its dup2 copy on the standard stream, which exec
// keeps, reaches the program, not a second descriptor of the same file.
int open_stream(const ChildStream& s) {
    switch (s.to) {
        case ChildStream::To::Null:
            return ::open("/dev/null", O_WRONLY | O_CLOEXEC);
        case ChildStream::To::File:
            return ::open(s.path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        default:
            return -2;  // nothing to open
    }
}

void write_all(int fd, const std::string& text) {
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return;
        done += static_cast<std::size_t>(n);
    }
}

}  // namespace

bool ChildExit::exited() const {
    return WIFEXITED(status);
}

int ChildExit::exit_code() const {
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int ChildExit::signal() const {
    return WIFSIGNALED(status) ? WTERMSIG(status) : 0;
}

ChildProcess ChildProcess::exec(const std::string& program, const std::vector<std::string>& argv,
                                const ChildOptions& options) {
    // Everything the child needs is built before the fork: after it, the
    // child may not allocate.
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    const bool pipe_out = options.out.to == ChildStream::To::Pipe;

    int err_pipe[2];  // close-on-exec: EOF without a word once exec succeeds
    if (::pipe2(err_pipe, O_CLOEXEC) != 0) throw_errno("pipe");
    int out_pipe[2] = {-1, -1};
    if (pipe_out && ::pipe2(out_pipe, O_CLOEXEC) != 0) {
        const int error = errno;
        ::close(err_pipe[0]);
        ::close(err_pipe[1]);
        errno = error;
        throw_errno("pipe");
    }
    const pid_t parent = ::getpid();
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::close(err_pipe[0]);
        if (options.die_with_parent) {
            ::prctl(PR_SET_PDEATHSIG, SIGKILL);
            if (::getppid() != parent) ::_exit(127);  // it died before the prctl
            ::signal(SIGINT, SIG_DFL);
            ::signal(SIGTERM, SIG_DFL);
        }
        const int out_fd = pipe_out ? out_pipe[1] : open_stream(options.out);
        const int err_fd = open_stream(options.err);
        if (out_fd == -1 || err_fd == -1) fail_start(err_pipe[1]);
        if (out_fd >= 0) ::dup2(out_fd, STDOUT_FILENO);
        if (err_fd >= 0) ::dup2(err_fd, STDERR_FILENO);
        if (options.search_path)
            ::execvp(program.c_str(), args.data());
        else
            ::execv(program.c_str(), args.data());
        fail_start(err_pipe[1]);
    }
    const int fork_error = errno;
    ::close(err_pipe[1]);
    if (pipe_out) ::close(out_pipe[1]);
    if (pid < 0) {
        ::close(err_pipe[0]);
        if (pipe_out) ::close(out_pipe[0]);
        errno = fork_error;
        throw_errno("fork");
    }
    ChildProcess child;
    child.pid_ = pid;
    child.out_fd_ = out_pipe[0];
    int error = 0;
    ssize_t n;
    while ((n = ::read(err_pipe[0], &error, sizeof error)) < 0 && errno == EINTR) {
    }
    ::close(err_pipe[0]);
    if (n == static_cast<ssize_t>(sizeof error)) child.start_error_ = error;
    return child;
}

ChildProcess ChildProcess::fork(const std::function<std::string()>& body) {
    int fds[2];
    if (::pipe(fds) != 0) throw_errno("pipe");
    // Output still buffered would otherwise be written twice, by both.
    std::fflush(nullptr);
    const pid_t pid = ::fork();
    if (pid < 0) {
        const int error = errno;
        ::close(fds[0]);
        ::close(fds[1]);
        errno = error;
        throw_errno("fork");
    }
    if (pid == 0) {
        ::close(fds[0]);
        int code = 0;
        try {
            write_all(fds[1], body());
        } catch (...) {
            code = 1;  // never back into the parent's code
        }
        ::close(fds[1]);
        std::fflush(nullptr);
        ::_exit(code);
    }
    ::close(fds[1]);
    ChildProcess child;
    child.pid_ = pid;
    child.out_fd_ = fds[0];
    return child;
}

ChildProcess::ChildProcess(ChildProcess&& other) noexcept
    : pid_(std::exchange(other.pid_, -1)),
      out_fd_(std::exchange(other.out_fd_, -1)),
      start_error_(other.start_error_) {}

ChildProcess& ChildProcess::operator=(ChildProcess&& other) noexcept {
    if (this != &other) {
        if (out_fd_ >= 0) ::close(out_fd_);
        pid_ = std::exchange(other.pid_, -1);
        out_fd_ = std::exchange(other.out_fd_, -1);
        start_error_ = other.start_error_;
    }
    return *this;
}

ChildProcess::~ChildProcess() {
    if (out_fd_ >= 0) ::close(out_fd_);
}

std::string ChildProcess::read_output() {
    std::string text;
    if (out_fd_ < 0) return text;
    char buf[4096];
    for (;;) {
        const ssize_t n = ::read(out_fd_, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        text.append(buf, static_cast<std::size_t>(n));
    }
    ::close(out_fd_);
    out_fd_ = -1;
    return text;
}

ChildExit ChildProcess::wait() {
    ChildExit e;
    if (pid_ <= 0) return e;
    struct rusage usage {};
    while (::wait4(pid_, &e.status, 0, &usage) < 0 && errno == EINTR) {
    }
    e.max_rss_kb = usage.ru_maxrss;
    auto seconds = [](const timeval& t) {
        return static_cast<double>(t.tv_sec) + t.tv_usec * 1e-6;
    };
    e.cpu_seconds = seconds(usage.ru_utime) + seconds(usage.ru_stime);
    pid_ = -1;  // reaped: the number may belong to another process now
    return e;
}

void ChildProcess::kill() {
    if (pid_ > 0) ::kill(pid_, SIGKILL);
}

int wait_any(ChildExit& exit) {
    exit = ChildExit{};
    return ::waitpid(-1, &exit.status, 0);
}

}  // namespace agx
