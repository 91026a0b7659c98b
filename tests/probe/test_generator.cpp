// The kernel generator: golden files for representative benchmarks, and the
// properties every kernel must have (chains, unroll, shapes, clear errors).
// AGX_UPDATE_GOLDEN=1 rewrites the golden files from the generator.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <regex>

#include "isa/catalogue.hpp"
#include "probe_test_util.hpp"
#include "validation/probe/kernel_generator.hpp"
#include "validation/probe/msl_ops.hpp"

using namespace agx::probe;
using namespace probe_test;

namespace {

void check_golden(const std::string& file, const BenchmarkDefinition& def,
                  std::uint32_t repetitions = 0) {
    const auto path = std::filesystem::path(AGX_PROBE_TEST_DIR) / "golden" / file;
    const std::string got =
        generate_kernel(def, repetitions ? repetitions : def.repetitions).source;
    if (std::getenv("AGX_UPDATE_GOLDEN")) std::ofstream(path) << got;
    REQUIRE(std::filesystem::exists(path));
    const std::string want = slurp(path);
    INFO("golden file " << path << " (AGX_UPDATE_GOLDEN=1 rewrites it)");
    CHECK(got == want);
}

std::size_t count(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size()))
        ++n;
    return n;
}

}  // namespace

TEST_CASE("golden: FADD32 latency, one dependent chain of 1440 float adds") {
    check_golden("fadd32_latency.metal", latency("FADD32"));
}

TEST_CASE("golden: FFMA32 in the x*x+1 shape") {
    auto d = throughput("FFMA32");
    d.name = "FFMA32/throughput/x*x+1";
    d.operand_shape = OperandShape::SelfReuse;
    check_golden("ffma32_self_reuse_throughput.metal", d);
}

TEST_CASE("golden: IMUL32 + 3 IADD32 throughput, a mix of four chains at ILP 4") {
    check_golden("imul32_3iadd32_throughput.metal", throughput("IMUL32 + 3 IADD32"));
}

TEST_CASE("golden: SUM<F32> throughput through simd_sum") {
    check_golden("sum_f32_throughput.metal", throughput("SUM<F32>"));
}

TEST_CASE("golden: 16-bit FFMA in the ilp_occupancy vec4 shape") {
    auto d = definition("ilp_occupancy/FFMA/ilp2/simds8/16bit", "FFMA", 2, 8, 16, 1440,
                        BenchmarkDefinition::Method::Total, OperandShape::Vec4Groups);
    check_golden("ffma16_vec4_ilp2.metal", d);
}

TEST_CASE("golden: IMUL(64x64=64) latency, a loop of 240 unrolled repetitions") {
    check_golden("imul64_latency_unroll240.metal", latency("IMUL(64x64=64)", 32, 240));
}

TEST_CASE("each chain is updated once per repetition, ILP chains are independent") {
    const auto k = generate_kernel(throughput("FADD32"), 120);
    for (int c = 0; c < 4; ++c) {
        const std::string v = "x0_" + std::to_string(c);
        CHECK(count(k.source, "    " + v + " = " + v + " + y_f;") == 120);
    }
    CHECK(k.loops == 0);
    CHECK(k.unroll == 120);
    CHECK(k.live_values == 4);
    CHECK(k.source.find("float y_f") != std::string::npos);
    CHECK(k.source.find("out[gid & 65535u] = sink;") != std::string::npos);
}

TEST_CASE("the 2N kernel of the steady method has twice the body") {
    const auto def = throughput("FMUL16", 16);
    const auto n = generate_kernel(def, 120), twice = generate_kernel(def, 240);
    CHECK(count(twice.source, "x0_0 = x0_0 * y_h;") == 2 * count(n.source, "x0_0 = x0_0 * y_h;"));
    CHECK(n.source.find(
              "half x0_0 = half(1.0f + float((s + 1u) & 1u) * 0.0009765625f + 0.0009765625f);") !=
          std::string::npos);
}

