#include "sim/cli/output_file.hpp"

#include <cstdio>

#include "sim/common/errors.hpp"

namespace agx::cli {

OutputFile::OutputFile(std::string path) : path_(std::move(path)), temp_(path_ + ".partial") {
    out_.open(temp_, std::ios::out | std::ios::trunc);
    if (!out_) throw InputError(path_, "cannot create output file");
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
    if (!out_ || std::rename(temp_.c_str(), path_.c_str()) != 0) {
        std::remove(temp_.c_str());
        throw InputError(path_, "cannot write output file");
    }
    committed_ = true;
}

}  // namespace agx::cli
