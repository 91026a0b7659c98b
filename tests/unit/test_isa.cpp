// The instruction catalogue and the Metal-operation expansions.
#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include <catch2/catch.hpp>

#include "isa/catalogue.hpp"

using namespace agx::isa;

namespace {

const InstructionInfo& info(std::string_view m) {
    auto op = Catalogue::instance().find(m);
    REQUIRE(op);
    return Catalogue::instance().info(*op);
}

}  // namespace

TEST_CASE("catalogue finds instructions by mnemonic", "[isa]") {
    const auto& c = Catalogue::instance();
    REQUIRE(c.size() > 80);
    CHECK_FALSE(c.find("fmad32"));
    CHECK_FALSE(c.find(""));

    const auto& fma = info("fmadd32");
    CHECK(fma.unit == Unit::Fp32Int);
    CHECK(fma.timing_class == "f32_arith");
    REQUIRE(fma.operands.size() == 4);
    CHECK(fma.operands[0].role == OperandRole::Dst);
    CHECK(fma.operands[0].width_halves == 2);
    CHECK(fma.operands[1].allow_uniform);

    CHECK(info("fadd16").operands[1].width_halves == 1);
    CHECK(info("imul32x64").operands[0].width_halves == 4);
    CHECK(info("imul32x64").timing_class == "imul_wide");
    CHECK(info("imulhi32").timing_class == "imul_wide");
    CHECK(info("fmin32").timing_class == "cmpsel32");
    CHECK(info("imax16").timing_class == "cmpsel16");
    CHECK(info("iaddsat32").timing_class == "int_simple");
    CHECK(info("bitop32").timing_class == "int_simple");
    CHECK(info("rsqrt32").unit == Unit::IntComplex);
    CHECK(info("simd_broadcast").timing_class == "simd_shuffle");
    CHECK(info("simd_matrix_fmadd32").timing_class == "simd_matrix");

    const auto& load = info("device_load");
    CHECK(load.memory == MemorySpace::Device);
    CHECK(load.is_async);
    CHECK_FALSE(load.is_store);
    CHECK(load.operands[0].vector);
    CHECK(info("device_store").is_store);
    CHECK(info("atomic").is_atomic);
    CHECK_FALSE(info("threadgroup_load").is_async);
    CHECK(info("threadgroup_store").memory == MemorySpace::Threadgroup);
    CHECK(info("wait").is_wait);
    CHECK(info("threadgroup_barrier").is_barrier);
    CHECK(std::string(unit_name(Unit::Shuffle)) == "shuffle");
}

TEST_CASE("every brief-listed mnemonic is in the catalogue", "[isa]") {
    for (auto m : {"fadd16",
                   "fadd32",
                   "fmul16",
                   "fmul32",
                   "fmadd16",
                   "fmadd32",
                   "iadd16",
                   "iadd32",
                   "iaddsat32",
                   "imul16",
                   "imul32",
                   "imadd16",
                   "imadd32",
                   "imul16x32",
                   "imadd16x32",
                   "imul32x64",
                   "imadd32x64",
                   "imulhi32",
                   "fcmpsel16",
                   "fcmpsel32",
                   "icmpsel16",
                   "icmpsel32",
                   "fmin32",
                   "fmax32",
                   "imin32",
                   "imax32",
                   "fmin16",
                   "fmax16",
                   "imin16",
                   "imax16",
                   "bitop32",
                   "bitrev",
                   "popcount",
                   "ffs",
                   "clz",
                   "bfeil",
                   "bfi",
                   "extr",
                   "shl",
                   "shr",
                   "asr",
                   "intl",
                   "convert",
                   "rint",
                   "trunc",
                   "floor",
                   "ceil",
                   "rcp16",
                   "rcp32",
                   "rsqrt16",
                   "rsqrt32",
                   "exp2_16",
                   "exp2_32",
                   "log2_16",
                   "log2_32",
                   "sin_pt_1",
                   "sin_pt_2",
                   "simd_shuffle",
                   "simd_shuffle_down",
                   "simd_shuffle_up",
                   "simd_shuffle_xor",
                   "simd_shuffle_rotate",
                   "simd_broadcast",
                   "simd_ballot",
                   "icmp_ballot",
                   "fcmp_ballot",
                   "quad_shuffle",
                   "quad_broadcast",
                   "quad_ballot",
                   "simd_matrix_fmadd16",
                   "simd_matrix_fmadd32",
                   "device_load",
                   "device_store",
                   "atomic",
                   "threadgroup_load",
                   "threadgroup_store",
                   "threadgroup_atomic",
                   "wait",
                   "threadgroup_barrier",
                   "memory_barrier",
                   "mov",
                   "mov_imm",
                   "get_sr",
                   "jmp_exec_any",
                   "jmp_exec_none",
                   "stop"}) {
        INFO(m);
        CHECK(Catalogue::instance().find(m));
    }
}

