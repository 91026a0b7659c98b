#include "sim/common/output_file.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "sim/common/errors.hpp"

namespace agx {

namespace {

// mkstemp and mkdtemp create owner-only files; an output file gets the
// permissions an ordinary open() would give it.
mode_t current_umask() {
    static const mode_t mask = [] {
        const mode_t m = ::umask(0);
        ::umask(m);
        return m;
    }();
    return mask;
}

// "<path>.partial-XXXXXX" as a writable buffer for mkstemp/mkdtemp.
std::vector<char> temp_template(const std::string& path) {
    const std::string t = path + ".partial-XXXXXX";
    return std::vector<char>(t.c_str(), t.c_str() + t.size() + 1);
}

}  // namespace

OutputFile::OutputFile(std::string path) : path_(std::move(path)) {
    std::vector<char> name = temp_template(path_);
    const int fd = ::mkstemp(name.data());
    if (fd < 0)
        throw InputError(path_, std::string("cannot create output file: ") + std::strerror(errno));
    temp_ = name.data();
    ::fchmod(fd, 0666 & ~current_umask());
    out_.open(temp_, std::ios::out | std::ios::trunc | std::ios::binary);
    ::close(fd);
    if (!out_) {
        std::remove(temp_.c_str());
        throw InputError(path_, "cannot create output file");
    }
}

OutputFile::~OutputFile() {
    if (!committed_) {
        out_.close();
        std::remove(temp_.c_str());
    }
}

void OutputFile::commit() {
    out_.flush();
    out_.close();
    if (!out_) {
        std::remove(temp_.c_str());
        throw InputError(path_, "cannot write output file");
    }
    if (std::rename(temp_.c_str(), path_.c_str()) != 0) {
        const std::string reason = std::strerror(errno);
        std::remove(temp_.c_str());
        throw InputError(path_, "cannot write output file: " + reason);
    }
    committed_ = true;
}

void write_file_atomically(const std::string& path, const std::string& text) {
    OutputFile out(path);
    out.stream() << text;
    out.commit();
}

std::string make_temp_directory_beside(const std::string& path, const std::string& what) {
    std::vector<char> name = temp_template(path);
    if (!::mkdtemp(name.data()))
        throw InputError(what, std::string("cannot create: ") + std::strerror(errno));
    ::chmod(name.data(), 0777 & ~current_umask());
    return name.data();
}

}  // namespace agx
