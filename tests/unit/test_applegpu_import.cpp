// `agxsim kernel import`: applegpu disassembly listings to agxsim kernels.
//
// The listings are applegpu's own output (dougallj/applegpu,
// disassemble.py): the one its README publishes ("Disassembler"), the same
// bytes as later versions print them, and instructions assembled with its
// assemble.py and printed by its disassembler (the current one unless a
// version is named). Its docs.html publishes no listing: its "Conditional
// Execution" prose (jmp_exec_none over an if, jmp_exec_any back to a loop's
// start, `pop_exec 0` for break) is checked on a listing written that way.
#include <catch2/catch.hpp>

#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "sim/common/errors.hpp"
#include "sim/kernel/applegpu_import.hpp"
#include "sim/kernel/kernel_program.hpp"
#include "tests/unit/temp_file.hpp"

using namespace agx;
using agx::kernel::import_applegpu_listing;

namespace {

// The instruction and label lines of an imported kernel, without their
// offset comments and indentation.
std::vector<std::string> code_of(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    bool code = false;
    for (std::string line; std::getline(in, line);) {
        if (line.empty()) {
            code = true;  // the blank line after the directives
            continue;
        }
        if (!code || line[0] == '#') continue;
        std::string s = line.substr(0, line.find(" #"));
        s = s.substr(0, s.find_last_not_of(' ') + 1);
        out.push_back(s.substr(s.find_first_not_of(' ')));
    }
    return out;
}

std::string refusal(const std::string& listing) {
    try {
        import_applegpu_listing(listing, "k.dis", "k", "");
    } catch (const InputError& e) {
        return e.what();
    }
    return "(accepted)";
}

// One listing line imported on its own: the agxsim line, or the refusal
// without its "k.dis:1: ".
std::string one(const std::string& line) {
    try {
        const auto k = import_applegpu_listing(line + "\n", "k.dis", "k", "");
        const auto code = code_of(k.text);
        return code.size() == 1 ? code[0] : "(" + std::to_string(code.size()) + " lines)";
    } catch (const InputError& e) {
        const std::string what = e.what();
        return what.rfind("k.dis:1: ", 0) == 0 ? "refused: " + what.substr(9) : what;
    }
}

using Table = std::vector<std::pair<std::string, std::string>>;

void check_table(const Table& rows) {
    for (const auto& [listing, want] : rows) {
        INFO(listing);
        CHECK(one(listing) == want);
    }
}

// A launch for loading imported kernels in the tests.
const char* kLaunch =
    "launch grid=64 threadgroup=64 registers=64\n"
    "buffer b size=4096\n"
    "uniform u0_u1 buffer=b\n"
    "uniform u2_u3 buffer=b\n";

// The imported kernel loads as agxsim reads kernels (labels, attributes).
void loads(const std::string& listing) {
    const auto k = import_applegpu_listing(listing, "k.dis", "k", kLaunch);
    agx::test::TempFile f(".agxk");
    f.write(k.text);
    INFO(k.text);
    CHECK_NOTHROW(kernel::load_kernel(f.path(), "", {}));
}

}  // namespace

