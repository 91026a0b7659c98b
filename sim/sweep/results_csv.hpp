// results.csv: one tidy row per finished point, appended as points finish.
//
// Every row is one line written by one write(2) on an O_APPEND descriptor,
// so a crash or Ctrl-C leaves whole rows and at most a torn last line, which
// the next open cuts off. The file is locked (flock) while a sweep appends to
// it (flock on RESULTS.lock), so two sweeps never write the same file.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace agx::sweep {

// One CSV field, quoted when it must be (RFC 4180); newlines become blanks so
// that a row is always one line.
std::string csv_field(const std::string& text);
std::string csv_line(const std::vector<std::string>& fields);  // with the '\n'

// Splits one line (without its '\n'). Throws InputError naming `where` if the
// quoting is broken.
std::vector<std::string> parse_csv_line(const std::string& line, const std::string& where);

struct ResultsTable {
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> rows;         // each as wide as the header
    std::size_t torn_bytes = 0;                         // an unfinished last line, ignored
    std::size_t column(const std::string& name) const;  // SIZE_MAX if absent
};

// Reads a results file written by ResultsFile. Throws InputError (file and
// line) for a row of the wrong width or broken quoting.
ResultsTable read_results(const std::string& path);

// One metric column as numbers, by point number: the rows whose status is
// `ok` and whose value is a finite number.
std::map<std::size_t, double> metric_by_point(const ResultsTable& table, const std::string& metric);

// The lock a results file is written under (flock on PATH.lock, a file of its
// own, so that rewriting the results never releases it), held for the
// object's lifetime and removed with it. Throws InputError(path, busy) when
// another process holds it.
class ResultsLock {
  public:
    ResultsLock(const std::string& path, const std::string& busy);
    ~ResultsLock();
    ResultsLock(const ResultsLock&) = delete;
    ResultsLock& operator=(const ResultsLock&) = delete;

  private:
    std::string lock_path_;
    int fd_ = -1;
};

class ResultsFile {
  public:
    // Opens `path` for appending rows under `header`, creating it (header
    // only) if absent. An existing file must have the same header; its torn
    // last line, if any, is cut off. Throws InputError if the file holds other
    // columns or another process is appending to it.
    ResultsFile(std::string path, std::vector<std::string> header);
    ~ResultsFile();
    ResultsFile(const ResultsFile&) = delete;
    ResultsFile& operator=(const ResultsFile&) = delete;

    // The rows already in the file when it was opened (and those appended
    // since), by their first column (the point number).
    const std::map<std::size_t, std::vector<std::string>>& rows() const { return rows_; }

    void append(const std::vector<std::string>& row);  // one whole line, flushed to disk

    // Rewrites the file without the rows `drop` selects (atomically: a new
    // file renamed over the old one).
    template <typename Pred>
    void drop_rows(Pred drop) {
        std::map<std::size_t, std::vector<std::string>> keep;
        for (auto& [k, r] : rows_)
            if (!drop(r)) keep.emplace(k, r);
        rewrite(keep);
    }

    // Rewrites the file with its rows in point order (atomically), as
    // `sweep collect` writes one: rows are appended as points finish.
    void sort_by_point() { rewrite(rows_); }

  private:
    void rewrite(const std::map<std::size_t, std::vector<std::string>>& rows);
    void open_append();

    std::string path_;
    std::vector<std::string> header_;
    std::map<std::size_t, std::vector<std::string>> rows_;
    ResultsLock lock_;
    int fd_ = -1;
};

// Writes `table` to `path` atomically (a temporary file in the same directory,
// renamed into place).
void write_results(const std::string& path, const ResultsTable& table);

}  // namespace agx::sweep
