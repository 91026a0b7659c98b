// OpenCL C -> AGX machine code through Mesa's Asahi compiler
// (scripts/setup-agx-compiler.sh builds its two tools: mesa_clc, OpenCL C
// to SPIR-V through LLVM and libclc; asahi_clc, SPIR-V to G13 binaries
// printed as C arrays). This file runs the tools and reads what they write:
// per kernel a 44-byte agx_precompiled_kernel_info (Mesa's
// src/asahi/compiler/agx_compile.h) then the binary; the kernel's argument
// layout (Mesa's nir_precomp_derive_layout, from the header asahi_clc
// writes: arguments in order, naturally aligned and at least 2-byte aligned,
// as Asahi asks, from uniform half 0) and the argument types, read from the
// SPIR-V module.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace agx::kernel {

struct CompileOptions {
    std::string source;                // the .cl file
    std::string kernel;                // the kernel to take; empty: the file's only one
    std::vector<std::string> defines;  // "-DNAME=VALUE" as given to clang
    std::string compiler_dir;  // where mesa_clc and asahi_clc are; empty: find_compiler_dir()
};

// One kernel argument: where it lands among the uniforms and what it is.
struct CompiledArgument {
    std::string name;
    // "pointer" (global or constant memory), or the scalar's type: f16 f32
    // i8 i16 i32 i64 (from the SPIR-V, which keeps no signedness).
    std::string type;
    std::uint32_t offset_bytes = 0;  // from u0's first byte: uniform u(offset/4)
    std::uint32_t size_bytes = 0;
};

struct CompiledKernel {
    std::string name;
    std::string source;  // the .cl file it came from
    // agx_precompiled_kernel_info, as asahi_clc writes it.
    std::uint32_t preamble_offset = 0, main_offset = 0, main_size = 0;
    std::uint32_t rodata_offset = 0;
    std::uint16_t rodata_base_half = 0, rodata_halves = 0;
    std::uint16_t registers_halves = 0, preamble_registers_halves = 0;
    std::uint16_t push_count = 0;  // uniform halves the driver fills (arguments and rodata)
    std::uint16_t workgroup[3] = {0, 0, 0};
    std::uint16_t local_bytes = 0;  // threadgroup memory
    std::vector<std::uint8_t> binary;
    std::vector<CompiledArgument> arguments;
    bool has_preamble() const { return preamble_registers_halves > 0; }
};

// The directory holding the built tools: $AGXSIM_AGX_COMPILER_DIR, else the
// cache scripts/setup-agx-compiler.sh fills. Empty when neither holds them.
std::string find_compiler_dir();
// The Mesa version the tools were built from (the cache's COMPLETE note).
std::string compiler_version(const std::string& dir);

// Compiles and reads one kernel. Throws InputError: the compiler's own
// message (its file and line) for source that does not compile; a missing
// compiler names the script that builds it.
CompiledKernel compile_opencl(const CompileOptions& options);

// Reads asahi_clc's C output (`c_text`) and header (`h_text`) for `kernel`
// (empty: the only one). `where` names the source in messages.
CompiledKernel read_asahi_output(const std::string& c_text, const std::string& h_text,
                                 const std::string& kernel, const std::string& where);

// The kernel's argument names and types from mesa_clc's SPIR-V module
// (`spv`, its bytes): name -> "pointer" (global or constant memory) or a
// scalar type (f16 f32 i8 i16 i32 i64: OpenCL's SPIR-V has no signedness,
// which a uniform's bits do not need). Throws InputError for an argument
// agxsim cannot bind (a local pointer, an image, a struct by value).
std::vector<std::pair<std::string, std::string>> spirv_argument_types(const std::string& spv,
                                                                      const std::string& kernel,
                                                                      const std::string& where);

}  // namespace agx::kernel