TEST_CASE("applegpu import: the README's published listing") {
    // applegpu README.md, "Disassembler" (the syntax of its first version).
    const std::string listing =
        "$ python3 disassemble.py code.bin\n"
        "   0: 0501040d00c43200     device_load      2, 0, i32, pair, 4, r0_r1, u2_u3, 0, lsl 1\n"
        "   8: 3800                 wait             0\n"
        "   a: be890a042c00         convert          u32_to_f, $r2, r0.discard, 1\n"
        "  10: be810a242c00         convert          u32_to_f, $r0, r1.discard, 1\n"
        "  16: 9a85c4020200         fmul             $r1, r2.discard, 0.5\n"
        "  1c: 0a05c282             rcp              r1, r1.discard\n"
        "  20: 9a81c0020200         fmul             $r0, r0.discard, 0.5\n"
        "  26: 0a01c082             rcp              r0, r0.discard\n";
    const auto k = import_applegpu_listing(listing, "readme.dis", "readme", "");
    CHECK(k.instructions == 8);
    CHECK(k.registers_halves == 6);
    CHECK(k.uniforms == std::vector<std::string>{"u2_u3"});
    CHECK(k.text.find("agxsim-kernel 1\nkernel name=readme\n") != std::string::npos);
    const std::vector<std::string> want = {
        "device_load r0_r1, u2_u3, 0 slot=0 shift=1", "wait 0",
        "convert r2.cache, r0.discard mode=u32_to_f", "convert r0.cache, r1.discard mode=u32_to_f",
        "fmul32 r1.cache, r2.discard, 0.5",           "rcp32 r1, r1.discard",
        "fmul32 r0.cache, r0.discard, 0.5",           "rcp32 r0, r0.discard",
    };
    CHECK(code_of(k.text) == want);
    // Its last two lines store to uniforms: no agxsim equivalent.
    const std::string stores =
        "  2a: c508803d00803000     uniform_store    2, i16, pair, 0, r1l_r1h, 8\n"
        "  32: c500a03d00803000     uniform_store    2, i16, pair, 0, r0l_r0h, 10\n";
    CHECK(
        refusal(listing + stores).rfind("k.dis:10: no agxsim equivalent for 'uniform_store'", 0) ==
        0);
    loads(listing + "  2a: 8800                 stop\n");
}

TEST_CASE("applegpu import: the README's bytes as the current disassembler prints them") {
    const std::string listing =
        "   0: 0501040d00c43200     device_load      0, i32, xy, r0_r1, u2_u3, 0, signed, lsl 1\n"
        "   8: 3800                 wait             0\n"
        "   a: be890a042c00         convert          u32_to_f, r2.cache, r0.discard, rte\n"
        "  10: be810a242c00         convert          u32_to_f, r0.cache, r1.discard, rte\n"
        "  16: 9a85c4020200         fmul32           r1.cache, r2.discard, 0.5\n"
        "  1c: 0a05c282             rcp              r1, r1.discard\n"
        "  20: 9a81c0020200         fmul32           r0.cache, r0.discard, 0.5\n"
        "  26: 0a01c082             rcp              r0, r0.discard\n";
    const auto k = import_applegpu_listing(listing, "now.dis", "now", "");
    const std::vector<std::string> want = {
        "device_load r0_r1, u2_u3, 0 slot=0 shift=1", "wait 0",
        "convert r2.cache, r0.discard mode=u32_to_f", "convert r0.cache, r1.discard mode=u32_to_f",
        "fmul32 r1.cache, r2.discard, 0.5",           "rcp32 r1, r1.discard",
        "fmul32 r0.cache, r0.discard, 0.5",           "rcp32 r0, r0.discard"};
    CHECK(code_of(k.text) == want);
    CHECK(refusal(listing +
                  "  2a: c508803d00803000     uniform_store    2, i16, xy, 0, r1l_r1h, 8\n") ==
          "k.dis:9: no agxsim equivalent for 'uniform_store' outside a compiled kernel's "
          "preamble (it writes uniforms for later shaders; give the uniforms with `uniform` "
          "launch directives)");
}

