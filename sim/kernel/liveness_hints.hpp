// Register-cache hints inferred from liveness: a what-if for compiled code.
// Mesa's AGX compiler sets no `.cache` / `.discard` hints, while Apple's
// marks the last read of a value `.discard` (applegpu's docs, "Register
// cache"). This pass replaces a kernel's hints by those liveness implies:
// a register source whose value no path reads again before it is written
// (or the simd stops) is `.discard`; every other hint is cleared.
//
// Liveness is over 16-bit halves and the code's control flow (fall through,
// jmp_exec_any / jmp_exec_none to their targets, call and ret). A write
// counts as a new value for every lane, as a compiler's register allocator
// sees values; a write under a partial execution mask leaves the old value
// in the inactive lanes, so a discard there can drop a value they read
// later. A hint only decides what the register cache keeps, never a value,
// so such a case costs a register-file read, nothing else. r0l (the
// execution-mask counter, read by the stack instructions implicitly) is
// never discarded.
#pragma once

#include <string>

#include "sim/kernel/kernel_program.hpp"

namespace agx::kernel {

// How a run takes a kernel's register-cache hints.
enum class RegisterHints {
    AsWritten,  // as the kernel file has them (a compiled kernel: none)
    Liveness,   // inferred from liveness, the written ones dropped
};

// "as-written" or "liveness"; throws InputError naming `where` otherwise.
RegisterHints parse_register_hints(const std::string& text, const std::string& where);

// Replaces the hints of `program.code` (the preamble runs untimed) by the
// discards liveness implies. Returns how many sources it marks.
unsigned infer_discard_hints(KernelProgram& program);

}  // namespace agx::kernel
