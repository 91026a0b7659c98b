// What a text trace's instruction line can say, as rules on a decoded
// Instruction. The text reader enforces them as it parses; the binary
// reader decodes records that could break any of them, so it applies these
// to every record when a trace is opened. A binary trace then holds only
// what its text form holds, and `trace convert` writes every trace it
// reads.
#pragma once

#include <string>

#include "sim/trace/instruction.hpp"
#include "sim/trace/workload.hpp"

namespace agx::trace_detail {

// Empty when `in` follows the text format's rules under `launch`: its
// operands match the catalogue's specs (count, destinations before sources,
// kinds, widths, alignment, registers within the launch; an immediate is
// its bits, whatever width it carries), its wait slot is
// as its mnemonic requires, a memory instruction moves 1 to 16 bytes per
// lane that fit its data register, at aligned addresses inside the
// launch's threadgroup memory when it uses that, and any other instruction
// has no memory access. Otherwise what is wrong, as "operand 2 ...".
std::string instruction_problem(const Instruction& in, const Launch& launch);

// Whether `size` bytes at `address` lie inside `bytes` bytes from 0,
// without wrapping around.
inline bool within(std::uint64_t address, std::uint64_t size, std::uint64_t bytes) {
    return address <= bytes && size <= bytes - address;
}

}  // namespace agx::trace_detail