TEST_CASE("applegpu import: device memory in each form applegpu has printed") {
    // The same two loads (bytes 0521204e00c8f200 and 8520c00510c03000) as
    // four versions of the disassembler print them.
    const std::string wide = "device_load r4_r5_r6_r7, u0_u1, r1 slot=1 offset=unsigned shift=2";
    const std::string half = "device_load r4l_r4h, r8_r9, 12 slot=0";
    check_table({
        // 56b2496 (2021-02, the README's)
        {"21c: 0521204e00c8f200 device_load 3, 1, i32, quad, 4, r4_r5_r6_r7, u0_u1, r1, lsl 2",
         wide},
        {"224: 8520c00510c03000 device_load 2, 0, i16, pair, 4, r4l_r4h, r8_r9, 12", half},
        // 44b1fdb .. f1e4719 (2021-02 to 2022-04)
        {"21c: 0521204e00c8f200 device_load 1, 1, 0, 4, 0, i32, quad, r4_r5_r6_r7, u0_u1, r1, "
         "unsigned, lsl 2",
         wide},
        {"224: 8520c00510c03000 device_load 1, 0, 0, 4, 0, i16, pair, r4l_r4h, r8_r9, 12, signed",
         half},
        // 6644671 .. 70738db (2022)
        {"21c: 0521204e00c8f200 device_load 1, i32, quad, r4_r5_r6_r7, u0_u1, r1, unsigned, lsl 2",
         wide},
        // now
        {"21c: 0521204e00c8f200 device_load 1, i32, xyzw, r4_r5_r6_r7, u0_u1, r1, unsigned, lsl 2",
         wide},
        {"224: 8520c00510c03000 device_load 0, i16, xy, r4l_r4h, r8_r9, 12, signed", half},
        {"62: 0520300d00c01200 device_load 0, i8, x, r4, u0_u1, 3, signed",
         "device_load r4, u0_u1, 3 slot=0 format=i8"},
        {"72: 8521200c00c01000 device_load 0, f16, x, r4l, u0_u1, r1, signed",
         "device_load r4l, u0_u1, r1 slot=0"},
        {"5a: 4519244c00c41200 device_store 1, i32, x, r3, u2_u3, r1, signed, lsl 1, 0",
         "device_store r3, u2_u3, r1 slot=1 shift=1"},
        {"6a: 0521200c00c0a200 device_load 0, i32, yw, r4_r5, u0_u1, r1, signed",
         "refused: mask 'yw' skips elements in memory: agxsim moves consecutive elements"},
        {"7a: 0522200c00c01200 device_load 0, u8norm, x, r4, u0_u1, r1, signed",
         "refused: memory format 'u8norm' has no agxsim equivalent (i8, i16, i32)"},
    });
}

