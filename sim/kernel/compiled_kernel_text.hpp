// A compiled kernel (sim/kernel/opencl_compile.hpp) as an agxsim kernel
// file: its machine code decoded natively (isa/agx_decode.hpp) and built
// into kernel lines by the importer's builder (import_listing_instructions),
// with what the compiler decided kept as directives: the registers and
// threadgroup (`compiled`), where each argument lands (`argument`), the
// constants it promoted to uniforms (`uniform`), and the preamble
// (`section preamble`). traces/KERNEL.md, "Writing a kernel in OpenCL C".
#pragma once

#include <string>

#include "sim/kernel/opencl_compile.hpp"

namespace agx::kernel {

// `compiler` names the compiler in the file's header comment.
std::string compiled_kernel_text(const CompiledKernel& k, const std::string& compiler);

}  // namespace agx::kernel
