// The kernel name a trace may carry (`kernel name=NAME` in the text format,
// the index's name in the binary one). Both readers and both writers hold it
// to one rule, so that a name either format reads the other can write, and
// `trace convert` never writes a trace that `run` refuses.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "sim/trace/trace_line_reader.hpp"

namespace agx {

// The longest name whose `kernel name=NAME` line the text reader takes (a
// line holds 65,535 characters and its line break): 65,523 bytes.
inline constexpr std::size_t kMaxKernelName =
    trace_detail::LineReader::kMaxLine - 1 - std::string_view("kernel name=").size();

// Nothing if `name` may name a kernel, else why not: a name is 1 to
// kMaxKernelName bytes without blanks, line breaks or other control
// characters, and without '#' (which starts a comment in the text format).
inline std::optional<std::string> kernel_name_problem(std::string_view name) {
    if (name.empty()) return std::string("empty kernel name");
    if (name.size() > kMaxKernelName)
        return "kernel name of " + std::to_string(name.size()) + " bytes (at most " +
               std::to_string(kMaxKernelName) + ")";
    for (const char c : name) {
        const auto u = static_cast<unsigned char>(c);
        if (u <= 0x20 || u == 0x7f)
            return std::string("kernel name with a blank, line break or control character");
        if (c == '#') return std::string("kernel name with '#' (a comment in the text format)");
    }
    return std::nullopt;
}

}  // namespace agx
