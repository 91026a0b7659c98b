#include "sim/common/input_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "sim/common/errors.hpp"

namespace agx {

namespace {

std::string size_text(std::uint64_t bytes) {
    if (bytes % kMiB == 0) return std::to_string(bytes / kMiB) + " MiB";
    return std::to_string(bytes) + " bytes";
}

}  // namespace

const char* file_kind_name(mode_t mode) {
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISFIFO(mode)) return "a FIFO";
    if (S_ISSOCK(mode)) return "a socket";
    return "not a regular file";
}

std::uint64_t check_input_file(const std::string& path, const std::string& what,
                               std::uint64_t limit) {
    struct stat st;
    if (::stat(path.c_str(), &st) != 0)
        throw InputError(path, "cannot open " + what + ": " + std::strerror(errno));
    if (!S_ISREG(st.st_mode))
        throw InputError(path, "cannot open " + what + ": it is " + file_kind_name(st.st_mode) +
                                   ", not a regular file");
    const auto size = static_cast<std::uint64_t>(st.st_size);
    if (size > limit)
        throw InputError(path, "cannot open " + what + ": " + std::to_string(size) +
                                   " bytes, more than the limit of " + size_text(limit));
    return size;
}

std::string read_input_file(const std::string& path, const std::string& what, std::uint64_t limit) {
    check_input_file(path, what, limit);
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) throw InputError(path, "cannot open " + what + ": " + std::strerror(errno));
    struct stat st;
    // What was checked may have been replaced meanwhile: check what is open.
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        throw InputError(path, "cannot open " + what + ": not a regular file");
    }
    std::string text;
    char buf[1 << 16];
    for (;;) {
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n == 0) break;
        if (n < 0) {
            if (errno == EINTR) continue;
            const int e = errno;
            ::close(fd);
            throw InputError(path, "cannot read " + what + ": " + std::strerror(e));
        }
        text.append(buf, static_cast<std::size_t>(n));
        if (text.size() > limit) {
            ::close(fd);
            throw InputError(
                path, "cannot open " + what + ": more than the limit of " + size_text(limit));
        }
    }
    ::close(fd);
    return text;
}

bool is_regular_input(const std::string& path) {
    struct stat st;
    return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

}  // namespace agx