TEST_CASE("unroll: a loop of `unroll` repetitions, the remainder after it, run-time loop count") {
    auto def = latency("IADD32", 32, 480);
    auto k = generate_kernel(def, 1440);
    CHECK(k.loops == 3);
    CHECK(k.unroll == 480);
    CHECK(k.tail == 0);
    CHECK(k.source.find("for (uint i = 0; i < p.loops; ++i) {") != std::string::npos);
    CHECK(count(k.source, " + x0_0") == 480);  // only the loop body's copy of the code

    def.unroll = 960;  // one iteration and a remainder: straight-line, as large as 1440
    k = generate_kernel(def, 1440);
    CHECK(k.loops == 0);
    CHECK(k.source.find("leaves a single loop iteration") != std::string::npos);

    def.unroll = 400;
    k = generate_kernel(def, 1440);
    CHECK(k.loops == 3);
    CHECK(k.tail == 240);
    CHECK(count(k.source, " + x0_0") == 640);
}

TEST_CASE("integer chains rotate through live values so they cannot be folded") {
    const auto k = generate_kernel(latency("IADD32"), 6);
    // Fibonacci: each add reads the previous result and the one before.
    CHECK(k.source.find("x0_0a = x0_0b + x0_0a;\n    x0_0b = x0_0a + x0_0b;") != std::string::npos);
    CHECK(k.source.find("y_u") == std::string::npos);
    // Odd seeds spread over the range.
    CHECK(k.source.find("uint x0_0a = (s + 1u) * 0x9E3779B1u | 1u;") != std::string::npos);

    // max returns one of its inputs: its result is added to the older value.
    const auto m = generate_kernel(latency("IMAX32"), 4);
    CHECK(m.source.find("x0_0a = max(x0_0b, z_u) + x0_0a;\n    x0_0b = max(x0_0a, z_u) + x0_0b;") !=
          std::string::npos);
    CHECK(m.source.find("one IADD more on the chain") != std::string::npos);

    // xor: fifteen values, x_n = x_{n-1} ^ x_{n-15}.
    const auto x = generate_kernel(latency("BITWISE32"), 16);
    CHECK(x.live_values == 15);
    CHECK(x.source.find("x0_0a = x0_0o ^ x0_0a;\n    x0_0b = x0_0a ^ x0_0b;") != std::string::npos);
    CHECK(x.source.find("x0_0a = x0_0o ^ x0_0a;", x.source.find("x0_0o = x0_0n ^ x0_0o;")) !=
          std::string::npos);
    CHECK(x.source.find("t^15 + t + 1") != std::string::npos);
}

TEST_CASE("function chains keep their values in range: x' = f(x) - y near f's fixed point") {
    const auto e = generate_kernel(latency("EXP2_32"), 2);
    CHECK(e.source.find("x0_0a = fast::exp2(x0_0b) - x0_0a;") != std::string::npos);
    CHECK(e.source.find("float x0_0a = 1.0f + float(s + 1u) * 0.00390625f;") != std::string::npos);
    const auto l = generate_kernel(latency("LOG2_32"), 2);
    CHECK(l.source.find("x0_0a = fma(fast::log2(x0_0b), 4.0f, -x0_0a);") != std::string::npos);
    const auto f = generate_kernel(latency("FRACT32"), 2);
    CHECK(f.source.find("x0_0 = fast::fract(x0_0 + 0.618034f);") != std::string::npos);
}

TEST_CASE("float functions name their variant and Precise rows use precise::") {
    CHECK(generate_kernel(latency("RSQRT32"), 1).source.find("fast::rsqrt(x0_0b)") !=
          std::string::npos);
    CHECK(generate_kernel(latency("Precise RSQRT32"), 1).source.find("precise::rsqrt(x0_0b)") !=
          std::string::npos);
    CHECK(generate_kernel(latency("RSQRT16", 16), 1).source.find("x0_0a = rsqrt(x0_0b)") !=
          std::string::npos);
    CHECK(generate_kernel(latency("RECIP32"), 1).source.find("fast::divide(1.0f, x0_0)") !=
          std::string::npos);
    CHECK(generate_kernel(latency("SIN32"), 1).source.find("fast::sin(x0_0b)") !=
          std::string::npos);
    CHECK(generate_kernel(latency("POPCOUNT32"), 1).source.find("popcount(x0_0b)") !=
          std::string::npos);
    CHECK(generate_kernel(latency("BITREV32"), 1).source.find("reverse_bits(x0_0)") !=
          std::string::npos);
    CHECK(generate_kernel(latency("CLZ32"), 1).source.find("clz(x0_0b)") != std::string::npos);
}

