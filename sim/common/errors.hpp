// Error types shared by every layer.
//
// InputError is for anything the user gave us that is wrong (a config, a
// trace, a command-line value): the CLI prints its what() as one line and
// exits with code 2. Anything else that escapes is an internal error (exit 1).
#pragma once

#include <stdexcept>
#include <string>

namespace agx {

class InputError : public std::runtime_error {
  public:
    // `where` names the file and the line or key path ("trace.txt:12",
    // "configs/m1.json: core.l1d.size_bytes"); `reason` says what is wrong.
    InputError(const std::string& where, const std::string& reason)
        : std::runtime_error(where.empty() ? reason : where + ": " + reason) {}
};

}  // namespace agx
