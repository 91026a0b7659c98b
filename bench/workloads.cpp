#include "workloads.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <stdexcept>

#include "generated_workload.hpp"
#include "sim/kernel/kernel_workload.hpp"
#include "sim/trace/program_workload.hpp"

namespace agx::bench {

namespace {

constexpr std::uint32_t kSimdWidth = 32;
constexpr std::uint64_t kLineBytes = 128;

Launch launch(std::uint32_t threads_per_group, std::uint32_t groups,
              std::uint32_t registers_halves) {
    return Launch::of(threads_per_group, groups, registers_halves);
}

std::uint64_t simds_of(const Launch& l) {
    return std::uint64_t{l.threadgroups} * l.simds_per_threadgroup(kSimdWidth);
}

// Passes of a body of `body` instructions on every simd that make about
// `instructions` in all.
std::uint64_t passes(std::uint64_t instructions, const Launch& l, std::size_t body) {
    return std::max<std::uint64_t>(1,
                                   (instructions + simds_of(l) * body - 1) / (simds_of(l) * body));
}

// Numbers the body's pcs as a trace would: by the encoded lengths.
std::vector<Instruction> numbered(std::vector<Instruction> body) {
    std::uint32_t pc = 0;
    for (Instruction& in : body) {
        in.pc = pc;
        pc += isa::Catalogue::instance().info(in.opcode).encoded_bytes;
    }
    return body;
}

// A workload of one loop body that every simd runs: built as a
// ProgramWorkload, or written as a trace with the loop as a repeat block.
struct Program {
    std::string name;
    Launch launch;
    std::vector<Instruction> body;
    std::uint64_t passes = 0;
};

Program program(const std::string& name, const Launch& l, std::vector<Instruction> body,
                std::uint64_t instructions) {
    const std::uint64_t reps = passes(instructions, l, body.size());
    return {name, l, numbered(std::move(body)), reps};
}

Operand pair(unsigned r) {  // r, r+1 as one 64-bit operand
    Operand o = reg32(r);
    o.halves = 4;
    return o;
}

Operand uniform_pair(unsigned u) {
    Operand o;
    o.kind = OperandKind::Uniform;
    o.halves = 4;
    o.first_half = static_cast<std::uint16_t>(u * 2);
    return o;
}

Instruction device_load(Operand data, Operand base, std::uint64_t address, std::uint8_t bytes,
                        std::int64_t stride) {
    Instruction in = make_instruction("device_load", {data, base});
    in.wait_slot = 0;
    in.mem.bytes_per_lane = bytes;
    in.mem.base = address;
    in.mem.stride = stride;
    return in;
}

// 88 simds per core: 11 threadgroups of 256 threads (metal-benchmarks'
// high-occupancy point, as traces/examples/fadd16_ilp4.trace).
Launch high_occupancy(unsigned cores, std::uint32_t registers_halves) {
    return launch(256, 11 * cores, registers_halves);
}

Program ffma_ilp4(const std::string& name, std::uint64_t n, unsigned cores) {
    std::vector<Instruction> body;
    for (unsigned c = 0; c < 4; ++c)
        body.push_back(make_instruction("fmadd32", {reg32(c), reg32(c), reg32(4), reg32(5)}));
    return program(name, high_occupancy(cores, 16), body, n);
}

Program ffma_chain(std::uint64_t n, unsigned cores) {
    return program("ffma_chain", launch(128, cores, 8),
                   {make_instruction("fmadd32", {reg32(0), reg32(0), reg32(1), reg32(2)})}, n);
}

Program imad_fadd(std::uint64_t n, unsigned cores) {
    return program("imad_fadd", launch(256, 3 * cores, 16),
                   {make_instruction("imadd32", {reg32(0), reg32(0), reg32(1), reg32(2)}),
                    make_instruction("fadd32", {reg32(3), reg32(3), reg32(4)})},
                   n);
}

Program sfu_mix(std::uint64_t n, unsigned cores) {
    return program("sfu_mix", high_occupancy(cores, 16),
                   {make_instruction("rsqrt32", {reg32(1), reg32(0)}),
                    make_instruction("exp2_32", {reg32(2), reg32(0)}),
                    make_instruction("rcp32", {reg32(3), reg32(0)}),
                    make_instruction("fmadd32", {reg32(0), reg32(1), reg32(2), reg32(3)})},
                   n);
}

// Each simd streams through its own contiguous region: four coalesced
// 128-byte loads, a wait, four uses; every load a new line.
std::unique_ptr<Workload> stream_load(std::uint64_t n, unsigned cores) {
    const Launch l = high_occupancy(cores, 16);
    std::vector<Instruction> body;
    for (unsigned k = 0; k < 4; ++k)
        body.push_back(device_load(reg32(4 + k), uniform_pair(0), 0, 4, 4));
    Instruction wait = make_instruction("wait", {imm(0)});
    wait.wait_slot = 0;
    body.push_back(wait);
    for (unsigned k = 0; k < 4; ++k)
        body.push_back(
            make_instruction("fadd32", {reg32(0), reg32(0), reg32(4 + k, CacheHint::Discard)}));
    body = numbered(std::move(body));
    const std::uint64_t reps = passes(n, l, body.size());
    const std::uint64_t region = reps * 4 * kLineBytes;  // bytes one simd reads
    return std::make_unique<GeneratedWorkload>(
        "stream_load", l, reps * body.size(),
        [body, region](std::uint32_t simd, std::uint64_t i, Instruction& out) {
            const std::uint64_t pass = i / body.size();
            const std::size_t k = i % body.size();
            out = body[k];
            if (k < 4) out.mem.base = 0x100000000ull + simd * region + (pass * 4 + k) * kLineBytes;
        });
}

// A dependent chase through DRAM: every load's address register is the
// previous load's destination. Load i of a simd reads line a*i + c mod 2^21
// of a 256 MiB region (far beyond any config's SLC); a is odd, so no line is
// read twice within 2 million loads, and a large so that consecutive loads
// land far apart.
std::unique_ptr<Workload> pointer_chase(std::uint64_t n, unsigned cores) {
    constexpr std::uint64_t kLines = 1ull << 21;
    const Launch l = launch(128, cores, 8);
    std::vector<Instruction> body = {device_load(pair(2), pair(2), 0, 8, 0),
                                     make_instruction("wait", {imm(0)})};
    body[1].wait_slot = 0;
    body = numbered(std::move(body));
    const std::uint64_t reps = passes(n, l, body.size());
    return std::make_unique<GeneratedWorkload>(
        "pointer_chase", l, reps * body.size(),
        [body](std::uint32_t simd, std::uint64_t i, Instruction& out) {
            const std::uint64_t pass = i / 2;
            out = body[i % 2];
            const std::uint64_t line =
                (1664525ull * (pass + simd * 7919ull) + 1013904223ull) % kLines;
            if (i % 2 == 0) out.mem.base = 0x200000000ull + line * kLineBytes;
        });
}

// ffma_ilp4 as a kernel the simulator executes: every lane computes four
// independent FFMA32 chains in a loop (16 per pass) with a counter, a
// while_icmp and a jmp_exec_any closing each pass, so the figure includes
// functional execution, the exec-mask stack and real branches.
std::unique_ptr<Workload> kernel_ffma_ilp4(std::uint64_t n, unsigned cores) {
    const Launch l = high_occupancy(cores, 16);
    constexpr std::uint64_t kPerPass = 19;  // 16 fmadd32, iadd32, while_icmp, jmp_exec_any
    const std::uint64_t passes_per_simd = std::max<std::uint64_t>(1, n / (simds_of(l) * kPerPass));
    std::string text =
        "agxsim-kernel 1\nkernel name=kernel_ffma_ilp4\n"
        "launch grid=" +
        std::to_string(l.threadgroups * 256) +
        " threadgroup=256 registers=16\n"
        "uniform u0 value=" +
        std::to_string(passes_per_simd) +
        "\n"
        "uniform u1 value=1.0001 type=f32\nuniform u2 value=0.5 type=f32\n"
        "    mov_imm r0l, 0\n    mov_imm r7, 0\n"
        "    mov r5, u1\n    mov r6, u2\n"
        "loop:\n";
    for (int k = 0; k < 4; ++k)
        for (int c = 1; c <= 4; ++c)
            text += "    fmadd32 r" + std::to_string(c) + ", r" + std::to_string(c) + ", r5, r6\n";
    text +=
        "    iadd32 r7, r7, 1\n    while_icmp r7, u0 cc=ult n=1\n    jmp_exec_any loop\n"
        "    pop_exec 1\n    stop\n";
    const std::string path = (std::filesystem::temp_directory_path() /
                              ("agxsim_bench_kernel_" + std::to_string(::getpid()) + ".agxk"))
                                 .string();
    std::ofstream(path) << text;
    // Its simds run as long as the row asks (a million instructions each at
    // the 100M scaling row): no per-simd limit.
    auto k = std::make_unique<kernel::KernelWorkload>(
        kernel::load_kernel(path, "", {}), kernel::KernelWorkload::kDefaultMaxInstructions, 0);
    std::remove(path.c_str());
    return k;
}

// ffma_ilp4 as the AGX compiler makes it from OpenCL C
// (bench/compiled_ffma_ilp4.cl): the kernel file `agxsim kernel compile`
// wrote, which tests/cli/test_compiled_kernels.cpp holds to the compiler's
// output, so the row needs no compiler. 16 fmadd32, an iadd32, a
// while_icmp and a jmp_exec_any per pass, as kernel_ffma_ilp4, in the
// compiler's order and registers.
std::unique_ptr<Workload> compiled_ffma_ilp4(std::uint64_t n, unsigned cores) {
    const Launch l = high_occupancy(cores, 16);
    constexpr std::uint64_t kPerPass = 19;
    const std::uint64_t passes_per_simd = std::max<std::uint64_t>(1, n / (simds_of(l) * kPerPass));
    const std::string grid = std::to_string(l.threadgroups * 256);
    const std::string launch = "launch grid=" + grid + " registers=16\nbuffer out size=4*" + grid +
                               "\narg passes value=" + std::to_string(passes_per_simd) +
                               "\narg m value=1.0001\narg c value=0.5\n";
    const std::string path = (std::filesystem::temp_directory_path() /
                              ("agxsim_bench_launch_" + std::to_string(::getpid()) + ".launch"))
                                 .string();
    std::ofstream(path) << launch;
    auto k = std::make_unique<kernel::KernelWorkload>(
        kernel::load_kernel(std::string(AGX_SOURCE_DIR) + "/bench/compiled_ffma_ilp4.agxk", path,
                            {}),
        kernel::KernelWorkload::kDefaultMaxInstructions, 0);  // as long as the row asks
    std::remove(path.c_str());
    return k;
}

// A kernel of the library (traces/kernels/) at launch size n.
std::unique_ptr<Workload> library_kernel(const std::string& kernel, std::uint64_t n) {
    return std::make_unique<kernel::KernelWorkload>(
        kernel::load_kernel(std::string(AGX_SOURCE_DIR) + "/traces/kernels/" + kernel + ".agxk", "",
                            {"n=" + std::to_string(n)}));
}

const std::vector<WorkloadSpec> kSpecs = {
    {"ffma_ilp4", "FFMA32, 4 independent chains, 88 simds/core (ALU-bound)", 1, 10'000'000, 300'000,
     ""},
    {"kernel_ffma_ilp4",
     "ffma_ilp4 as an executed kernel: a loop of 16 FFMA32 in 4 chains + counter and branch, "
     "88 simds/core",
     1, 10'000'000, 300'000, ""},
    {"compiled_ffma_ilp4",
     "ffma_ilp4 in OpenCL C, compiled by Mesa's AGX compiler (bench/compiled_ffma_ilp4.cl), "
     "88 simds/core",
     1, 10'000'000, 300'000, ""},
    {"ffma_chain", "dependent FFMA32 chain, 4 simds/core (latency-bound)", 1, 4'000'000, 200'000,
     ""},
    {"imad_fadd", "IMAD32 + FADD32, 24 simds/core (two pipelines)", 1, 10'000'000, 300'000, ""},
    {"sfu_mix", "rsqrt32 + exp2_32 + rcp32 + FFMA32, 88 simds/core (shared SFU)", 1, 10'000'000,
     300'000, ""},
    {"stream_load", "4 coalesced device loads + wait + 4 uses, contiguous, 88 simds/core", 1,
     5'000'000, 200'000, ""},
    {"pointer_chase", "dependent 64-bit loads over 256 MiB, 4 simds/core (DRAM latency)", 1,
     1'000'000, 100'000, ""},
    {"ffma_ilp4_8core", "ffma_ilp4 on 8 cores of the chip", 8, 20'000'000, 400'000, ""},
    // Library kernels on one core and on every core of m1-max: the memory
    // path and the shared levels under real kernels.
    {"sgemm_1core", "sgemm_simd_matrix_tiled, n=512, on one core of m1-max", 1, 512, 128, "m1-max"},
    {"sgemm_chip", "sgemm_simd_matrix_tiled, n=1024, on the 32 cores of m1-max (2 waves)", 32, 1024,
     256, "m1-max"},
    {"triad_1core", "stream_triad, 2^20 elements (12 MB), on one core of m1-max", 1, 1u << 20,
     1u << 16, "m1-max"},
    {"triad_chip", "stream_triad, 2^23 elements (96 MB), on the 32 cores of m1-max", 32, 1u << 23,
     1u << 18, "m1-max"},
};

}  // namespace

const std::vector<WorkloadSpec>& workload_specs() {
    return kSpecs;
}

const WorkloadSpec* find_workload(const std::string& name) {
    for (const auto& s : kSpecs)
        if (s.name == name) return &s;
    return nullptr;
}

namespace {

std::optional<Program> find_program(const std::string& name, std::uint64_t n, unsigned cores) {
    if (name == "ffma_ilp4" || name == "ffma_ilp4_8core") return ffma_ilp4(name, n, cores);
    if (name == "ffma_chain") return ffma_chain(n, cores);
    if (name == "imad_fadd") return imad_fadd(n, cores);
    if (name == "sfu_mix") return sfu_mix(n, cores);
    return std::nullopt;
}

}  // namespace

std::unique_ptr<Workload> make_workload(const std::string& name, std::uint64_t n, unsigned cores) {
    if (auto p = find_program(name, n, cores))
        return std::make_unique<ProgramWorkload>(p->name, p->launch, p->body, p->passes);
    if (name == "stream_load") return stream_load(n, cores);
    if (name == "pointer_chase") return pointer_chase(n, cores);
    if (name == "kernel_ffma_ilp4") return kernel_ffma_ilp4(n, cores);
    if (name == "compiled_ffma_ilp4") return compiled_ffma_ilp4(n, cores);
    if (name == "sgemm_1core" || name == "sgemm_chip")
        return library_kernel("sgemm_simd_matrix_tiled", n);
    if (name == "triad_1core" || name == "triad_chip") return library_kernel("stream_triad", n);
    throw std::invalid_argument("no bench workload '" + name + "'");
}

bool write_program_trace(const std::string& name, std::uint64_t n, unsigned cores,
                         TraceWriter& out) {
    const auto p = find_program(name, n, cores);
    if (!p) return false;
    out.begin(p->launch, p->name);
    out.begin_section(0, static_cast<std::uint32_t>(simds_of(p->launch) - 1));
    if (p->passes > UINT32_MAX) throw std::invalid_argument("too many passes for one repeat block");
    out.begin_repeat(static_cast<std::uint32_t>(p->passes));
    for (const Instruction& in : p->body) out.instruction(in);
    out.end_repeat();
    out.end_section();
    out.finish();
    return true;
}

}  // namespace agx::bench
