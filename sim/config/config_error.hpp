// Building the loader's one-line InputErrors. Internal to sim/config.
#pragma once

#include <string>

#include "sim/common/errors.hpp"

namespace agx::config_detail {

// A reason may quote user text (a value, a JSON parser message); the CLI
// prints what() as one line, so line breaks become spaces.
inline std::string one_line(std::string s) {
    for (char& c : s)
        if (c == '\n' || c == '\r') c = ' ';
    return s;
}

// "<where>: <key>: <reason>", or "<where>: <reason>" when there is no key.
inline InputError config_error(const std::string& where, const std::string& key,
                               const std::string& reason) {
    return InputError(one_line(key.empty() ? where : where + ": " + key), one_line(reason));
}

}  // namespace agx::config_detail
