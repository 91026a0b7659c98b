#include "sim/common/json_input.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "sim/common/errors.hpp"
#include "sim/common/input_file.hpp"

namespace agx {

namespace {

// A parser message may quote the input; the CLI prints one line.
std::string one_line(std::string s) {
    for (char& c : s)
        if (c == '\n' || c == '\r') c = ' ';
    return s;
}

// e.what() is "[json.exception.parse_error.101] parse error at line L, column C: ...".
std::string without_prefix(const char* what) {
    std::string msg = what;
    if (const auto close = msg.find("] ");
        msg.rfind("[json.exception", 0) == 0 && close != std::string::npos)
        msg = msg.substr(close + 2);
    return msg;
}

InputError error(const std::string& where, const std::string& reason) {
    return InputError(one_line(where), one_line(reason));
}

void check_depth(const std::string& text, const std::string& where) {
    if (const auto at = json_too_deep(text))
        throw error(where, "JSON nested deeper than " + std::to_string(kMaxJsonDepth) +
                               " levels (at byte " + std::to_string(*at + 1) + ")");
}

}  // namespace

std::optional<std::size_t> json_too_deep(const std::string& text, std::size_t limit) {
    std::size_t depth = 0;
    bool in_string = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (in_string) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            if (++depth > limit) return i;
        } else if ((c == ']' || c == '}') && depth > 0) {
            --depth;
        }
    }
    return std::nullopt;
}

bool is_utf8(std::string_view text) {
    std::size_t i = 0;
    const std::size_t n = text.size();
    auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    while (i < n) {
        const unsigned char c = byte(i);
        if (c < 0x80) {
            ++i;
            continue;
        }
        // The first byte gives the length and the range of the second
        // (no overlong forms, no surrogates, nothing above U+10FFFF).
        std::size_t len = 0;
        unsigned char lo = 0x80, hi = 0xbf;
        if (c >= 0xc2 && c <= 0xdf) {
            len = 2;
        } else if (c >= 0xe0 && c <= 0xef) {
            len = 3;
            if (c == 0xe0) lo = 0xa0;
            if (c == 0xed) hi = 0x9f;
        } else if (c >= 0xf0 && c <= 0xf4) {
            len = 4;
            if (c == 0xf0) lo = 0x90;
            if (c == 0xf4) hi = 0x8f;
        } else {
            return false;
        }
        if (n - i < len) return false;
        if (byte(i + 1) < lo || byte(i + 1) > hi) return false;
        for (std::size_t k = 2; k < len; ++k)
            if (byte(i + k) < 0x80 || byte(i + k) > 0xbf) return false;
        i += len;
    }
    return true;
}

nlohmann::json parse_json(const std::string& text, const std::string& where,
                          const nlohmann::json::parser_callback_t& callback,
                          const std::string& what) {
    check_depth(text, where);
    try {
        return nlohmann::json::parse(text, callback);
    } catch (const nlohmann::json::parse_error& e) {
        throw error(where,
                    what + " at byte " + std::to_string(e.byte) + ": " + without_prefix(e.what()));
    } catch (const nlohmann::json::out_of_range& e) {
        // 406: a number too large for a double.
        throw error(where, without_prefix(e.what()));
    } catch (const nlohmann::json::exception& e) {
        throw error(where, what + ": " + without_prefix(e.what()));
    }
}

nlohmann::json read_json_file(const std::string& path, const std::string& description,
                              const nlohmann::json::parser_callback_t& callback,
                              const std::string& what) {
    return parse_json(read_input_file(path, description, kMaxJsonInputBytes), path, callback, what);
}

std::optional<nlohmann::json> parse_json_if_json(const std::string& text,
                                                 const std::string& where) {
    check_depth(text, where);
    try {
        return nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error&) {
        return std::nullopt;
    } catch (const nlohmann::json::out_of_range& e) {
        throw error(where, without_prefix(e.what()));
    }
}

}  // namespace agx