TEST_CASE("applegpu import: arithmetic, bitwise operations, shifts and conversions") {
    check_table({
        {"0: 72051004 get_sr r1, sr80 (thread_position_in_grid.x)", "get_sr r1, sr80"},
        {"8: 62080500 mov_imm r2l, 5", "mov_imm r2l, 5"},
        {"4c: 620da0860100 mov_imm r3, 100000, 0b0", "mov_imm r3, 100000"},
        {"8: 62080500 mov r2l, 5", "mov r2l, 5"},  // older listings' immediate move
        {"c: 7e11420a8000 mov r4, r1", "mov r4, r1"},
        {"c: 7e11420a8000 bitop_mov r4, r1", "mov r4, r1"},
        {"12: 7e1142064000 not r4, r1", "bitop32 r4, r1, 0 op=not_a"},
        {"18: 7e154242a400 and r5, r1, r2", "bitop32 r5, r1, r2 op=and"},
        {"1e: 7e15427ac000 or r5, r1, 7", "bitop32 r5, r1, 7 op=or"},
        {"24: 7e15428a5800 xor r5, r1, u4", "bitop32 r5, r1, u4 op=xor"},
        {"2a: 7e1542462400 nor r5, r1, r2", "bitop32 r5, r1, r2 op=nor"},
        // Truth table character i is agxsim's table bit i (~a&~b, a&~b, ~a&b, a&b).
        {"30: 7e15424a2400 bitop 0100, r5, r1, r2", "bitop32 r5, r1, r2 op=andn"},
        {"36: 7e15424ea400 bitop 1101, r5, r1, r2", "bitop32 r5, r1, r2 op=orn"},
        // ~a & b and ~a | b: andn and orn with the sources swapped.
        {"0: 7e1542426400 bitop 0010, r5, r1, r2", "bitop32 r5, r2, r1 op=andn"},
        {"0: 7e154246e400 bitop 1011, r5, r1, r2", "bitop32 r5, r2, r1 op=orn"},
        // Tables 0011 and 1100 write A (applegpu's emulation).
        {"0: 7e154242e400 bitop_mov_a 0011, r5, r1, r2", "mov r5, r1"},
        {"3c: 0e0d424224000000 iadd r3, r1, r2", "iadd32 r3, r1, r2"},
        {"44: 0e0d424200001000 iadd r3, r1, 4, lsl 2", "iadd32 r3, r1, 4 shift=2"},
        {"4c: 0e0d424a24000000 isub r3, r1, r2", "iadd32 r3, r1, r2 neg=1"},
        {"5c: 4e0d424224000000 iadd.sat r3, r1, r2", "iaddsat32 r3, r1, r2"},
        {"c4: 4e0d424664000000 iadd.sat r3, r1.sx, r2.sx", "iaddsat32 r3, r1, r2 signed=1"},
        {"64: 0e0c424004000000 iadd r3l, r1l, r2l", "iadd16 r3l, r1l, r2l"},
        {"74: 1e0d424224480200 imadd r3, r1, r2, r4", "imadd32 r3, r1, r2, r4"},
        {"7c: 1e0d424aa4480200 imsub r3, r1, r2, r4, lsl 1",
         "imadd32 r3, r1, r2, r4 neg=1 shift=1"},
        {"84: 1e0d423200010000 imadd r3, r1, 3, 1", "imadd32 r3, r1, 3, 1"},
        {"8a: 1e0d424004480200 imadd r3, r1l, r2l, r4", "imadd16x32 r3, r1l, r2l, r4"},
        {"92: 1e0d424444480200 imadd r3, r1l.sx, r2l.sx, r4",
         "imadd16x32 r3, r1l, r2l, r4 signed=1"},
        {"9a: 1e134242244c0300 imadd r4_r5, r1, r2, r6_r7", "imadd32x64 r4_r5, r1, r2, r6_r7"},
        {"a2: 1e13424664000000 imadd r4_r5, r1.sx, r2.sx, 0",
         "imadd32x64 r4_r5, r1, r2, 0 signed=1"},
        {"94: 2a8544622400 fadd32 r1, r2, r3", "fadd32 r1, r2, r3"},
        {"94: 2a8544622400 fadd r1, r2, r3", "fadd32 r1, r2, r3"},
        {"a6: 9a85c4020200 fmul32 r1.cache, r2.discard, 0.5", "fmul32 r1.cache, r2.discard, 0.5"},
        {"ac: 3a85448218460200 fmadd32 r1, r2, u4, r3", "fmadd32 r1, r2, u4, r3"},
        {"ac: 3a85448218460200 fmadd r1, r2, u4, r3", "fmadd32 r1, r2, u4, r3"},
        {"b4: 268444700400 fadd16 r1l, r2l, r3h", "fadd16 r1l, r2l, r3h"},
        {"ba: 168444800300 fmul16 r1l, r2l, 1.5", "fmul16 r1l, r2l, 1.5"},
        {"c0: 360444600448 fmadd16 r1l, r2l, r3l, r4l", "fmadd16 r1l, r2l, r3l, r4l"},
        {"cc: 0a054482 rcp r1, r2", "rcp32 r1, r2"},
        {"d0: 0a044480 rcp r1l, r2l", "rcp16 r1l, r2l"},
        {"d4: 0a054492 rsqrt r1, r2", "rsqrt32 r1, r2"},
        {"d8: 0a0544d2 exp2 r1, r2", "exp2_32 r1, r2"},
        {"dc: 0a0544c2 log2 r1, r2", "log2_32 r1, r2"},
        {"e0: 0a054402 floor r1, r2", "floor r1, r2"},
        {"e4: 0a8544020100 ceil r1, r2", "ceil r1, r2"},
        {"ea: 0a8544020200 trunc r1, r2", "trunc r1, r2"},
        {"f0: 0a8544020300 rint r1, r2", "rint r1, r2"},
        {"f6: 0a0544a2 sin_pt_1 r1, r2", "sin_pt_1 r1, r2"},
        {"fa: 0a0544e2 sin_pt_2 r1, r2", "sin_pt_2 r1, r2"},
        {"f6: 0a0544a2 funop r1, r2, 0b001010", "sin_pt_1 r1, r2"},  // 56b2496, 44b1fdb
        {"fe: 3e890a242400 convert u32_to_f, r2, r1, rte", "convert r2, r1 mode=u32_to_f"},
        {"104: 3e890b242400 convert s32_to_f, r2, r1, 1", "convert r2, r1 mode=s32_to_f"},
        {"10a: 3e8908202400 convert f_to_u32, r2, r1, rtz", "convert r2, r1 mode=f_to_u32"},
        {"110: 3e8909202400 convert f_to_s32, r2, r1, 0", "convert r2, r1 mode=f_to_s32"},
        {"11c: 2e05446224480a00 bfi r1, r2, r3, r4, mask 0xFF", "bfi r1, r2, r3, r4, 8"},
        {"124: 2e05006024050000 bfi r1, 0, r3, 5", "shl r1, r3, 5"},
        {"12c: 2e85006024050000 bfeil r1, 0, r3, 5", "shr r1, r3, 5"},
        {"134: 2e85006024480600 bfeil r1, 0, r3, r4, mask 0xF", "bfeil r1, r3, r4, 4"},
        {"144: 2e05446624070000 extr r1, r2, r3, 7", "extr r1, r2, r3, 7"},
        {"14c: 2e85443600000000 asr r1, r2, 3", "asr r1, r2, 3"},
        {"164: 3e05440a0000 popcount r1, r2", "popcount r1, r2"},
        {"16a: 3e0544060000 bitrev r1, r2", "bitrev r1, r2"},
        {"170: 3e05440e0000 ffs r1, r2", "ffs r1, r2"},
        {"176: 3e0544600400 intl r1, r2l, r3l", "intl r1, r2l, r3l"},
        {"17c: 1205446224480030 icmpsel ult, r1, r2, r3, r4, 0",
         "icmpsel32 r1, r2, r3, r4, 0 cc=ult"},
        {"184: 12044460040101d0 icmpsel sgt, r1l, r2l, r3l, 1, 0",
         "icmpsel16 r1l, r2l, r3l, 1, 0 cc=sgt"},
        {"18c: 020544622448a024 fcmpsel lt, r1, r2, r3, r4, r5",
         "fcmpsel32 r1, r2, r3, r4, r5 cc=lt"},
        // X and Y are raw bits: 3 is the binary16 denormal 3 * 2^-24.
        {"194: 02044400024830b0 fcmpsel gte, r1l, r2l, 0.5, r4l, 3",
         "fcmpsel16 r1l, r2l, 0.5, r4l, 1.7881393432617188e-07 cc=ge"},
    });
}

