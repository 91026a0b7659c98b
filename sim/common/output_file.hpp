// Output that appears only when complete: a file is written under a unique
// temporary name in its target's directory ("<path>.partial-XXXXXX",
// mkstemp) and renamed onto its name on commit(), which POSIX makes atomic;
// it is removed if the object dies uncommitted. Two runs writing the same
// path each write their own temporary, so the file holds one run's output
// whole, never a mix. Opening early also fails fast on a bad path.
#pragma once

#include <fstream>
#include <string>

namespace agx {

class OutputFile {
  public:
    explicit OutputFile(std::string path);  // throws InputError if it cannot be created
    ~OutputFile();
    OutputFile(const OutputFile&) = delete;
    OutputFile& operator=(const OutputFile&) = delete;

    std::ostream& stream() { return out_; }
    void commit();  // throws InputError if the file cannot be completed

  private:
    std::string path_, temp_;
    std::ofstream out_;
    bool committed_ = false;
};

// Writes `text` to `path` through an OutputFile.
void write_file_atomically(const std::string& path, const std::string& text);

// A new, empty directory beside `path` with a unique name
// ("<path>.partial-XXXXXX", mkdtemp), for a directory written whole and then
// renamed onto `path`. Throws InputError naming `what` if it cannot be made.
std::string make_temp_directory_beside(const std::string& path, const std::string& what);

}  // namespace agx
