// One validator for every option that takes a count (--max-instructions,
// --top, -j, ...): a decimal integer from its minimum to its maximum and
// nothing else. "-1" (which a plain unsigned conversion wraps to 2^64 - 1,
// unlimited), "" (read as 0), "0x10", "1e3" and values past the range are
// refused with one line naming the option.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include <CLI/CLI.hpp>

namespace agx::cli {

CLI::Validator count_validator(std::uint64_t min, std::uint64_t max);

template <typename T>
CLI::Option* add_count_option(CLI::App& cmd, const std::string& name, T& value,
                              const std::string& description, std::uint64_t min = 1,
                              std::uint64_t max = std::numeric_limits<T>::max()) {
    static_assert(std::is_unsigned<T>::value, "a count is unsigned");
    return cmd.add_option(name, value, description)->check(count_validator(min, max));
}

}  // namespace agx::cli