TEST_CASE("entries are well formed", "[isa]") {
    std::set<std::string_view> seen;
    for (const auto& e : Catalogue::instance().entries()) {
        INFO(e.mnemonic);
        CHECK(seen.insert(e.mnemonic).second);  // unique
        CHECK(e.encoded_bytes >= 2);
        CHECK(e.encoded_bytes <= 12);
        CHECK(e.encoded_bytes % 2 == 0);
        CHECK_FALSE(e.summary.empty());
        int dst = 0, src = 0;
        bool optional_seen = false;
        for (const auto& o : e.operands) {
            (o.role == OperandRole::Dst ? dst : src)++;
            if (optional_seen) CHECK(o.optional);  // only trailing operands are optional
            optional_seen = optional_seen || o.optional;
        }
        CHECK(dst <= 2);  // Instruction::dst
        CHECK(src <= 4);  // Instruction::src
        CHECK((e.memory != MemorySpace::None) ==
              (e.unit == Unit::LoadStore || e.unit == Unit::Threadgroup));
        if (e.is_async) CHECK(e.memory == MemorySpace::Device);
    }
}

TEST_CASE("timing classes are exactly the configured set", "[isa]") {
    const std::set<std::string_view> expected = {"f16_arith",
                                                 "f32_arith",
                                                 "int_simple",
                                                 "cmpsel16",
                                                 "cmpsel32",
                                                 "move",
                                                 "imul16",
                                                 "imad32",
                                                 "imul_wide",
                                                 "imad_wide",
                                                 "bitfield",
                                                 "bitinsert",
                                                 "bitcount",
                                                 "shift",
                                                 "convert",
                                                 "exp_log",
                                                 "exp_log16",
                                                 "recip",
                                                 "rsqrt",
                                                 "sin_pt",
                                                 "simd_shuffle",
                                                 "quad_shuffle",
                                                 "quad_prefix",
                                                 "quad_prefix_int",
                                                 "simd_prefix",
                                                 "quad_reduce_float",
                                                 "quad_reduce_iadd",
                                                 "quad_reduce_bitwise",
                                                 "simd_reduce_float",
                                                 "simd_reduce_iadd",
                                                 "simd_reduce_bitwise",
                                                 "quad_reduce_float16",
                                                 "quad_reduce_iadd16",
                                                 "quad_reduce_bitwise16",
                                                 "simd_reduce_float16",
                                                 "simd_reduce_bitwise16",
                                                 "simd_ballot",
                                                 "simd_cmp_ballot",
                                                 "simd_matrix",
                                                 "device_load",
                                                 "device_store",
                                                 "device_atomic",
                                                 "threadgroup_load",
                                                 "threadgroup_store",
                                                 "threadgroup_atomic",
                                                 "wait",
                                                 "barrier",
                                                 "branch"};
    auto classes = Catalogue::instance().timing_classes();
    std::set<std::string_view> got(classes.begin(), classes.end());
    CHECK(got.size() == classes.size());  // distinct
    CHECK(got == expected);
}

TEST_CASE("timing classes stay on one unit", "[isa]") {
    // A config times a class once; a class spanning two units would be ambiguous.
    for (const auto& a : Catalogue::instance().entries())
        for (const auto& b : Catalogue::instance().entries())
            if (a.timing_class == b.timing_class) CHECK(a.unit == b.unit);
}

TEST_CASE("expansions resolve to known mnemonics", "[isa]") {
    const auto& c = Catalogue::instance();
    REQUIRE(expansions().size() > 50);
    std::set<std::string_view> names;
    for (const auto& e : expansions()) {
        INFO(e.metal_name);
        CHECK(names.insert(e.metal_name).second);
        CHECK_FALSE(e.steps.empty());
        CHECK_FALSE(e.source.empty());
        CHECK_FALSE(e.steps.front().depends_on_previous);
        for (const auto& s : e.steps) CHECK(c.find(s.mnemonic));
    }
}

