// An output file that appears only when the run succeeds: written to a
// temporary name beside the target and renamed on commit(), removed if the
// object dies uncommitted. Opening it early also fails fast on a bad path.
#pragma once

#include <fstream>
#include <string>

namespace agx::cli {

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

}  // namespace agx::cli
