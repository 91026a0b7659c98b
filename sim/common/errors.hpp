// Error types shared by every layer.
//
// InputError is for anything the user gave us that is wrong (a config, a
// trace, a command-line value): the CLI prints its what() as one line and
// exits with code 2. Anything else that escapes is an internal error (exit 1).
#pragma once

#include <algorithm>
#include <stdexcept>
#include <string>

namespace agx {

// A message as one line of bounded length, whatever the input it quotes:
// control characters (a newline, a NUL that would end what() early, a
// terminal escape) are shown as escapes, a word longer than 160 characters
// (a long value) is elided in its middle, and a message longer than 2000
// characters too.
inline std::string bounded_message(const std::string& text) {
    static const char* const hex = "0123456789abcdef";
    std::string clean;
    for (const char ch : text) {
        const auto c = static_cast<unsigned char>(ch);
        if (c == '\n')
            clean += "\\n";
        else if (c == '\t')
            clean += ' ';
        else if (c < 0x20 || c == 0x7f)
            clean += std::string("\\x") + hex[c >> 4] + hex[c & 15];
        else
            clean += ch;
    }
    std::string out;
    for (std::size_t i = 0; i < clean.size();) {
        const std::size_t end = std::min(clean.find(' ', i), clean.size());
        if (end - i > 160)
            out += clean.substr(i, 100) + "..." + clean.substr(end - 40, 40);
        else
            out += clean.substr(i, end - i);
        if (end < clean.size()) out += ' ';
        i = end + 1;
    }
    if (out.size() > 2000) out = out.substr(0, 1400) + " ... " + out.substr(out.size() - 500);
    return out;
}

class InputError : public std::runtime_error {
  public:
    // `where` names the file and the line or key path ("trace.txt:12",
    // "configs/m1.json: core.l1d.size_bytes"); `reason` says what is wrong.
    InputError(const std::string& where, const std::string& reason)
        : std::runtime_error(bounded_message(where.empty() ? reason : where + ": " + reason)) {}
};

}  // namespace agx
