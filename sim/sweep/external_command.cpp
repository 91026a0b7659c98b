#include "sim/sweep/external_command.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <system_error>

#include "sim/common/child_process.hpp"

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
    ChildOptions options;
    options.out = {ChildStream::To::File, out_path};
    options.err = {ChildStream::To::File, err_path};
    options.search_path = true;
    ChildProcess child;
    int error = 0;
    try {
        child = ChildProcess::exec(argv[0], argv, options);
        error = child.start_error();
    } catch (const std::system_error& e) {
        error = e.code().value();
    }
    if (error != 0) {
        child.wait();
        r.error = std::string(argv[0]) + ": " + std::strerror(error);
        ::unlink(out_path.c_str());
        ::unlink(err_path.c_str());
        return r;
    }
    const ChildExit ended = child.wait();
    r.started = true;
    r.exit_code = ended.exited() ? ended.exit_code() : 128 + ended.signal();
    r.out = read_and_remove(out_path);
    std::istringstream err(read_and_remove(err_path));
    for (std::string line; std::getline(err, line);)
        if (!line.empty()) r.err_last_line = line;
    return r;
}

}  // namespace agx::sweep
