// The instruction catalogue: every machine instruction agxsim knows, with its
// operand shape, the pipeline that executes it and its timing class.
//
// The catalogue is ISA fact (from applegpu and the Asahi compiler, see
// applegpu's documentation, dougallj/applegpu); how long a timing class takes is machine
// fact and lives in the configs.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace agx::isa {

// The pipeline (functional unit) an instruction issues to.
enum class Unit : std::uint8_t {
    Fp32Int,     // FP32/integer/conditional pipeline: fadd, fmul, fmadd, iadd, cmpsel, bitop, moves
    IntComplex,  // integer and complex-math pipeline, backed by the core's shared SFUs
    Shuffle,     // SIMD shuffle / ballot unit
    LoadStore,   // device memory (asynchronous, wait slots)
    Threadgroup,  // threadgroup memory (fixed latency, no wait slot)
    Control,      // wait, barriers, branches: handled by the scheduler itself
};
// How many units there are: arrays indexed by Unit have this size.
inline constexpr std::size_t kUnitCount = static_cast<std::size_t>(Unit::Control) + 1;
inline constexpr std::size_t unit_index(Unit u) {
    return static_cast<std::size_t>(u);
}
// The unit's name (`agxsim isa list`, the profile).
const char* unit_name(Unit u);

// What an operand position accepts.
enum class OperandRole : std::uint8_t { Dst, Src };

// Register width of an operand position, in 16-bit halves:
// 1 = 16-bit (r5l / r5h), 2 = 32-bit (r5), 4 = 64-bit pair (r4_r5).
// `width_halves == 0` means "any width" (moves, memory data registers).
struct OperandSpec {
    OperandRole role = OperandRole::Src;
    std::uint8_t width_halves = 2;
    bool allow_uniform = true;    // sources only
    bool allow_immediate = true;  // sources only
    bool vector = false;          // memory data: 1-4 consecutive registers
    bool optional = false;        // may be left out (only trailing positions are optional)
    bool allow_register = true;   // false: immediate only (wait slot, special-register number)
    // A 32-bit position that also takes a 16-bit register (a compare selecting
    // into a 16-bit boolean, a threadgroup address in rNl). Immediates and
    // generated operands keep the 32-bit width.
    bool accepts_16 = false;
};

enum class MemorySpace : std::uint8_t { None, Device, Threadgroup };

struct InstructionInfo {
    std::string_view mnemonic;  // applegpu-style, e.g. "fmadd32"
    Unit unit;
    std::string_view timing_class;  // key of the config's core.timing table
    std::vector<OperandSpec> operands;
    MemorySpace memory = MemorySpace::None;
    bool is_store = false;           // memory: writes memory
    bool is_async = false;           // names a wait slot (device loads/stores, atomics)
    bool is_wait = false;            // `wait N`
    bool is_barrier = false;         // threadgroup_barrier
    bool is_atomic = false;          // memory read-modify-write (is_store stays false)
    std::uint8_t encoded_bytes = 4;  // typical encoded length (2..12, even)
    // Floating-point operations per active lane, counted as GPU profilers
    // count them (NVIDIA Nsight Compute's flop counts): an add or a multiply
    // 1, a fused multiply-add 2, at 16 or 32 bits; a simd matrix
    // multiply-accumulate is 8x8x8 multiply-adds, 1,024 operations, 32 per
    // lane. Compare-selects, min/max, reductions, conversions and the
    // special functions count none.
    std::uint8_t flops_per_lane = 0;
    bool flops_fp16 = false;   // its flops are 16-bit (FP16 against FP32)
    std::string_view summary;  // one line for `agxsim isa list`
};

using Opcode = std::uint16_t;

class Catalogue {
  public:
    static const Catalogue& instance();

    std::optional<Opcode> find(std::string_view mnemonic) const;
    const InstructionInfo& info(Opcode op) const { return entries_[op]; }
    std::size_t size() const { return entries_.size(); }
    const std::vector<InstructionInfo>& entries() const { return entries_; }

    // Every distinct timing class named by an entry; a config must time each.
    std::vector<std::string_view> timing_classes() const;

  private:
    Catalogue();
    std::vector<InstructionInfo> entries_;
};

// A Metal-level operation that compiles to several machine instructions
// (metal-benchmarks' "Actual Instructions" tables, philipturner/metal-benchmarks
// on GitHub). Steps are in program order; `depends_on_previous` marks a step
// that consumes the previous step's result.
struct ExpansionStep {
    std::string_view mnemonic;
    bool depends_on_previous = true;
};

struct Expansion {
    std::string_view metal_name;  // e.g. "DIV32", "IADD64"
    std::vector<ExpansionStep> steps;
    std::string_view source;  // where the expansion is documented
};

const std::vector<Expansion>& expansions();

// The tables' notation for equivalent alternatives, "FADD/FFMA/IADD16" ("any
// of these, measured alike"): the first alternative, at the width written on
// the last one ("FADD16"). Empty when `term` is not such a list.
std::string first_alternative(std::string_view term);
// A row name of the mixed transcendental table, "Fast EXP2_32 + FMUL32": the
// sequence compiled with fast math, Metal's default, whose forms are the other
// tables' plain names (the precise forms are named "Precise"). The name with
// surrounding spaces and that prefix removed.
std::string_view without_fast_math(std::string_view name);
const Expansion* find_expansion(std::string_view metal_name);

// Turns any metal-benchmarks row name into machine instructions: an exact
// expansion name ("DIV32"), or a mix of terms joined by " + " where each term
// may carry a count ("IMUL32 + 3 IADD32"). The terms form one dependent
// chain, each taking the previous one's result (metal-benchmarks README: at
// ILP 1 every operation depends on the previous one; "BITWISE32 + ADD32"
// latency 6.44 is both in a row). Empty when some term is unknown.
std::optional<std::vector<ExpansionStep>> expand_metal(std::string_view name);

}  // namespace agx::isa