TEST_CASE("applegpu import: exec-mask stack, compares, shuffles and matrices") {
    check_table({
        {"19c: 522842422400 if_icmp r0l, ult, r1, r2, 1", "if_icmp r1, r2 cc=ult n=1"},
        {"1a2: 52a942520000 if_icmp r0l, sgte, r1, 5, 1", "if_icmp r1, 5 cc=sge n=1"},
        {"1a8: 520a00000000 else_icmp r0l, ueq, 0, 0, 1", "else_icmp 0, 0 cc=eq n=1"},
        {"1ae: 520d44120000 while_icmp r0l, nueq, r2, 1, 1", "while_icmp r2, 1 cc=ne n=1"},
        {"1b4: 422842422400 if_fcmp r0l, lt, r1, r2, 1", "if_fcmp r1, r2 cc=lt n=1"},
        {"1ba: 421000000000 push_exec r0l, 2", "if_fcmp 0.0, 0.0 cc=eq n=2"},
        {"1c0: 420000000000 update_exec r0l", "if_fcmp 0.0, 0.0 cc=eq n=0"},
        {"1c6: 42ec42020000 while_fcmp r0l, gtn, r1, 0.0, 1", "while_fcmp r1, 0.0 cc=gtn n=1"},
        {"1c6: 42ec42020000 while_fcmp r0l, 7, r1, 0.0, 1", "while_fcmp r1, 0.0 cc=gtn n=1"},
        {"1d2: 521600000000 pop_exec r0l, 2", "pop_exec 2"},
        {"1d8: 3205440200800100 icmp_ballot r1, nueq, r2, 0", "icmp_ballot r1, r2, 0 cc=ne"},
        {"1e0: 2205446224000120 fcmp_ballot r1, lt, r2, r3", "fcmp_ballot r1, r2, r3 cc=lt"},
        // agxsim reads a shuffle index's low 5 bits: the low half r3l reads as r3.
        {"1e8: 6f0544660400 simd_shuffle r1, r2, r3l", "simd_shuffle r1, r2, r3"},
        {"1ee: 6f0544064100 simd_shuffle_xor r1, r2, 16", "simd_shuffle_xor r1, r2, 16"},
        {"1f4: 6f0544168000 simd_shuffle_up r1, r2, 1", "simd_shuffle_up r1, r2, 1"},
        {"1fa: 6f054446c000 simd_shuffle_down r1, r2, 4", "simd_shuffle_down r1, r2, 4"},
        // applegpu's rotate_up reads lane - 3; agxsim's rotate lane + 29 (mod 32).
        {"200: 6f0544368080 simd_shuffle_rotate_up r1, r2, 3", "simd_shuffle_rotate r1, r2, 29"},
        {"206: 6f0544220000 quad_shuffle r1, r2, 2", "quad_shuffle r1, r2, 2"},
        {"20c: 6f01448e244c0280 simd_matrix_fmadd32 r0_r1, r2_r3, r4_r5, r6_r7",
         "simd_matrix_fmadd32 r0_r1, r2_r3, r4_r5, r6_r7"},
        {"82: 6f004488044c0080 simd_matrix_fmadd16 r0l_r0h, r2l_r2h, r4l_r4h, r6l_r6h",
         "simd_matrix_fmadd16 r0, r2, r4, r6"},
        {"22c: 3800 wait 1", "wait 1"},
        {"230: 6800 threadgroup_barrier ", "threadgroup_barrier"},
        {"46: f596 memory_barrier 1, 2, 9", "memory_barrier"},
        {"234: 1402 ret r1", "ret r1"},
        {"236: 0408 call r4", "call r4"},
        {"232: 8800 stop             ", "stop"},
    });
}

