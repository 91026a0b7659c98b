// Number formatting for the tables the tools print.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

namespace agx {

// One number through a printf format ("%.3f").
inline std::string format_number(const char* format, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, format, v);
    return buf;
}

// With an SI prefix: 12.3 M, 4.56 G (the speed figures span six orders of
// magnitude); below a thousand, a whole number and a space.
inline std::string si(double v) {
    if (v >= 1e9) return format_number("%.2f G", v / 1e9);
    if (v >= 1e6) return format_number("%.2f M", v / 1e6);
    if (v >= 1e3) return format_number("%.2f K", v / 1e3);
    return format_number("%.0f ", v);
}

// An address or offset as the messages print it: 0x and lowercase hex digits.
inline std::string hex(std::uint64_t v) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
    return buf;
}

}  // namespace agx
