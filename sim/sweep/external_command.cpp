#include "sim/sweep/external_command.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

extern char** environ;

namespace agx::sweep {

namespace {

std::string temp_file() {
    const char* dir = std::getenv("TMPDIR");
    std::string path = std::string(dir && *dir ? dir : "/tmp") + "/agxsim-cmd-XXXXXX";
    const int fd = ::mkstemp(path.data());
    if (fd < 0) return "";
    ::close(fd);
    return path;
}

std::string read_and_remove(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    ::unlink(path.c_str());
    return s.str();
}

}  // namespace

CommandResult run_external(const std::vector<std::string>& argv) {
    CommandResult r;
    const std::string out_path = temp_file(), err_path = temp_file();
    if (out_path.empty() || err_path.empty()) {
        r.error = std::string("cannot create a temporary file: ") + std::strerror(errno);
        return r;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, out_path.c_str(), O_WRONLY | O_TRUNC,
                                     0);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, err_path.c_str(), O_WRONLY | O_TRUNC,
                                     0);
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    pid_t pid = 0;
    const int rc = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) {
        r.error = std::string(argv[0]) + ": " + std::strerror(rc);
        ::unlink(out_path.c_str());
        ::unlink(err_path.c_str());
        return r;
    }
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    r.started = true;
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    r.out = read_and_remove(out_path);
    std::istringstream err(read_and_remove(err_path));
    for (std::string line; std::getline(err, line);)
        if (!line.empty()) r.err_last_line = line;
    return r;
}

}  // namespace agx::sweep