TEST_CASE("documented sequences expand as metal-benchmarks says", "[isa]") {
    auto mnemonics = [](std::string_view name) {
        std::vector<std::string_view> out;
        const auto* e = find_expansion(name);
        REQUIRE(e);
        for (const auto& s : e->steps) out.push_back(s.mnemonic);
        return out;
    };
    using V = std::vector<std::string_view>;
    CHECK(mnemonics("DIV32") == V{"rcp32", "fmul32"});
    CHECK(mnemonics("FRACT32") == V{"trunc", "fadd32"});
    CHECK(mnemonics("SIN32") == V{"fmul32", "trunc", "fadd32", "fmadd32", "sin_pt_1", "sin_pt_2"});
    CHECK(mnemonics("IMADHI16") == V{"imul32", "mov"});
    CHECK(mnemonics("IADD(32+32=64)") == V{"iadd32", "icmpsel32", "mov_imm"});
    CHECK(mnemonics("IADD64") == V{"iadd32", "icmpsel32", "iadd32", "iadd32"});
    CHECK(mnemonics("IMUL(64x64=64)") == V{"imul32x64", "imadd32", "imadd32"});
    CHECK(mnemonics("FADD32") == V{"fadd32"});
    CHECK(mnemonics("RSQRT32") == V{"rsqrt32"});
    CHECK(mnemonics("BALLOT") == V{"simd_ballot"});
    CHECK(mnemonics("BROADCAST32") == V{"simd_broadcast"});
    CHECK(find_expansion("DIV32")->source.find("metal-benchmarks") != std::string_view::npos);
    CHECK(find_expansion("SQRT32")->source.substr(0, 6) == "guess:");
    CHECK(find_expansion("NOPE") == nullptr);
}

TEST_CASE("expand_metal splits mixes with counts", "[isa]") {
    auto mix = expand_metal("IMUL32 + 3 IADD32");
    REQUIRE(mix);
    REQUIRE(mix->size() == 4);
    CHECK((*mix)[0].mnemonic == "imul32");
    CHECK((*mix)[3].mnemonic == "iadd32");
    // One dependent chain through the terms, as the benchmarks' ILP 1 is.
    CHECK_FALSE((*mix)[0].depends_on_previous);
    for (std::size_t i = 1; i < mix->size(); ++i) CHECK((*mix)[i].depends_on_previous);

    auto frac = expand_metal("FRACT32 + IADD32 + BITWISE32");
    REQUIRE(frac);
    REQUIRE(frac->size() == 4);
    CHECK((*frac)[1].depends_on_previous);  // inside FRACT32

    CHECK(expand_metal("DIV32")->size() == 2);
    // A fast-math sequence is its plain forms.
    CHECK(expand_metal("Fast DIV32 + FMUL32")->size() == 3);
    CHECK(expand_metal("Fast EXP2_32 + RINT32 + FADD32")->size() == 3);
    CHECK_FALSE(expand_metal("Fast "));
    CHECK_FALSE(expand_metal("Fast NOPE32"));
    CHECK_FALSE(expand_metal("IMUL32 + NOPE"));
    CHECK_FALSE(expand_metal(""));
}

TEST_CASE("every single-instruction CSV row has an expansion", "[isa]") {
    // Rows of the instruction tables are machine instructions (or close to
    // one); each must turn into machine instructions.
    for (auto file :
         {"float_instructions.csv", "int_instructions.csv", "simd_instructions.csv",
          "mixed_int_float.csv", "quad/quad_instructions.csv", "quad/quad_sequences.csv",
          "mixes/mixed_16_64bit.csv", "mixes/mixed_transcendental.csv"}) {
        std::ifstream in(std::string(AGX_SOURCE_DIR) + "/validation/data/metal-benchmarks/" + file);
        REQUIRE(in);
        std::string line;
        std::getline(in, line);  // header
        while (std::getline(in, line)) {
            auto name = line.substr(0, line.find(','));
            INFO(file << ": " << name);
            CHECK(expand_metal(name));
        }
    }
}
