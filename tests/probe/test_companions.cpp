// Companions: the instructions a table entry's expression adds to its
// operation to keep the chain from settling or folding. Each entry names
// them in the reference tables' names, those names are the ones the
// expression's text implies, and the simulator expands them, so that a
// record's body is what its kernel ran.
#include <catch2/catch.hpp>

#include <regex>

#include "sim/common/errors.hpp"
#include "validation/lib/benchmark.hpp"
#include "validation/probe/msl_ops.hpp"

using namespace agx::probe;

namespace {

std::uint32_t bits_of(const MslOp& op) {
    return op.type == "half" || op.type == "ushort" || op.type == "simdgroup_half8x8" ? 16 : 32;
}

bool is_float(const MslOp& op) {
    return op.type == "half" || op.type == "float";
}

// The companion the expression's text implies, read independently of the
// table's own field: what surrounds the operation on the chain.
std::string implied_companion(const MslOp& op) {
    const std::string e(op.expr);
    const std::string w = std::to_string(bits_of(op));
    std::vector<std::string> parts;
    // A value's mantissa kept as one in [1, 2): a mask and an or, or a shift and an or.
    if (e.find(" & 0x") != std::string::npos && e.find(" | 0x") != std::string::npos)
        parts.push_back("2 BITWISE32");
    else if (e.find(" << ") != std::string::npos && e.find(" | 0x") != std::string::npos)
        parts.push_back("LSHIFT32 + BITWISE32");
    // An add inside the function, before the operation: rint(x + y), fract(x + c).
    if (std::regex_search(e, std::regex(R"(^[\w:]+\(\$x \+ )"))) parts.push_back("FADD32");
    // An integer added to a float's bits (a nudge by units in the last place).
    if (e.find(" + as_type<int>($y))") != std::string::npos) parts.push_back("IADD32");
    // A 64-bit value's two words folded into one.
    if (e.find("uint($x) ^ uint($x >> 32)") != std::string::npos) parts.push_back("BITWISE32");
    if (e.find("uint($x) + uint($x >> 32)") != std::string::npos) parts.push_back("IADD32");
    // The result combined with the older value (or the lane) after the operation.
    std::smatch m;
    if (std::regex_search(e, std::regex(R"(^fma\(.*, -\$y\)$)"))) {
        parts.push_back("FFMA" + w);
    } else if (std::regex_match(e, m, std::regex(R"(^(.*\S) ([-+^*]) \$(y|l)$)")) &&
               m[1].str() != "$x") {
        const char c = m[2].str()[0];
        if (c == '^')
            parts.push_back(op.type == "ulong" ? "2 BITWISE32" : "BITWISE32");
        else if (c == '*')
            parts.push_back("IMUL" + w);
        else
            parts.push_back((is_float(op) ? "FADD" : "IADD") + w);
    }
    std::string out;
    for (const auto& p : parts) out += (out.empty() ? "" : " + ") + p;
    return out;
}

}  // namespace

TEST_CASE("companions: each entry names what its expression adds, as the text implies") {
    std::size_t with = 0;
    for (const auto& op : msl_ops()) {
        INFO(op.name << ": " << op.expr);
        CHECK(std::string(op.companion) == implied_companion(op));
        if (!op.companion.empty()) {
            ++with;
            // The note says why the companion is there.
            CHECK_FALSE(op.note.empty());
        }
    }
    CHECK(with > 80);
}

TEST_CASE("companions: every companion is a name the simulator expands at the chain's width") {
    for (const auto& op : msl_ops()) {
        INFO(op.name);
        const auto list = companions(op);
        CHECK(list.empty() == op.companion.empty());
        for (const auto& c : list) {
            INFO(c.op);
            CHECK(c.count >= 1);
            CHECK_NOTHROW(agx::validation::expand_operation(c.op, bits_of(op), "test"));
        }
    }
    const auto* prefix = find_msl_op("PREFIX_ESUM<F32>");
    REQUIRE(prefix);
    const auto list = companions(*prefix);
    REQUIRE(list.size() == 2);
    CHECK(list[0].op == "BITWISE32");
    CHECK(list[0].count == 2);
    CHECK(list[1].op == "FADD32");
    CHECK(list[1].count == 1);
}

TEST_CASE("companions: a body is recorded as one chain of the operation and its companions") {
    CHECK(with_companions("FMAX32", 32) == "FMAX32 + FADD32");
    CHECK(with_companions("FMAX", 16) == "FMAX16 + FADD16");  // the width-less name, resolved
    CHECK(with_companions("PREFIX_ESUM<F32>", 32) == "PREFIX_ESUM<F32> + 2 BITWISE32 + FADD32");
    CHECK(with_companions("IMULHI64", 32) == "IMULHI64 + 2 BITWISE32");
    CHECK(with_companions("IMUL32 + BITREV32", 32) == "IMUL32 + BITREV32 + IADD32");
    CHECK(with_companions("3 RINT32 + IMUL32", 32) == "3 RINT32 + 3 FADD32 + IMUL32");
    // No companion anywhere: the operation as it was written.
    CHECK(with_companions("FADD32", 32) == "FADD32");
    CHECK(with_companions("FFMA", 16) == "FFMA");
    CHECK(with_companions("IMUL32 + 3 IADD32", 32) == "IMUL32 + 3 IADD32");
    CHECK_THROWS_AS(with_companions("SIN_PT_1", 32), GeneratorError);

    // Every entry's recorded operation expands to its own steps and then its
    // companions', each depending on the one before.
    for (const auto& op : msl_ops()) {
        INFO(op.name);
        const std::uint32_t bits = bits_of(op);
        const std::string recorded = with_companions(std::string(op.name), bits);
        if (op.companion.empty()) {
            CHECK(recorded == op.name);
            continue;
        }
        std::vector<agx::isa::ExpansionStep> steps;
        REQUIRE_NOTHROW(steps = agx::validation::expand_operation(recorded, bits, "test"));
        std::size_t expected =
            agx::validation::expand_operation(std::string(op.name), bits, "test").size();
        for (const auto& c : companions(op))
            expected += c.count * agx::validation::expand_operation(c.op, bits, "test").size();
        CHECK(steps.size() == expected);
        const std::size_t own =
            agx::validation::expand_operation(std::string(op.name), bits, "t").size();
        CHECK(steps.at(own).depends_on_previous);
    }
}
