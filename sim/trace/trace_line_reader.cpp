#include "sim/trace/trace_line_reader.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "sim/common/errors.hpp"
#include "sim/common/input_file.hpp"
#include "sim/trace/trace_parse.hpp"

namespace agx::trace_detail {

TraceFile::TraceFile(const std::string& path) : path_(path) {
    // A regular file (not a directory, a device or a FIFO, which opening
    // would wait on), checked before it is opened and again once it is.
    check_input_file(path, "trace", UINT64_MAX);
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd_ < 0) throw InputError(path, std::string("cannot open trace: ") + std::strerror(errno));
    struct stat st {};
    if (::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd_);
        fd_ = -1;
        throw InputError(path, "cannot open trace: not a regular file");
    }
}

TraceFile::~TraceFile() {
    if (fd_ >= 0) ::close(fd_);
}

LineReader::LineReader(std::shared_ptr<const TraceFile> file, std::size_t buffer_bytes)
    : file_(std::move(file)), buf_(buffer_bytes < 256 ? 256 : buffer_bytes) {}

void LineReader::seek(std::uint64_t offset, std::uint32_t line) {
    line_ = line - 1;
    // Loops over a body that is still buffered cost no system call.
    if (offset >= buf_offset_ && offset <= buf_offset_ + len_) {
        pos_ = static_cast<std::size_t>(offset - buf_offset_);
        return;
    }
    buf_offset_ = offset;
    pos_ = len_ = 0;
    eof_ = false;
}

bool LineReader::fill() {
    if (eof_) return false;
    if (pos_ > 0) {  // keep the partial line, drop what was consumed
        std::memmove(buf_.data(), buf_.data() + pos_, len_ - pos_);
        buf_offset_ += pos_;
        len_ -= pos_;
        pos_ = 0;
    }
    if (len_ == buf_.size()) {
        if (buf_.size() >= kMaxLine)
            throw InputError(path() + ":" + std::to_string(line_ + 1),
                             "line longer than " + std::to_string(kMaxLine) + " characters");
        buf_.resize(buf_.size() * 2);
    }
    for (;;) {
        ssize_t n = ::pread(file_->fd(), buf_.data() + len_, buf_.size() - len_,
                            static_cast<off_t>(buf_offset_ + len_));
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) throw InputError(path(), std::string("read error: ") + std::strerror(errno));
        if (n == 0) {
            eof_ = true;
            return false;
        }
        len_ += static_cast<std::size_t>(n);
        return true;
    }
}

bool LineReader::next(std::string_view& line) {
    std::size_t scanned = pos_;
    for (;;) {
        const char* start = buf_.data() + pos_;
        const char* end = buf_.data() + len_;
        const char* nl = static_cast<const char*>(std::memchr(
            buf_.data() + scanned, '\n', static_cast<std::size_t>(end - (buf_.data() + scanned))));
        if (nl || (eof_ && pos_ < len_)) {
            const char* stop = nl ? nl : end;
            std::size_t n = static_cast<std::size_t>(stop - start);
            if (n > 0 && start[n - 1] == '\r') --n;
            line = std::string_view(start, n);
            if (buf_offset_ + pos_ == 0) line = strip_utf8_bom(line);  // the file's first line
            pos_ = static_cast<std::size_t>(stop - buf_.data()) + (nl ? 1 : 0);
            ++line_;
            return true;
        }
        std::size_t seen = len_ - pos_;
        bool more = fill();
        scanned = pos_ + seen;  // fill() may have moved the partial line to the front
        if (!more && pos_ == len_) return false;
    }
}

}  // namespace agx::trace_detail
