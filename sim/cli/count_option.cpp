#include "sim/cli/count_option.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace agx::cli {

CLI::Validator count_validator(std::uint64_t min, std::uint64_t max) {
    return CLI::Validator(
        [min, max](std::string& text) -> std::string {
            std::uint64_t v = 0;
            const bool digits = !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
                return std::isdigit(static_cast<unsigned char>(c)) != 0;
            });
            const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
            if (digits && ec == std::errc() && end == text.data() + text.size() && v >= min &&
                v <= max)
                return {};
            // A long value is elided in the middle, and only printable
            // characters are shown: the message stays one short line.
            std::string shown = text.size() <= 40
                                    ? text
                                    : text.substr(0, 20) + "..." + text.substr(text.size() - 10);
            for (char& c : shown)
                if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
            return "expected a count from " + std::to_string(min) + " to " + std::to_string(max) +
                   ", got '" + shown + "'";
        },
        "COUNT");
}

}  // namespace agx::cli
