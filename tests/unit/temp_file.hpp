// A file in the temporary directory, unique to this process, removed at
// scope exit: what the trace readers' tests read from.
#pragma once

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace agx::test {

class TempFile {
  public:
    // A fresh name ending in `suffix` (".trace", ".agxb"); nothing is
    // written yet.
    explicit TempFile(const std::string& suffix) {
        static int counter = 0;
        path_ = (std::filesystem::temp_directory_path() /
                 ("agx_unit_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter++) +
                  suffix))
                    .string();
    }
    ~TempFile() { std::remove(path_.c_str()); }
    TempFile(const TempFile&) = delete;
    TempFile& operator=(const TempFile&) = delete;

    const std::string& path() const { return path_; }
    void write(const std::string& bytes) const { std::ofstream(path_, std::ios::binary) << bytes; }
    std::string read() const {
        std::ifstream in(path_, std::ios::binary);
        std::stringstream ss;
        ss << in.rdbuf();
        return ss.str();
    }

  private:
    std::string path_;
};

// A text trace holding `text` (an empty file for "").
struct TempTrace : TempFile {
    explicit TempTrace(const std::string& text) : TempFile(".trace") { write(text); }
};

}  // namespace agx::test
