#include "validation/probe/kernel_generator.hpp"

#include <algorithm>
#include <set>
#include <sstream>
#include <vector>

#include "validation/lib/vec4_groups.hpp"
#include "validation/probe/msl_ops.hpp"

namespace agx::probe {

using validation::BenchmarkDefinition;
using validation::OperandShape;
using validation::vec4_group;

namespace {

// How a value of each live type is seeded, written as an immediate, and
// folded into the output word.
struct TypeInfo {
    std::string_view name, tag, immediate, init, sink;  // init over $s, sink over $v
};

// The immediate of the x*x+1 shape is 1.5 (3 for integers): with 1, x*1 and
// x/1 would fold away.
//
// Seeds, over $s (the lane's seed word plus a constant): integers odd and
// spread over the whole range (a product of odd values never reaches 0, and
// the high half of a product is not always 0); floats a little above 1, so
// the x*y+z chains neither overflow nor underflow within the repetitions
// (halves at 1 + 1/1024 or 1 + 2/1024, the smallest steps that still change
// a product). An operation can ask for others (MslOp::seed).
const TypeInfo kTypes[] = {
    {"float", "f", "1.5f", "1.0f + float($s) * 0.000244140625f", "as_type<uint>($v)"},
    {"half", "h", "half(1.5f)", "half(1.0f + float(($s) & 1u) * 0.0009765625f + 0.0009765625f)",
     "uint(as_type<ushort>($v))"},
    {"uint", "u", "3u", "($s) * 0x9E3779B1u | 1u", "$v"},
    {"ushort", "s", "ushort(3)", "ushort(($s) * 0x9E3779B1u | 1u)", "uint($v)"},
    {"ulong", "ul", "3ul", "ulong(($s) * 0x85EBCA77u) << 32 | ulong(($s) * 0x9E3779B1u | 1u)",
     "uint($v) ^ uint($v >> 32)"},
    {"simdgroup_half8x8", "mh", "make_filled_simdgroup_matrix<half, 8, 8>(half(1.5f))",
     "make_filled_simdgroup_matrix<half, 8, 8>(half($s))",
     "uint(as_type<ushort>($v.thread_elements()[0]))"},
    {"simdgroup_float8x8", "mf", "make_filled_simdgroup_matrix<float, 8, 8>(1.5f)",
     "make_filled_simdgroup_matrix<float, 8, 8>(float($s))",
     "as_type<uint>($v.thread_elements()[0])"},
};

const TypeInfo& type_info(std::string_view type) {
    for (const auto& t : kTypes)
        if (t.name == type) return t;
    throw GeneratorError("the probe has no seed/sink rule for the MSL type '" + std::string(type) +
                         "'");
}

std::string replace_all(std::string s, std::string_view from, const std::string& to) {
    for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
        s.replace(at, from.size(), to);
    return s;
}

bool uses(std::string_view expr, std::string_view placeholder) {
    return expr.find(placeholder) != std::string_view::npos;
}

struct Operands {
    std::string x, y, z;
};

// Where the code's repetitions go: a loop of `unroll` and a tail, or straight-line.
struct Layout {
    std::uint32_t unroll, loops, tail;
};

Layout layout_of(std::uint32_t units, std::uint32_t unroll_units) {
    if (unroll_units == 0 || unroll_units >= units || units / unroll_units <= 1)
        return {units, 0, 0};
    return {unroll_units, units / unroll_units, units % unroll_units};
}

// A rotating chain's period: at least the form's, and dividing the loop's
// unroll so every iteration starts with the newest value in the same variable
// (a longer period folds no more easily).
std::uint32_t period_in(const Layout& l, OpForm form) {
    const std::uint32_t least = rotation_period(form);
    // The trinomial's recurrence needs exactly its 15 values.
    if (form == OpForm::Lfsr) return least;
    if (least == 1 || l.loops == 0 || l.unroll % least == 0) return least;
    for (std::uint32_t p = least + 1; p <= 8; ++p)
        if (l.unroll % p == 0) return p;
    return least;  // the loop's back edge then moves the values: a few moves per iteration
}

// Declarations, collected as the body first names them.
class Declarations {
  public:
    // A value of `type` seeded from the lane's seed (by `seed` over $s, or
    // the type's rule when empty); returns its name.
    std::string value(const std::string& name, std::string_view type, std::string_view seed = {}) {
        if (names_.insert(name).second) {
            const std::string s = "s + " + std::to_string(++seeds_) + "u";
            const std::string init(seed.empty() ? type_info(type).init : seed);
            lines_.push_back("    " + std::string(type) + " " + name + " = " +
                             replace_all(init, "$s", s) + ";");
        }
        return name;
    }
    // A constant of `type` with a given initialiser.
    std::string constant(const std::string& name, std::string_view type, const std::string& init) {
        if (names_.insert(name).second)
            lines_.push_back("    const " + std::string(type) + " " + name + " = " + init + ";");
        return name;
    }
    const std::vector<std::string>& lines() const { return lines_; }

