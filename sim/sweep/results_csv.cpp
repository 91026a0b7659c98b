#include "sim/sweep/results_csv.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "sim/common/errors.hpp"
#include "sim/common/input_file.hpp"
#include "sim/common/output_file.hpp"

namespace agx::sweep {

namespace {

std::string errno_text() {
    return std::strerror(errno);
}

bool write_all(int fd, const std::string& text) {
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        done += static_cast<std::size_t>(n);
    }
    return true;
}

}  // namespace

namespace {

std::size_t point_number(const std::string& field, const std::string& where) {
    if (field.empty() || field.find_first_not_of("0123456789") != std::string::npos ||
        field.size() > 12)
        throw InputError(where, "the first column is not a point number: '" + field + "'");
    return std::stoul(field);
}

}  // namespace

std::string csv_field(const std::string& text) {
    std::string t = text;
    for (char& c : t)
        if (c == '\n' || c == '\r') c = ' ';
    if (t.find_first_of(",\"") == std::string::npos) return t;
    std::string q = "\"";
    for (char c : t) {
        if (c == '"') q += '"';
        q += c;
    }
    return q + "\"";
}

std::string csv_line(const std::vector<std::string>& fields) {
    std::string line;
    for (std::size_t i = 0; i < fields.size(); ++i) line += (i ? "," : "") + csv_field(fields[i]);
    return line + "\n";
}

std::vector<std::string> parse_csv_line(const std::string& line, const std::string& where) {
    std::vector<std::string> fields(1);
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted) {
            if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
                fields.back() += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                fields.back() += c;
            }
        } else if (c == '"' && fields.back().empty()) {
            quoted = true;
        } else if (c == ',') {
            fields.emplace_back();
        } else {
            fields.back() += c;
        }
    }
    if (quoted) throw InputError(where, "a quoted field is not closed");
    return fields;
}

std::size_t ResultsTable::column(const std::string& name) const {
    for (std::size_t i = 0; i < header.size(); ++i)
        if (header[i] == name) return i;
    return SIZE_MAX;
}

ResultsTable read_results(const std::string& path) {
    const std::string text = read_input_file(path, "sweep results", kMaxCsvInputBytes);
    ResultsTable t;
    std::size_t from = 0, line_no = 0;
    while (from < text.size()) {
        const std::size_t nl = text.find('\n', from);
        if (nl == std::string::npos) {  // no newline: a row cut short
            t.torn_bytes = text.size() - from;
            break;
        }
        ++line_no;
        const std::string where = path + ":" + std::to_string(line_no);
        std::vector<std::string> fields = parse_csv_line(text.substr(from, nl - from), where);
        if (line_no == 1) {
            t.header = std::move(fields);
        } else {
            if (fields.size() != t.header.size())
                throw InputError(where, "has " + std::to_string(fields.size()) +
                                            " fields, the header " +
                                            std::to_string(t.header.size()));
            point_number(fields[0], where);
            t.rows.push_back(std::move(fields));
        }
        from = nl + 1;
    }
    if (t.header.empty()) throw InputError(path, "has no header line");
    return t;
}

void write_results(const std::string& path, const ResultsTable& table) {
    std::string text = csv_line(table.header);
    for (const auto& r : table.rows) text += csv_line(r);
    write_file_atomically(path, text);
}

ResultsLock::ResultsLock(const std::string& path, const std::string& busy)
    : lock_path_(path + ".lock") {
    for (;;) {
        fd_ = ::open(lock_path_.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
        if (fd_ < 0) throw InputError(lock_path_, "cannot create: " + errno_text());
        if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
            ::close(fd_);
            throw InputError(path, busy);
        }
        // The holder before removes the file as it releases it: a lock taken
        // on a file it removed meanwhile locks nothing another process can
        // see, so take the file now at the path instead.
        struct stat held {
        }, named{};
        if (::fstat(fd_, &held) == 0 && ::stat(lock_path_.c_str(), &named) == 0 &&
            held.st_dev == named.st_dev && held.st_ino == named.st_ino)
            return;
        ::close(fd_);
    }
}

ResultsLock::~ResultsLock() {
    // Removed while still held, so that a sweep leaves no lock file behind
    // (the constructor's check keeps two processes from both holding it).
    ::unlink(lock_path_.c_str());
    ::close(fd_);  // releases the lock
}

ResultsFile::ResultsFile(std::string path, std::vector<std::string> header)
    : path_(std::move(path)),
      header_(std::move(header)),
      lock_(path_, "another sweep is writing to it") {
    if (::access(path_.c_str(), F_OK) != 0) write_file_atomically(path_, csv_line(header_));
    open_append();
    ResultsTable t = read_results(path_);
    if (t.header != header_)
        throw InputError(path_, "holds other columns than this sweep's (" +
                                    csv_line(t.header).substr(0, 200) +
                                    "); use another --out directory");
    if (t.torn_bytes > 0) {
        // A row cut short by a crash: cut it off so the next row starts a line.
        const off_t end = ::lseek(fd_, 0, SEEK_END);
        if (end < 0 || ::ftruncate(fd_, end - static_cast<off_t>(t.torn_bytes)) != 0)
            throw InputError(path_, "cannot cut off its unfinished last line: " + errno_text());
    }
    for (std::size_t i = 0; i < t.rows.size(); ++i)
        rows_[point_number(t.rows[i][0], path_)] = std::move(t.rows[i]);
}

void ResultsFile::open_append() {
    fd_ = ::open(path_.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
    if (fd_ < 0) throw InputError(path_, "cannot open for appending: " + errno_text());
}

ResultsFile::~ResultsFile() {
    if (fd_ >= 0) ::close(fd_);
}

void ResultsFile::append(const std::vector<std::string>& row) {
    if (row.size() != header_.size()) throw std::logic_error("results row of the wrong width");
    if (!write_all(fd_, csv_line(row)) || ::fdatasync(fd_) != 0)
        throw InputError(path_, "cannot append a row: " + errno_text());
    rows_[point_number(row[0], path_)] = row;
}

void ResultsFile::rewrite(const std::map<std::size_t, std::vector<std::string>>& rows) {
    ResultsTable t;
    t.header = header_;
    for (const auto& [k, r] : rows) t.rows.push_back(r);
    write_results(path_, t);
    ::close(fd_);
    fd_ = -1;
    open_append();
    rows_ = rows;
}

std::map<std::size_t, double> metric_by_point(const ResultsTable& table,
                                              const std::string& metric) {
    std::map<std::size_t, double> values;
    const std::size_t col = table.column(metric), status = table.column("status");
    if (col == SIZE_MAX || status == SIZE_MAX) return values;
    for (const auto& r : table.rows) {
        if (r[col].empty() || r[status] != "ok") continue;
        char* end = nullptr;
        const double x = std::strtod(r[col].c_str(), &end);
        if (*end == '\0' && std::isfinite(x)) values[std::stoul(r[0])] = x;
    }
    return values;
}

}  // namespace agx::sweep
