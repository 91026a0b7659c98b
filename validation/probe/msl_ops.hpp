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
    // What the expression runs besides the operation, on the same dependent
    // chain, as the reference tables name it: a mix of names that
    // validation::expand_operation expands ("FADD32", "2 BITWISE32 + FADD32";
    // companions() reads it). The note says why. Empty: the expression is the
    // operation alone (loop-invariant operands, such as a masked shift
    // amount, are computed once, outside the chain).
    std::string_view companion = {};
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

// One instruction a table entry's expression adds to its operation, and how
// many of it each operation brings.
struct Companion {
    std::string op;  // a name of the reference tables: "FADD32", "IADD16", "BITWISE32"
    std::uint32_t count = 1;
};
// The entry's companion, term by term; empty when it has none.
std::vector<Companion> companions(const MslOp& op);

// A body item's operation as the kernel runs it: each term followed by its
// table entry's companions, as one mix ("FMAX32" -> "FMAX32 + FADD32",
// "3 RINT32" -> "3 RINT32 + 3 FADD32"), which the simulator expands as one
// dependent chain, as the kernel computes it. A term is written by its
// resolved name (width included) once any term has a companion; an
// operation with no companion anywhere comes back unchanged. Throws
// GeneratorError as resolve_operation does.
std::string with_companions(const std::string& op, std::uint32_t register_bits);

// Resolves a body item's op name the way validation::expand_operation does: a
// width-less name takes the register width first ("FFMA" at 16 bits is
// FFMA16), then the name as it is, then a mix "IMUL32 + 3 IADD32" term by
// term. Throws GeneratorError naming the operation for anything unmapped.
std::vector<ResolvedTerm> resolve_operation(const std::string& op, std::uint32_t register_bits);

}  // namespace agx::probe