  private:
    std::set<std::string> names_;
    std::vector<std::string> lines_;
    unsigned seeds_ = 0;
};

std::string statement(const MslOp& op, const std::string& dst, const Operands& o,
                      Declarations& decl) {
    const TypeInfo& t = type_info(op.type);
    std::string e(op.expr);
    e = replace_all(e, "$x", o.x);
    e = replace_all(e, "$y", o.y);
    e = replace_all(e, "$z", o.z);
    if (uses(e, "$l"))
        e = replace_all(
            e, "$l",
            decl.constant("l_" + std::string(t.tag), t.name, std::string(t.name) + "(lane)"));
    if (uses(e, "$u")) e = replace_all(e, "$u", decl.constant("u", "uint", "p.uniform"));
    return op.form == OpForm::Statement ? e + ";" : dst + " = " + e + ";";
}

// The operation's line in the kernel's header: what each step computes and
// why the compiler cannot fold the chain.
std::string describe(const MslOp& op, std::uint32_t period) {
    std::string e(op.expr);
    for (auto [from, to] :
         {std::pair{"$x", "x"}, {"$y", "y"}, {"$z", "z"}, {"$l", "lane"}, {"$u", "u"}})
        e = replace_all(e, from, to);
    std::string s = "//   " + std::string(op.name) + " (" + std::string(op.type) +
                    "): " + (op.form == OpForm::Statement ? e : "x = " + e);
    const std::string n = std::to_string(period);
    switch (op.form) {
        case OpForm::Rotating:
            s += "; each chain rotates through " + n +
                 " values (x the newest, y the oldest), as a chain over an invariant y would "
                 "fold (x+y+y = x+2y)";
            break;
        case OpForm::Feistel:
            s += "; each chain rotates through " + n +
                 " values (x the newest, y the oldest): the values go through a permutation "
                 "every step, so the chain cannot settle on a fixed point or a short cycle";
            break;
        case OpForm::Lfsr:
            s += "; each chain rotates through " + n +
                 " values, y the value 15 steps back: x_n = x_{n-1} ^ x_{n-15}, the recurrence "
                 "of the primitive trinomial t^15 + t + 1, repeats only after 32767 steps and "
                 "no xor meets its own operands again (a^b^a = b); over fewer values a xor chain "
                 "repeats within the repetitions (over three, every 7 steps)";
            break;
        default:
            s += "; each operation reads the one before, and the other operands are seeded at "
                 "run time, so the compiler knows none of the values";
            break;
    }
    if (!op.note.empty()) s += "; " + op.note;
    return s + "\n";
}

std::string layout_text(std::uint32_t units, std::uint32_t unroll, const Layout& l,
                        const char* unit) {
    std::string s = std::to_string(units) + " " + unit;
    if (l.loops == 0 && unroll && unroll < units)
        return s + ", fully unrolled (an unroll of " + std::to_string(unroll) +
               " leaves a single loop iteration)";
    if (l.loops == 0) return s + ", fully unrolled";
    s += ": a loop of " + std::to_string(l.loops) + " x " + std::to_string(l.unroll) + " unrolled";
    if (l.tail) s += ", then " + std::to_string(l.tail) + " more";
    return s;
}

// The parts every kernel shares, around its declarations and repeated body.
std::string assemble(const BenchmarkDefinition& def, const std::string& header,
                     const Declarations& decl, const std::vector<std::string>& loop_body,
                     const std::vector<std::string>& straight, const Layout& l,
                     const std::vector<std::string>& sinks) {
    std::ostringstream o;
    o << "// agxsim-probe kernel: " << def.name << "\n" << header;
    o << "// Compiled with fast math by default, as the reference tables were measured (a "
         "function without fast:: or precise:: is the fast one), or with --precise in math mode "
         "safe with the precise float functions (no float operation reassociated or "
         "contracted); the file's probe.device.compile_options says which. A chain the compiler "
         "shortens comes out below one cycle per body and is recorded as not measured.\n";
    o << "#include <metal_stdlib>\nusing namespace metal;\n\n";
    o << "struct agx_params {\n"
         "    uint loops;         // iterations of the unrolled loop\n"
         "    uint active_simds;  // simds of a threadgroup that run the body; the others exit\n"
         "    uint uniform;       // the same for every thread, unknown to the compiler\n"
         "};\n\n";
    o << "kernel void " << kKernelEntry << "(device const uint* seeds [[buffer(0)]],\n"
      << "                      device uint* out [[buffer(1)]],\n"
      << "                      constant agx_params& p [[buffer(2)]],\n"
      << "                      threadgroup uint* occupancy [[threadgroup(0)]],\n"
      << "                      uint gid [[thread_position_in_grid]],\n"
      << "                      ushort simd [[simdgroup_index_in_threadgroup]],\n"
      << "                      ushort lane [[thread_index_in_simdgroup]]) {\n";
    o << "    if (simd >= p.active_simds) return;\n";
    o << "    uint s = seeds[lane];\n";
    o << "    // Never taken (the seeds are non-zero): keeps the threadgroup memory, which\n"
         "    // sets the occupancy, in use.\n";
    o << "    if (s == 0u) s = occupancy[lane];\n";
    for (const auto& line : decl.lines()) o << line << "\n";
    if (l.loops) {
        o << "    for (uint i = 0; i < p.loops; ++i) {\n";
        for (const auto& line : loop_body) o << "        " << line << "\n";
        o << "    }\n";
    }
    for (const auto& line : straight) o << "    " << line << "\n";
    o << "    uint sink = s;\n";
    for (const auto& s : sinks) o << "    sink ^= " << s << ";\n";
    o << "    out[gid & " << (kOutWords - 1) << "u] = sink;\n";
    o << "}\n";
    return o.str();
}

std::string sink_of(std::string_view type, const std::string& v) {
    return replace_all(std::string(type_info(type).sink), "$v", v);
}

// --- chains: `ilp` copies of every term instance ------------------------------

struct Instance {
    const MslOp* op;
    std::uint32_t index;
};

Kernel chains_kernel(const BenchmarkDefinition& def, std::uint32_t repetitions) {
    std::vector<Instance> instances;
    for (const auto& item : def.body)
        for (const auto& term : resolve_operation(item.op, def.register_bits))
            for (std::uint32_t n = 0; n < item.count * term.count; ++n)
                instances.push_back({term.op, static_cast<std::uint32_t>(instances.size())});

    // The control group (an empty body) is the kernel's own cost: no loop.
    const Layout l =
        instances.empty()
            ? Layout{repetitions, 0, 0}
            : layout_of(repetitions, def.unroll ? std::min(def.unroll, repetitions) : 0);
    Declarations decl;
    std::vector<std::string> sinks;
    Kernel k;

    // Live values first, so their seeds do not depend on the body's order.
    auto var = [](const Instance& in, std::uint32_t c) {
        return "x" + std::to_string(in.index) + "_" + std::to_string(c);
    };
    auto rot = [&](const Instance& in, std::uint32_t c, std::uint32_t j) {
        return var(in, c) + static_cast<char>('a' + j);
    };
    for (const auto& in : instances)
        for (std::uint32_t c = 0; c < def.ilp; ++c) {
            const std::uint32_t n = period_in(l, in.op->form);
            for (std::uint32_t j = 0; j < n; ++j) {
                const std::string name = n == 1 ? var(in, c) : rot(in, c, j);
                decl.value(name, in.op->type, in.op->seed);
                sinks.push_back(sink_of(in.op->type, name));
                ++k.live_values;
            }
        }

    auto one_repetition = [&](std::uint32_t r, std::vector<std::string>& out) {
        for (std::uint32_t c = 0; c < def.ilp; ++c)
            for (const auto& in : instances) {
                const MslOp& op = *in.op;
                const TypeInfo& t = type_info(op.type);
                const std::uint32_t period = period_in(l, op.form);
                const bool rotating = period > 1;
                const std::string dst = rotating ? rot(in, c, r % period) : var(in, c);
                Operands o;
                o.x = rotating ? rot(in, c, (r + period - 1) % period) : dst;
                if (def.operand_shape == OperandShape::SelfReuse) {
                    // x*x+1: every register source is the live value, the last an immediate.
                    const bool has_z = uses(op.expr, "$z");
                    o.y = rotating ? dst : has_z ? o.x : std::string(t.immediate);
                    o.z = std::string(t.immediate);
                } else {
                    // x*y+z: constants shared by the chains.
                    o.y = rotating              ? dst
                          : uses(op.expr, "$y") ? decl.value("y_" + std::string(t.tag), op.type)
                                                : "";
                    o.z = uses(op.expr, "$z") ? decl.value("z_" + std::string(t.tag), op.type) : "";
                }
                out.push_back(statement(op, dst, o, decl));
            }
    };
    std::vector<std::string> loop_body, straight;
    for (std::uint32_t r = 0; r < (l.loops ? l.unroll : 0); ++r) one_repetition(r, loop_body);
    for (std::uint32_t r = 0; r < (l.loops ? l.tail : instances.empty() ? 0 : repetitions); ++r)
        one_repetition(r, straight);

    std::ostringstream h;
    h << "// body " << def.body_label() << "; ilp " << def.ilp << "; " << def.simds_per_core
      << " simds per core; " << def.register_bits << "-bit registers; operand shape "
      << operand_shape_name(def.operand_shape) << "\n";
    h << "// " << layout_text(repetitions, instances.empty() ? 0 : def.unroll, l, "repetitions")
      << "\n";
    if (def.operand_shape == OperandShape::SelfReuse)
        h << "// x*x+1: every register source is the chain's value, the last one an immediate: "
             "1.5 (3 for integers), as x*1 would fold away\n";
    std::vector<const MslOp*> described;
    for (const auto& in : instances)
        if (std::find(described.begin(), described.end(), in.op) == described.end()) {
            described.push_back(in.op);
            h << describe(*in.op, period_in(l, in.op->form));
        }

    k.def = def;
    k.repetitions = repetitions;
    k.unroll = l.unroll;
    k.loops = l.loops;
    k.tail = l.tail;
    k.source = assemble(def, h.str(), decl, loop_body, straight, l, sinks);
    return k;
}

// --- the ilp_occupancy kernel: groups over six 4-wide vectors -------------------

Kernel vec4_kernel(const BenchmarkDefinition& def, std::uint32_t repetitions) {
    if (def.body.size() != 1 || def.body[0].count != 1)
        throw GeneratorError(def.name + ": the vec4_groups shape takes a body of one operation");
    const auto terms = resolve_operation(def.body[0].op, def.register_bits);
    if (terms.size() != 1 || terms[0].count != 1)
        throw GeneratorError(def.name +
                             ": the vec4_groups shape takes a single operation, not a mix");
    const MslOp& op = *terms[0].op;
    const auto group = vec4_group(def.ilp);
    const auto per = static_cast<std::uint32_t>(group.size());
    // One repetition of the definition is one scalar operation; ours is a group.
    const std::uint32_t groups = (repetitions + per - 1) / per;
    const std::uint32_t unroll =
        def.unroll ? std::max<std::uint32_t>(1, (std::min(def.unroll, repetitions) + per - 1) / per)
                   : 0;
    const Layout l = layout_of(groups, unroll);

    Declarations decl;
    std::vector<std::string> sinks;
    auto name = [](int i) { return "v" + std::to_string(i / 4) + "xyzw"[i % 4]; };
    for (int i = 0; i < 24; ++i) {
        decl.value(name(i), op.type, op.seed);
        sinks.push_back(sink_of(op.type, name(i)));
    }
    auto one_group = [&](std::vector<std::string>& out) {
        for (const auto& [own, other] : group) {
            // A three-source operation reads the component after `other`.
            const int third = (other / 4) * 4 + (other + 1) % 4;
            out.push_back(statement(op, name(own), {name(own), name(other), name(third)}, decl));
        }
    };
    std::vector<std::string> loop_body, straight;
    if (l.loops)
        for (std::uint32_t g = 0; g < l.unroll; ++g) one_group(loop_body);
    for (std::uint32_t g = 0; g < (l.loops ? l.tail : groups); ++g) one_group(straight);

    std::ostringstream h;
    h << "// body " << def.body_label() << "; " << def.simds_per_core << " simds per core; "
      << def.register_bits << "-bit registers; operand shape vec4_groups (pattern for ILP "
      << def.ilp
      << "): six 4-wide vectors, each operation reading its own value and a recently written "
         "one: 24 values that depend on one another, none invariant\n";
    h << "// " << layout_text(groups, unroll, l, "groups of 24 operations") << " (" << repetitions
      << " operations)\n";
    std::string e(op.expr);
    h << "//   " << op.name << " (" << op.type << "): own = "
      << replace_all(replace_all(replace_all(e, "$x", "own"), "$y", "other"), "$z", "next of other")
      << "\n";

    Kernel k;
    k.def = def;
    k.repetitions = repetitions;
    k.unroll = l.unroll * per;
    k.loops = l.loops;
    k.tail = l.tail * per;
    k.live_values = 24;
    k.source = assemble(def, h.str(), decl, loop_body, straight, l, sinks);
    return k;
}

}  // namespace

std::array<std::uint32_t, kSeedWords> seed_words() {
    std::array<std::uint32_t, kSeedWords> seeds{};
    for (std::uint32_t i = 0; i < kSeedWords; ++i) seeds[i] = 1 + (i * 7 + 3) % kSeedWords;
    return seeds;
}

Kernel generate_kernel(const BenchmarkDefinition& def, std::uint32_t repetitions) {
    if (repetitions == 0)
        throw GeneratorError(def.name + ": a kernel needs at least one repetition");
    if (def.memory)
        throw GeneratorError(def.name + ": memory benchmarks (" +
                             validation::memory_kind_name(def.memory->kind) +
                             ") are not generated by the probe yet: it writes ALU kernels only");
    try {
        if (def.operand_shape == OperandShape::Vec4Groups) return vec4_kernel(def, repetitions);
        return chains_kernel(def, repetitions);
    } catch (const GeneratorError& e) {
        const std::string what = e.what();
        if (what.rfind(def.name + ":", 0) == 0) throw;
        throw GeneratorError(def.name + ": " + what);
    }
}

}  // namespace agx::probe
