// Parsing of single lines of the text trace format (traces/FORMAT.md).
// Shared by the indexing pass (which validates every line once) and the
// instruction streams (which parse lines again, lazily, as simds run).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "sim/trace/instruction.hpp"

namespace agx::trace_detail {

// Where a line is, for error messages: "<path>:<line>".
struct LineContext {
    const std::string& path;
    std::uint32_t line;
    std::string where() const { return path + ":" + std::to_string(line); }
};

[[noreturn]] void fail(const LineContext& at, const std::string& reason);

// A file's first line without the UTF-8 byte-order mark some editors write
// at the start of a text file.
inline std::string_view strip_utf8_bom(std::string_view first_line) {
    constexpr std::string_view kBom = "\xEF\xBB\xBF";
    return first_line.substr(0, kBom.size()) == kBom ? first_line.substr(kBom.size()) : first_line;
}

// Text helpers. `strip_comment` also trims surrounding blanks.
std::string_view trim(std::string_view s);
std::string_view strip_comment(std::string_view s);
// Splits off the first blank-separated word of `rest`.
std::string_view next_word(std::string_view& rest);
// Unsigned integer, decimal or 0x-hex, that must fit in `max`.
bool parse_uint(std::string_view s, std::uint64_t& out, std::uint64_t max = UINT64_MAX);

// One operand as written, before it is checked against an instruction's
// operand spec. `components` counts the registers of a group (r4_r5 = 2).
struct ParsedOperand {
    Operand op;
    std::uint8_t components = 0;
    bool sixteen_bit = false;  // made of 16-bit halves (r5l, r4l_r4h)
};
// Parses "r5", "r5h", "r4_r5", "u3l", "0x10", "-1", "1.5", "sr80", with an
// optional ".cache" / ".discard" suffix. Throws InputError.
ParsedOperand parse_operand(std::string_view text, const LineContext& at);

// A `key=value` attribute of an instruction line.
struct Attribute {
    std::string_view key, value;
};
// Applies mask=, slot=, size= and addr= to a parsed instruction, checking
// that each applies to it (attributes.cpp).
void apply_attributes(const Attribute* attrs, unsigned n, const isa::InstructionInfo& info,
                      const LineContext& at, Instruction& out);

// The most attributes an instruction line may carry.
inline constexpr unsigned kMaxAttributes = 8;

// Parses the mnemonic and operands of an instruction line (comment
// stripped, not empty) into `out`, checked as parse_instruction() checks
// them, and returns its attributes unapplied (they point into `text`): the
// kernel format (traces/KERNEL.md) gives them other meanings.
unsigned parse_instruction_operands(std::string_view text, const LineContext& at,
                                    std::uint32_t registers_halves, Instruction& out,
                                    std::array<Attribute, kMaxAttributes>& attributes);

// Parses a whole instruction line (comment stripped, not empty) into `out`,
// checking it against the catalogue and the launch's register count.
// `out.pc` is left untouched: the caller numbers instructions.
void parse_instruction(std::string_view text, const LineContext& at, std::uint32_t registers_halves,
                       Instruction& out);

}  // namespace agx::trace_detail