TEST_CASE("applegpu import: threadgroup memory and atomics") {
    check_table({
        {"0: 690d80c21400 threadgroup_load i32, x, r3, 0, 12", "threadgroup_load r3, 0, 12"},
        {"c: 291080813400 threadgroup_store i16, xy, r4l_r4h, 0, 8",
         "threadgroup_store r4l_r4h, 0, 8"},
        {"12: 1540448c00d00e00 atomic add, 0, r8, u2_u3, r2, signed, r7, 1, 0, 1, 4, 2",
         "atomic r8, r7, u2_u3, r2 op=add slot=0"},
        {"22: d541448c00d00e00 atomic imax, 0, r8, u2_u3, r2, signed, r7, 1, 0, 1, 4, 2",
         "atomic r8, r7, u2_u3, r2 op=smax slot=0"},
        {"2a: d540448c00d01400 atomic cmpxchg, 0, r8, u2_u3, r2, signed, r10_r11, 1, 0, 1, 4, 2",
         "atomic r8, r10_r11, u2_u3, r2 op=cmpxchg slot=0"},
        // No result register: the old value goes to a scratch register
        // above every register the code uses.
        {"1a: 150004cf00500e00 atomic add, 1, None, u2_u3, 0, unsigned, r7, 1, 0, 1, 4, 2",
         "atomic r8, r7, u2_u3, 0 op=add slot=1 offset=unsigned"},
        {"0: 19998040548000040a00 threadgroup_atomic add, r6, 0, 4, r5, 0, 2, 128, 0",
         "threadgroup_atomic r6, r5, 0, 4 op=add"},
    });
    const auto k = import_applegpu_listing(
        "1a: 150004cf00500e00 atomic add, 1, None, u2_u3, 0, unsigned, r7, 1, 0, 1, 4, 2\n",
        "k.dis", "k", "");
    CHECK(k.registers_halves == 18);
    CHECK(k.text.find("# r8 receives the old value of atomics") != std::string::npos);
}

