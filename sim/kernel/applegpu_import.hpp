// Importing a kernel compiled on a Mac: the text applegpu's disassembler
// prints (dougallj/applegpu, disassemble.py or compiler_explorer.py) turned
// into an agxsim kernel (traces/KERNEL.md, "Importing a kernel compiled on
// a Mac"). Each line `OFFSET: BYTES  mnemonic  operands` becomes one
// catalogue instruction; branch targets (byte offsets) become labels.
// What has no agxsim equivalent (texture and uniform-store instructions,
// operand modifiers agxsim does not model, unknown mnemonics) is refused
// with the listing's line.
#pragma once

#include <string>

namespace agx::kernel {

struct ImportedKernel {
    std::string text;           // the kernel file, without a launch
    unsigned instructions = 0;  // instructions imported
};

// `listing`: the disassembler's output; `path` names it in messages and in
// the kernel's header comment; `name` is the kernel's name; `launch`: launch
// directives to copy in (may be empty: then `agxsim run --launch` gives
// them). Throws InputError "path:line: reason".
ImportedKernel import_applegpu_listing(const std::string& listing, const std::string& path,
                                       const std::string& name, const std::string& launch);

}  // namespace agx::kernel
