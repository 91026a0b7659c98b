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

#include <string>
#include <vector>

namespace agx::kernel {

struct ImportedKernel {
    std::string text;                   // the kernel file (with the launch, if one was given)
    unsigned instructions = 0;          // instructions imported
    unsigned registers_halves = 0;      // the launch's `registers=` must be at least this
    std::vector<std::string> uniforms;  // uniform registers the code reads, as written
};

// `listing`: the disassembler's output; `path` names it in messages and in
// the kernel's header comment; `name` is the kernel's name; `launch`: launch
// directives to copy in (may be empty: then `agxsim run --launch` gives
// them). Throws InputError "path:line: reason".
ImportedKernel import_applegpu_listing(const std::string& listing, const std::string& path,
                                       const std::string& name, const std::string& launch);

}  // namespace agx::kernel