TEST_CASE("applegpu import: labels at branch targets, as docs.html's conditional execution") {
    // docs.html, "Conditional Execution": jmp_exec_none jumps over an if's
    // body when no lane is active, jmp_exec_any back to a loop's start while
    // some lane loops, and a break writes the levels to leave into r0l and
    // runs `pop_exec 0`. Written so, assembled with applegpu's assemble.py
    // (labels as pc+label) and disassembled.
    const std::string listing =
        "   0: 62000000             mov_imm          r0l, 0\n"
        "   4: 72051004             get_sr           r1, sr80 (thread_position_in_grid.x)\n"
        "   8: 522842a20000         if_icmp          r0l, ult, r1, 10, 1\n"
        "   e: 20c028000000         jmp_exec_none    0x36\n"
        "  14: 0e05421200000000     iadd             r1, r1, 1\n"
        "  1c: 1200425000010150     icmpsel          ugt, r0l, r1l, 5, 1, 0\n"
        "  24: 520600000000         pop_exec         r0l, 0\n"
        "  2a: 522c42a20000         while_icmp       r0l, ult, r1, 10, 1\n"
        "  30: 00c0e4ffffff         jmp_exec_any     0x14\n"
        "  36: 520e00000000         pop_exec         r0l, 1\n"
        "  3c: 72091004             get_sr           r2, sr80 (thread_position_in_grid.x)\n"
        "  40: 4509400c00c01200     device_store     0, i32, x, r1, u0_u1, r2, signed, 0\n"
        "  48: 3800                 wait             0\n"
        "  4a: 8800                 stop             \n";
    const auto k = import_applegpu_listing(listing, "flow.dis", "flow", "");
    const std::vector<std::string> want = {
        "mov_imm r0l, 0",
        "get_sr r1, sr80",
        "if_icmp r1, 10 cc=ult n=1",
        "jmp_exec_none at_0x36",
        "at_0x14:",
        "iadd32 r1, r1, 1",
        "icmpsel16 r0l, r1l, 5, 1, 0 cc=ugt",
        "pop_exec 0",
        "while_icmp r1, 10 cc=ult n=1",
        "jmp_exec_any at_0x14",
        "at_0x36:",
        "pop_exec 1",
        "get_sr r2, sr80",
        "device_store r1, u0_u1, r2 slot=0",
        "wait 0",
        "stop",
    };
    CHECK(code_of(k.text) == want);
    CHECK(k.instructions == 14);
    CHECK(k.registers_halves == 6);
    loads(listing);
}

