#include "sim/common/json_input.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "sim/common/errors.hpp"

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
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError(path, "cannot open " + description + ": " + std::strerror(errno));
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad())
        throw InputError(path, "cannot read " + description + ": " + std::strerror(errno));
    return parse_json(text.str(), path, callback, what);
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