TEST_CASE("SIMD and quad operations map to simd_* and quad_* functions") {
    CHECK(generate_kernel(latency("PREFIX_ESUM<F32>"), 1)
              .source.find("simd_prefix_exclusive_sum(x0_0b)") != std::string::npos);
    CHECK(
        generate_kernel(latency("BROADCAST32"), 1).source.find("simd_broadcast(x0_0, ushort(1))") !=
        std::string::npos);
    CHECK(generate_kernel(latency("QUAD_SUM<I32>"), 1).source.find("quad_sum(x0_0b)") !=
          std::string::npos);
    CHECK(generate_kernel(latency("BALLOT"), 1).source.find("simd_ballot(bool(x0_0b))") !=
          std::string::npos);
    CHECK(generate_kernel(latency("MATMUL<8x8xF16>", 16), 1)
              .source.find("simdgroup_multiply_accumulate(x0_0, x0_0, y_mh, z_mh);") !=
          std::string::npos);
}

TEST_CASE("a width-less name takes the register width, as the simulator's expansion does") {
    auto d = latency("FFMA", 16);
    CHECK(generate_kernel(d, 1).source.find("half x0_0") != std::string::npos);
    d.register_bits = 32;
    CHECK(generate_kernel(d, 1).source.find("float x0_0") != std::string::npos);
}

TEST_CASE("the control group is the kernel's own cost: no body, no loop") {
    auto d = latency("FADD32");
    d.body.clear();
    d.unroll = 120;
    const auto k = generate_kernel(d, 1440);
    CHECK(k.loops == 0);
    CHECK(k.live_values == 0);
    CHECK(k.source.find("for (") == std::string::npos);
    CHECK(k.source.find("uint sink = s;") != std::string::npos);
}

TEST_CASE("an operation Metal cannot express is a clear error naming it") {
    CHECK_THROWS_WITH(generate_kernel(latency("SIN_PT_1"), 1),
                      Catch::Contains("SIN_PT_1") && Catch::Contains("internal step of sin()"));
    CHECK_THROWS_WITH(
        generate_kernel(latency("IMUL32 + BITINTERLEAVE16"), 1),
        Catch::Contains("BITINTERLEAVE16") && Catch::Contains("IMUL32 + BITINTERLEAVE16"));
    CHECK_THROWS_WITH(generate_kernel(latency("NOSUCHOP32"), 1),
                      Catch::Contains("'NOSUCHOP32'") && Catch::Contains("no Metal expression"));
    auto mix = definition("v", "IMUL32 + IADD32", 1, 4, 32, 24, BenchmarkDefinition::Method::Total,
                          OperandShape::Vec4Groups);
    CHECK_THROWS_AS(generate_kernel(mix, 24), GeneratorError);
}

TEST_CASE("every expansion of the ISA catalogue has a Metal expression or a stated reason") {
    std::vector<std::string> missing;
    for (const auto& e : agx::isa::expansions()) {
        const std::string name(e.metal_name);
        if (!unmappable_reason(name).empty()) continue;
        // A width-less name ("FFMA") is completed by the benchmark's width.
        bool mapped = false;
        for (std::uint32_t bits : {16u, 32u}) {
            try {
                resolve_operation(name, bits);
                mapped = true;
            } catch (const GeneratorError&) {
            }
        }
        if (!mapped) missing.push_back(name);
    }
    INFO("without an entry in validation/probe/msl_ops.cpp: " << Catch::Detail::stringify(missing));
    CHECK(missing.empty());
}

TEST_CASE("every table entry's expression uses only known placeholders and types") {
    const std::regex placeholder(R"(\$[a-z])");
    for (const auto& op : msl_ops()) {
        const std::string e(op.expr);
        for (auto it = std::sregex_iterator(e.begin(), e.end(), placeholder);
             it != std::sregex_iterator(); ++it) {
            INFO(op.name << ": " << e);
            CHECK(std::string("$x$y$z$l$u").find(it->str()) != std::string::npos);
        }
        INFO(op.name);
        CHECK(e.find("$x") != std::string::npos);
        auto d = latency(std::string(op.name));
        CHECK_NOTHROW(generate_kernel(d, 3));
    }
}
