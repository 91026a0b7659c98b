// A benchmark definition: the one description of a microbenchmark that the
// simulator turns into a trace and the Metal probe turns into a kernel.
//
// Modelled on Philip Turner's metal-benchmarks (validation/data/metal-benchmarks/):
// every thread repeats a body of Metal-level operations `repetitions` times in
// `ilp` independent dependency chains, on `simds_per_core` resident simds; the
// figure is cycles per body per scheduler: total cycles x schedulers /
// (repetitions x ilp x simds_per_core).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "isa/catalogue.hpp"
#include "validation/lib/memory_benchmark.hpp"

namespace agx::validation {

struct BodyItem {
    std::string op;  // Metal-level name from the reference tables: "FADD32", "IMUL(32x32=64)",
                     // "QUAD_SUM<F32>"
    std::uint32_t count = 1;
};

// How an operation's other sources relate to its chain's live value.
enum class OperandShape : std::uint8_t {
    Distinct,   // x = x * y + z: y, z are other registers (constants shared by the chains)
    SelfReuse,  // x = x * x + 1: every register source is the live value, the last source an
                // immediate
    // ilp_occupancy.csv's kernel (metal-benchmarks' instruction/register-cache
    // benchmark): six 4-wide vectors, 24 scalar operations per group, each
    // reading its own component and a recently written one, in a dependency
    // pattern that gives the ILP; `ilp` selects the pattern (1-4), not copies.
    Vec4Groups,
};
const char* operand_shape_name(OperandShape s);

struct BenchmarkDefinition {
    std::string name;  // unique within a file, e.g. "float_instructions/FADD32/throughput"
    std::vector<BodyItem> body;  // empty: the control group (only the kernel's own cost)
    std::uint32_t ilp = 1;
    std::uint32_t simds_per_core = 4;
    std::uint32_t register_bits = 32;  // 16 or 32: width of the live values
    std::uint32_t repetitions = 1440;
    // Repetitions per copy of the code: the kernel is a loop of `unroll`
    // unrolled repetitions (the tables' "optimal repetitions"), run until
    // `repetitions` are done. The code size follows `unroll`. 0: fully unrolled.
    std::uint32_t unroll = 0;
    OperandShape operand_shape = OperandShape::Distinct;
    // The kernel's own fixed cost in cycles outside the repeated body (launch,
    // argument loads, completion), as the control group measures it. Each
    // threadgroup pays it from its launch: latency that the work of the other
    // resident threadgroups can hide.
    double overhead_cycles = 0.0;
    // The launch as the measuring kernel made it: `resident_threadgroups`
    // threadgroups per core (simds_per_core / resident_threadgroups simds
    // each; 0: as few threadgroups as hold simds_per_core), relaunched
    // `waves` times, each new one as an earlier one finishes. The figure
    // covers every wave.
    std::uint32_t resident_threadgroups = 0;
    std::uint32_t waves = 1;
    // Total: the whole kernel's cycles (overhead included) per body per
    // scheduler. Steady: the rate at saturation, the difference between runs
    // of 2N and N repetitions, so fixed costs and warm-up cancel (the
    // throughput figures, measured over ~250 waves that hide the fixed cost).
    enum class Method : std::uint8_t { Total, Steady } method = Method::Total;
    // Present: a memory benchmark (memory_benchmark.hpp), which the simulator
    // expands with MemoryWorkload; the body is then ignored.
    std::optional<MemoryBenchmark> memory;

    // The body as the reference tables name it: "IMUL32 + 3 IADD32".
    std::string body_label() const;
    // Bodies executed per repetition: `ilp` interleaved copies, except for
    // the vec4 shape whose repetition is one scalar operation.
    std::uint32_t bodies_per_repetition() const {
        return operand_shape == OperandShape::Vec4Groups ? 1 : ilp;
    }
};

nlohmann::json to_json(const BenchmarkDefinition& b);
// Throws InputError(where + key, reason) on a malformed definition (an
// operation the ISA catalogue cannot expand is not malformed: see
// unsupported_reason).
BenchmarkDefinition benchmark_from_json(const nlohmann::json& j, const std::string& where);

// The machine-instruction steps of one Metal-level operation at a register
// width: a name of the reference tables ("DIV32", "IMUL32 + 3 IADD32"), or a
// width-less name completed by the width ("FADD" + 16 -> FADD16). Throws
// InputError(where, ...) for a name the ISA catalogue cannot expand.
std::vector<isa::ExpansionStep> expand_operation(const std::string& op, std::uint32_t register_bits,
                                                 const std::string& where);

// Why the model cannot simulate a definition ("unsupported: no expansion for
// 'X'"), or "" when it can. Reading a definition does not require its
// operations to be known: `validate` lists such rows instead of refusing the
// file (unless --strict).
std::string unsupported_reason(const BenchmarkDefinition& def);

}  // namespace agx::validation
