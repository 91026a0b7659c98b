// Line-by-line reading of a trace file from any byte offset, with a small
// buffer of its own.
//
// Many instruction streams read the same file at once (one per resident simd,
// on every simulated core), so they share one file descriptor and read with
// pread() instead of holding an std::ifstream each: thousands of resident
// simds would otherwise run out of file descriptors. A repeat body that fits
// in the buffer loops without any system call.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace agx::trace_detail {

// An open trace file, shared by the workload and its streams.
class TraceFile {
  public:
    explicit TraceFile(const std::string& path);  // throws InputError if it cannot be opened
    ~TraceFile();
    TraceFile(const TraceFile&) = delete;
    TraceFile& operator=(const TraceFile&) = delete;

    int fd() const { return fd_; }
    const std::string& path() const { return path_; }

  private:
    std::string path_;
    int fd_ = -1;
};

class LineReader {
  public:
    static constexpr std::size_t kMaxLine = 64 * 1024;

    LineReader(std::shared_ptr<const TraceFile> file, std::size_t buffer_bytes);

    // Positions the reader so that the next line read starts at `offset` and
    // is numbered `line`.
    void seek(std::uint64_t offset, std::uint32_t line);

    // The next line without its line ending; false at end of file. The view
    // stays valid until the next call. Throws InputError on a read error or a
    // line longer than kMaxLine.
    bool next(std::string_view& line);

    std::uint32_t line_number() const { return line_; }        // of the last line returned
    std::uint64_t tell() const { return buf_offset_ + pos_; }  // start of the next line
    const std::string& path() const { return file_->path(); }

  private:
    bool fill();  // reads more bytes after the buffered ones; false at end of file

    std::shared_ptr<const TraceFile> file_;
    std::vector<char> buf_;
    std::uint64_t buf_offset_ = 0;  // file offset of buf_[0]
    std::size_t pos_ = 0;           // start of the next line in buf_
    std::size_t len_ = 0;           // valid bytes in buf_
    std::uint32_t line_ = 0;
    bool eof_ = false;
};

}  // namespace agx::trace_detail
