// A kernel program (traces/KERNEL.md): the static machine code of one
// compute kernel, with labels and real branch targets, and its launch
// directives. Read once when the kernel is opened; every line is checked
// then, so a bad kernel fails before simulation starts.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "isa/semantics.hpp"
#include "sim/kernel/launch_spec.hpp"
#include "sim/trace/instruction.hpp"

namespace agx::kernel {

// What an instruction does, resolved from its mnemonic once.
enum class Sem : std::uint8_t {
    Fadd16,
    Fmul16,
    Fmadd16,
    Fadd32,
    Fmul32,
    Fmadd32,
    Iadd16,
    Iadd32,
    Iaddsat32,
    Bitop16,
    Bitop32,
    Fcmpsel16,
    Fcmpsel32,
    Icmpsel16,
    Icmpsel32,
    Fmin16,
    Fmax16,
    Imin16,
    Imax16,
    Fmin32,
    Fmax32,
    Imin32,
    Imax32,
    Mov,
    MovImm,
    GetSr,
    Imul16,
    Imadd16,
    Imul16x32,
    Imadd16x32,
    Imul32,
    Imadd32,
    Imul32x64,
    Imadd32x64,
    Imulhi32,
    Bfeil,
    Bfi,
    Extr,
    Intl,
    Bitrev,
    Popcount,
    Ffs,
    Clz,
    Shl,
    Shr,
    Asr,
    Shlhi,
    Shrhi,
    Asrh,
    Convert,
    Rint,
    Trunc,
    Floor,
    Ceil,
    Rcp16,
    Rcp32,
    Rsqrt16,
    Rsqrt32,
    Exp2_16,
    Exp2_32,
    Log2_16,
    Log2_32,
    SinPt1,
    SinPt2,
    SimdShuffle,
    SimdShuffleDown,
    SimdShuffleUp,
    SimdShuffleXor,
    SimdShuffleRotate,
    SimdBroadcast,
    QuadShuffle,
    QuadBroadcast,
    QuadPrefixFadd32,
    QuadPrefixFmul32,
    QuadPrefixIadd32,
    QuadPrefixIxor32,
    SimdPrefixFadd32,
    SimdPrefixFmul32,
    SimdPrefixIadd32,
    SimdPrefixIxor32,
    QuadReduceFadd32,
    QuadReduceFmul32,
    QuadReduceIadd32,
    QuadReduceIxor32,
    SimdReduceFadd32,
    SimdReduceFmul32,
    SimdReduceIadd32,
    SimdReduceIxor32,
    QuadReduceFadd16,
    QuadReduceFmul16,
    QuadReduceIadd16,
    QuadReduceIxor16,
    SimdReduceFadd16,
    SimdReduceFmul16,
    SimdReduceIadd16,
    SimdReduceIxor16,
    QuadReduceFmax32,
    SimdReduceFmax32,
    QuadReduceFmin32,
    SimdReduceFmin32,
    QuadReduceSmax32,
    SimdReduceSmax32,
    QuadReduceSmin32,
    SimdReduceSmin32,
    QuadReduceUmax32,
    SimdReduceUmax32,
    QuadReduceUmin32,
    SimdReduceUmin32,
    QuadReduceIand32,
    SimdReduceIand32,
    QuadReduceIor32,
    SimdReduceIor32,
    SimdBallot,
    IcmpBallot,
    FcmpBallot,
    QuadBallot,
    SimdMatrixFmadd16,
    SimdMatrixFmadd32,
    DeviceLoad,
    DeviceStore,
    Atomic,
    StackLoad,
    StackStore,
    ThreadgroupLoad,
    ThreadgroupStore,
    ThreadgroupAtomic,
    Wait,
    ThreadgroupBarrier,
    MemoryBarrier,
    JmpExecAny,
    JmpExecNone,
    Call,
    Ret,
    IfIcmp,
    IfFcmp,
    ElseIcmp,
    ElseFcmp,
    WhileIcmp,
    WhileFcmp,
    PopExec,
    UniformStore,
    Stop,
};

enum class AtomicOp : std::uint8_t {
    Add,
    Sub,
    Umin,
    Umax,
    Smin,
    Smax,
    And,
    Or,
    Xor,
    Xchg,
    Cmpxchg
};

// The special registers get_sr reads (applegpu's numbering).
enum class SpecialRegister : std::uint8_t {
    ThreadgroupPositionX = 0,
    ThreadgroupPositionY = 1,
    ThreadgroupPositionZ = 2,
    ThreadsPerThreadgroupX = 4,
    ThreadsPerThreadgroupY = 5,
    ThreadsPerThreadgroupZ = 6,
    DispatchThreadsPerThreadgroupX = 8,
    DispatchThreadsPerThreadgroupY = 9,
    DispatchThreadsPerThreadgroupZ = 10,
    CoreIndex = 20,
    ThreadPositionInThreadgroupX = 48,
    ThreadPositionInThreadgroupY = 49,
    ThreadPositionInThreadgroupZ = 50,
    ThreadIndexInThreadgroup = 51,
    ThreadIndexInSimdgroup = 52,
    SimdgroupIndexInThreadgroup = 53,
    ActiveThreadIndexInQuadgroup = 56,
    ActiveThreadIndexInSimdgroup = 58,
    IsActiveThread = 63,
    ThreadPositionInGridX = 80,
    ThreadPositionInGridY = 81,
    ThreadPositionInGridZ = 82,
};
bool is_special_register(std::uint32_t n);
// The execution-mask stack's if/else/while (which read and write r0l, as
// pop_exec does).
bool is_stack_op(Sem s);

struct KernelInstruction {
    Instruction in;  // operands, pc, source line, wait slot; mem.bytes_per_lane for memory
    Sem sem = Sem::Stop;
    std::uint8_t cond = 0;    // isa::sem::IntCond or FloatCond
    std::uint8_t levels = 1;  // n of the exec-mask stack ops
    std::uint8_t table = 0;   // bitop truth table, AtomicOp, ConvertMode
    bool is_signed = false;
    bool negate = false;               // iadd: subtract; imadd: subtract the addend
    bool offset_unsigned = false;      // memory: the offset register is unsigned
    std::uint8_t shift = 0;            // iadd / imadd: addend shift; memory: extra offset shift
    std::uint8_t component_bytes = 0;  // memory: 1, 2 or 4 per register
    std::uint8_t components = 0;       // memory: registers moved per lane
    std::uint32_t target = 0;          // branches and call: index of the target instruction
};

struct KernelProgram {
    std::string path;
    std::string name;
    std::vector<KernelInstruction> code;
    // A compiled kernel's preamble: uniform-only work that runs once per
    // launch on one lane and writes uniforms (uniform_store) for the code.
    std::vector<KernelInstruction> preamble;
    std::uint32_t code_bytes = 0;
    // The kernel file's lines, when `path` is not that file (a kernel
    // compiled from OpenCL C is read from the compile's text): what the
    // profile shows beside each instruction's line number.
    std::vector<std::string> text_lines;
    // The index of the instruction at `pc`, or -1 when no instruction starts there.
    std::int64_t index_at_pc(std::uint32_t pc) const;
};

struct LoadedKernel {
    KernelProgram program;
    ResolvedLaunch launch;
};

// Reads and checks a kernel file. `launch_path`, when not empty, is a file
// of launch directives that replaces the kernel's own; `launch_overrides`
// are `--set launch.KEY=VALUE` without the prefix. Throws InputError:
// "<path>:<line>: reason".
LoadedKernel load_kernel(const std::string& path, const std::string& launch_path,
                         const std::vector<std::string>& launch_overrides);

// Checks one instruction line as load_kernel() checks it (operands against
// the catalogue, attributes, memory shapes), registers against
// `registers_halves`, as the line `line` of `path`. Not for branches and
// calls to a label, whose targets it cannot look up. `kernel import` checks
// every line it writes with it. Throws InputError "<path>:<line>: reason".
void check_instruction_line(const std::string& text, const std::string& path, std::uint32_t line,
                            std::uint32_t registers_halves);

// Whether the file at `path` is a kernel (its first statement is the
// `agxsim-kernel` header) rather than a trace.
bool is_kernel_file(const std::string& path);

}  // namespace agx::kernel
