// Register-cache hints inferred from liveness (sim/kernel/liveness_hints.hpp):
// the last read of a value discards it, across branches and loops.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "sim/common/errors.hpp"
#include "sim/kernel/liveness_hints.hpp"
#include "tests/unit/temp_file.hpp"

using namespace agx;
using namespace agx::kernel;

namespace {

KernelProgram program(const std::string& code) {
    test::TempFile f(".agxk");
    f.write("agxsim-kernel 1\nlaunch grid=32 threadgroup=32 registers=32\n" + code);
    return load_kernel(f.path(), "", {}).program;
}

// Each instruction's sources: 'D' for a discard, '.' for none, else 'C'.
std::vector<std::string> hints(const KernelProgram& p) {
    std::vector<std::string> out;
    for (const auto& k : p.code) {
        std::string s;
        for (unsigned i = 0; i < k.in.num_src; ++i)
            s += k.in.src[i].hint == CacheHint::Discard ? 'D'
                 : k.in.src[i].hint == CacheHint::Cache ? 'C'
                                                        : '.';
        out.push_back(s);
    }
    return out;
}

}  // namespace

TEST_CASE("liveness hints: the last read of a value discards it, written hints are dropped") {
    KernelProgram p = program(
        "    mov_imm r1, 1\n"
        "    mov_imm r2, 2\n"
        "    iadd32 r3, r1.cache, r2\n"  // r1 read again below; r2 dead
        "    iadd32 r4, r3, r1\n"        // both dead after
        "    iadd32 r4, r4, r4\n"        // one value read twice: the last read discards
        "    fmadd32 r5, r4, r4, r5\n"   // r5 rewritten here: its old value dies at this read
        "    stop\n");
    CHECK(infer_discard_hints(p) == 6);
    CHECK(hints(p) == std::vector<std::string>{".", ".", ".D", "DD", ".D", ".DD", ""});
}

TEST_CASE("liveness hints: a value read in a loop stays cached around its back edge") {
    KernelProgram p = program(
        "    mov_imm r2, 0\n"
        "    mov_imm r3, 7\n"
        "loop:\n"
        "    iadd32 r2, r2, r3\n"  // r3 read on every pass: never discarded; r2 rewritten
        "    jmp_exec_any loop\n"
        "    iadd32 r4, r2, r3\n"  // after the loop: both dead
        "    stop\n");
    infer_discard_hints(p);
    CHECK(hints(p) == std::vector<std::string>{".", ".", "D.", ".", "DD", ""});
}

TEST_CASE("liveness hints: r0l, the execution-mask counter, is never discarded") {
    KernelProgram p = program(
        "    mov_imm r0l, 0\n"
        "    mov_imm r1l, 3\n"
        "    if_icmp r1l, 2 cc=ugt\n"
        "    iadd16 r1l, r0l, r1l\n"
        "    pop_exec 1\n"
        "    stop\n");
    infer_discard_hints(p);
    CHECK(hints(p)[3] == ".D");
}

TEST_CASE("liveness hints: --register-hints takes as-written or liveness") {
    CHECK(parse_register_hints("liveness", "--register-hints") == RegisterHints::Liveness);
    CHECK(parse_register_hints("as-written", "--register-hints") == RegisterHints::AsWritten);
    CHECK_THROWS_AS(parse_register_hints("livenes", "--register-hints"), InputError);
}
