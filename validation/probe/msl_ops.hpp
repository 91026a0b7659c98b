// Metal-level operation names (the rows of the reference tables, the names
// isa/expansions.cpp expands) as Metal Shading Language expressions: what a
// probe kernel writes so that the Metal compiler emits that operation.
//
// An expression is written over placeholders: $x the chain's live value (the
// result the operation depends on), $y and $z its other operands, $l the
// thread's lane as a value of the live type (a varying value no compiler can
// treat as uniform).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace agx::probe {

// An operation the generator cannot write as Metal: the message names it and why.
class GeneratorError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

enum class OpForm : std::uint8_t {
    // $x = expr($x, $y, $z): the other operands are what the operand shape says.
    Direct,
    // An optimiser folds a chain of this operation over loop-invariant operands
    // (x+y+y+... = x+N*y). The chain keeps two live values instead, and each
    // operation reads the previous result ($x) and the one before ($y), as
    // Fibonacci does: every operation still depends on the one before, and
    // nothing is invariant.
    Rotating,
    // The operation alone would settle (a fixed point, a short cycle, a value
    // that only shrinks or saturates): the chain keeps two live values and
    // combines the operation's result on the newest ($x) with the oldest ($y)
    // by one more instruction (the note names it), a Feistel step: the pair
    // of values goes through a permutation every step, so it cannot settle.
    Feistel,
    // XOR: $x the newest value, $y the value 15 operations back, the
    // recurrence of the primitive trinomial t^15 + t + 1, whose values repeat
    // only after 32767 steps. Any bitwise chain over fewer values repeats
    // within the repetitions (over three, every 7 steps).
    Lfsr,
    // The whole statement (the operation writes through an argument): $x is
    // both its destination and its first source.
    Statement,
};

struct MslOp {
    std::string_view name;  // resolved Metal-level name: "FADD32", "IMUL(16x16=32)"
    std::string_view type;  // MSL type of the live value: "float", "half", "uint", ...
    std::string_view expr;
    OpForm form = OpForm::Direct;
    // Why the expression is more than the operation (a companion instruction
    // that keeps the chain from settling or folding), or why its values stay
    // in range; printed in the kernel's header.
    std::string note = {};
    // The chain's initial values, over $s (the lane's seed plus a constant):
    // where the chain's arithmetic needs them near a point (an elliptic fixed
    // point, a small range). Empty: the type's default (kernel_generator.cpp).
    std::string_view seed = {};
};

// The entry for a resolved name; nullptr if there is none.
const MslOp* find_msl_op(std::string_view name);
// Every entry (for `list` and the tests).
const std::vector<MslOp>& msl_ops();

// The live values of an Lfsr chain: x_n = x_{n-1} ^ x_{n-15}.
constexpr std::uint32_t kLfsrTaps = 15;
// Live values per chain of a rotating form (1 for the others).
std::uint32_t rotation_period(OpForm form);

// Names the ISA catalogue expands but Metal cannot express as such, with the
// reason; `unmappable_reason` is empty for any other name.
std::string unmappable_reason(std::string_view name);

// One term of a body item: a table entry and how many copies (independent
// chains) of it a repetition holds.
struct ResolvedTerm {
    const MslOp* op;
    std::uint32_t count;
};

// Resolves a body item's op name the way validation::expand_operation does: a
// width-less name takes the register width first ("FFMA" at 16 bits is
// FFMA16), then the name as it is, then a mix "IMUL32 + 3 IADD32" term by
// term. Throws GeneratorError naming the operation for anything unmapped.
std::vector<ResolvedTerm> resolve_operation(const std::string& op, std::uint32_t register_bits);

}  // namespace agx::probe