TEST_CASE("applegpu import: what cannot be mapped is refused with its line") {
    const std::string head = "   0: 72051004             get_sr           r1, sr80\n";
    auto at2 = [&](const std::string& line) { return refusal(head + line + "\n"); };
    CHECK(at2("   4: 00               texture_sample   r0, 0") ==
          "k.dis:2: no agxsim equivalent for 'texture_sample' (agxsim models no textures or "
          "images)");
    CHECK(at2("   4: 0000 frobnicate r1, r2") ==
          "k.dis:2: no agxsim equivalent for 'frobnicate' (agxsim isa list shows what it "
          "models)");
    CHECK(at2("   4: 3e05 <disassembly failed>") ==
          "k.dis:2: applegpu could not decode this instruction, so it cannot be imported");
    CHECK(at2("   4: 2a8544622400 fadd32 r5, r1.sx, r2") ==
          "k.dis:2: 'r1.sx': sign extension ('.sx') of a float source");
    CHECK(at2("   4: 6a8544622400 fadd32.sat r1, r2, r3") ==
          "k.dis:2: 'fadd32.sat': saturation ('.sat') has no agxsim equivalent");
    // A branch into the middle of an instruction (get_sr is 4 bytes long).
    CHECK(at2("   4: 00c0 jmp_exec_any 0x2") ==
          "k.dis:2: branch to 0x2, where no instruction of the listing starts");
    CHECK(at2("   4: 00c0 jmp_exec_any 0x40") ==
          "k.dis:2: branch to 0x40, where no instruction of the listing starts");
    CHECK(at2("   4: 4228 if_fcmp r0l, nlt, r1, r2, 1") ==
          "k.dis:2: float condition 'nlt' has no agxsim equivalent");
    CHECK(at2("   4: 1a8544602400 fmul32 r1, r2l, r3") ==
          "k.dis:2: maps to 'fmul32 r1, r2l, r3', which agxsim's catalogue refuses: fmul32 "
          "operand 2 'r2l': expected a 32-bit operand, got 16-bit");
    CHECK(at2("   4: 690d80a21000 threadgroup_load i32, x, r3, 0, r4_r5") ==
          "k.dis:2: threadgroup offset 'r4_r5' is a 64-bit register: agxsim's threadgroup "
          "addresses are 16 or 32 bits (or an immediate)");
    CHECK(at2("   4: be89 convert u32_to_f, r2, r0, rtz") ==
          "k.dis:2: convert u32_to_f rounding 'rtz': agxsim models rte only");
    CHECK(at2("   4: 2e05446a24040000 shlhi r1, r2, r3, 4").find("k.dis:2: applegpu's 'shlhi'") ==
          0);
    CHECK(at2("   4: 0e13424224000000 iadd r4_r5, r1, r2") ==
          "k.dis:2: a 64-bit integer add has no agxsim equivalent");
    CHECK(at2("   4: 522842500000 if_icmp r0l, ult, r1l, r2, 1") ==
          "k.dis:2: 'r1l', 'r2': agxsim's if_icmp compares two 16-bit or two 32-bit values, not "
          "one of each");
    CHECK(at2("   4: 720d3c00 get_sr r3, sr60 (internal_coverage_mask)") ==
          "k.dis:2: special register sr60 (internal_coverage_mask) is not one agxsim models "
          "(traces/KERNEL.md, \"Special registers\")");
    CHECK(at2("   4: d540448c00b01400 atomic cmpxchg, 0, r8, u2_u3, r2, signed, r10_r11, 1, 0, 1, "
              "4, 1")
              .find("k.dis:2: atomic cmpxchg with field u5=1") == 0);
    CHECK(
        at2("   4: 6f0544668480 simd_shuffle_rotate_up r1, r2, r3l").find("k.dis:2: delta 'r3l'") ==
        0);
    CHECK(refusal("not a listing\n") ==
          "k.dis: no instruction lines ('OFFSET: BYTES mnemonic operands')");
}

TEST_CASE("applegpu import: the header, the launch, and compiler_explorer's sections") {
    // compiler_explorer.py prints the shader prolog (the constant program)
    // and the shader, each from offset 0; the prolog is not imported.
    const std::string listing =
        "compute shader prolog:\n"
        "   0: c508803d00803000     uniform_store    2, i16, xy, 0, r1l_r1h, 8\n"
        "   8: 8800                 stop\n"
        "\n"
        "compute shader:\n"
        "   0: 72051004             get_sr           r1, sr80 (thread_position_in_grid.x)\n"
        "   4: 0511200c00c01200     device_load      0, i32, x, r2, u0_u1, r1, signed\n"
        "   c: 3800                 wait             0\n"
        "   e: 8800                 stop\n";
    const std::string launch = "launch grid=64 threadgroup=64 registers=8\n";
    const auto k = import_applegpu_listing(listing, "ce.txt", "my shader", launch);
    CHECK(k.instructions == 4);
    CHECK(k.text.find("kernel name=my_shader\nlaunch grid=64 threadgroup=64 registers=8\n") !=
          std::string::npos);
    CHECK(k.text.find("# Not imported: the section 'compute shader prolog'") != std::string::npos);
    CHECK(k.text.find("# Registers: the code uses 6 16-bit halves") != std::string::npos);
    CHECK(k.text.find("u0_u1 (an address)") != std::string::npos);
    CHECK(code_of(k.text) == std::vector<std::string>{"get_sr r1, sr80",
                                                      "device_load r2, u0_u1, r1 slot=0", "wait 0",
                                                      "stop"});
    // Each line keeps its offset and applegpu's text.
    CHECK(k.text.find("# 0x4: device_load 0, i32, x, r2, u0_u1, r1, signed\n") !=
          std::string::npos);
    // Two sections at the same offsets cannot both be imported.
    std::string both = listing;
    both.replace(0, std::string("compute shader prolog:").size(), "compute helper:");
    CHECK(refusal(both).find("k.dis:6: a second instruction at offset 0x0 (line 2)") == 0);
}
