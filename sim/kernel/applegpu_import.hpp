// Importing a kernel compiled on a Mac: the text applegpu's disassembler
// prints (dougallj/applegpu, disassemble.py or compiler_explorer.py) turned
// into an agxsim kernel (traces/KERNEL.md, "Importing a kernel compiled on
// a Mac"). Each line `OFFSET: BYTES  mnemonic  operands` becomes one
// catalogue instruction; branch targets (byte offsets) become labels.
//
// Every instruction is mapped only where agxsim computes what the hardware
// does (as applegpu describes it), and each mapped line is checked against
// the catalogue's operand shapes here, so what imports also loads. What has
// no agxsim equivalent (texture, uniform-store and stack instructions,
// operand modifiers agxsim does not model, unknown mnemonics, operand widths
// the catalogue has no form for) is refused with the listing's line.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace agx::kernel {

struct ImportedKernel {
    std::string text;                   // the kernel file (with the launch, if one was given)
    unsigned instructions = 0;          // instructions imported
    unsigned registers_halves = 0;      // the launch's `registers=` must be at least this
    std::vector<std::string> uniforms;  // uniform registers the code reads, as written
};

// One instruction as applegpu's disassembler spells it: from a listing's
// line, or from agxsim's own decoder of machine code (isa/agx_decode.hpp).
struct ListingInstruction {
    unsigned line = 0;         // in the listing (or the instruction's index)
    std::uint64_t offset = 0;  // byte offset of the instruction
    std::string mnemonic;
    std::vector<std::string> operands;  // as printed, trimmed; get_sr's "(name)" removed
    std::string note;                   // get_sr's register name
    bool undecoded = false;             // "<disassembly failed>"
};

// The kernel code lines built from instructions (labels `at_0xOFFSET:` on
// lines of their own, each instruction with its offset and original text as
// a comment): the one builder behind `kernel import` and `kernel compile`.
struct ImportedCode {
    std::vector<std::string> lines;
    unsigned instructions = 0;
    unsigned registers_halves = 0;
    std::vector<std::string> uniforms;   // read, as written
    std::set<std::string> memory_bases;  // of those, used as memory bases
    std::string scratch;                 // the register that takes dropped atomic results
};
// `preamble`: the code is a compiled kernel's preamble, where uniform_store
// belongs (it writes the uniforms the main code reads). `keep_pcs`: each
// instruction keeps its offset as its pc (`pc=`), so profiles and timelines
// name the binary's offsets. Throws InputError "path:line: reason" for an
// instruction agxsim cannot run.
ImportedCode import_listing_instructions(const std::vector<ListingInstruction>& lines,
                                         const std::string& path, bool preamble = false,
                                         bool keep_pcs = false);

// `listing`: the disassembler's output; `path` names it in messages and in
// the kernel's header comment; `name` is the kernel's name; `launch`: launch
// directives to copy in (may be empty: then `agxsim run --launch` gives
// them). Throws InputError "path:line: reason".
ImportedKernel import_applegpu_listing(const std::string& listing, const std::string& path,
                                       const std::string& name, const std::string& launch);

}  // namespace agx::kernel
