// Reading JSON the user gave us (configs, measurement files, suites, profiles,
// --set values): one place that parses it, so that every reader refuses the
// same things with one line naming the file.
//
// nlohmann's parser itself is iterative, but copying, comparing, dumping and
// walking a value recurse once per level of nesting, so a document nested a
// hundred thousand levels deep overflows the stack long after parsing. The
// nesting is therefore limited before the parser sees the text; no file the
// tool reads needs more than a few levels.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace agx {

// Objects and arrays nested deeper than this are refused.
inline constexpr std::size_t kMaxJsonDepth = 256;

// Parses `text`, which came from `where` (a file's path, "--set KEY=VALUE").
// Throws InputError naming `where`: "<where>: <what> at byte B: <parser's
// message>" for malformed text, and a reason of its own for nesting deeper
// than kMaxJsonDepth and for a number beyond the range of a double (1e999).
// `callback` is nlohmann's parser callback (it may throw InputError itself).
nlohmann::json parse_json(const std::string& text, const std::string& where,
                          const nlohmann::json::parser_callback_t& callback = nullptr,
                          const std::string& what = "malformed JSON");

// Reads the file `path` whole and parses it as above; a file that cannot be
// read is an InputError "<path>: cannot open <description>: <reason>".
nlohmann::json read_json_file(const std::string& path, const std::string& description = "file",
                              const nlohmann::json::parser_callback_t& callback = nullptr,
                              const std::string& what = "malformed JSON");

// For a value that is JSON if it parses and a plain string otherwise (a
// --set value): nothing if `text` is not JSON; throws InputError as
// parse_json() does for nesting and numbers out of range, which are JSON but
// not a value the tool can hold.
std::optional<nlohmann::json> parse_json_if_json(const std::string& text, const std::string& where);

// Whether `text` is well-formed UTF-8: what a string must be for nlohmann's
// dump() to write it (it throws otherwise). Text the tool takes as it is (a
// --set value that is not JSON, a CSV cell) and later writes as JSON is
// checked with it.
bool is_utf8(std::string_view text);

// Nothing when `text` nests objects and arrays at most `limit` deep (strings
// are skipped, whether or not the text is otherwise valid JSON), else the
// byte offset at which it went deeper.
std::optional<std::size_t> json_too_deep(const std::string& text,
                                         std::size_t limit = kMaxJsonDepth);

}  // namespace agx
