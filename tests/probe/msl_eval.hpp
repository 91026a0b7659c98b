// An evaluator for the Metal Shading Language the probe's generator writes:
// the declarations and repeated statements of a generated kernel, run on the
// host for the 32 lanes of one simdgroup at once (so simd_* and quad_*
// functions see their neighbours), with the seeds the Metal backend uploads.
// It exists to check the chains' arithmetic (periods, ranges), not to be a
// Metal implementation: it knows the expressions msl_ops.cpp uses and throws
// Unsupported for anything else (simdgroup matrices among them).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace msl_eval {

constexpr int kLanes = 32;

class Unsupported : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

enum class Type : std::uint8_t {
    Bool,
    I32,
    U16,
    U32,
    I64,
    U64,
    F16,
    F32,
    F32x2,
    SimdVote,
    QuadVote
};
bool is_integer(Type t);
bool is_float(Type t);
Type type_named(const std::string& name);  // "uint", "half", ...; throws Unsupported

// One lane's value: integers in `bits` (masked to their width), floats in `f`
// (a half rounded to half precision), float2 in f and f2.
struct Value {
    Type type = Type::U32;
    std::uint64_t bits = 0;
    double f = 0, f2 = 0;
    bool operator==(const Value& o) const;
};
using Lanes = std::array<Value, kLanes>;

struct Node;
using Expr = std::shared_ptr<const Node>;
Expr parse(const std::string& text);  // throws Unsupported

// A generated kernel, read back from its source.
struct Program {
    struct Statement {
        std::string target;  // the variable assigned
        Expr value;
        std::string text;
    };
    std::vector<Statement> declarations;  // in order: `T name = expr;`
    std::map<std::string, Type> types;    // every declared variable
    std::vector<Statement> loop_body;     // inside `for (...; i < p.loops; ...)`
    std::vector<Statement> straight;      // after the loop
};
Program read_program(const std::string& kernel_source);  // throws Unsupported

// The state of a run: every variable's 32 lanes.
class Machine {
  public:
    // `seeds`: the words the backend uploads, one per lane; `loops` and
    // `uniform` the agx_params a dispatch passes.
    Machine(const Program& program, const std::array<std::uint32_t, kLanes>& seeds,
            std::uint32_t loops, std::uint32_t uniform);
    // Runs the declarations, calls `seeded`, then runs the repeated code (the
    // loop `loops` times, then the straight code), calling `after` following
    // every statement.
    void run(const std::function<void(const Program::Statement&)>& after,
             const std::function<void()>& seeded = {});
    const Lanes& value(const std::string& name) const;

  private:
    Lanes eval(const Node& n) const;
    void execute(const Program::Statement& s);
    const Program& program_;
    std::map<std::string, Lanes> vars_;
    std::uint32_t loops_;
};

}  // namespace msl_eval
