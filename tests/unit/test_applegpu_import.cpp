// `agxsim kernel import`: applegpu disassembly listings to agxsim kernels.
// The listings are applegpu's own: the one published in its README
// (dougallj/applegpu, README.md, "Disassembler"), and the same bytes as its
// current disassembler prints them.
#include <catch2/catch.hpp>

#include <sstream>
#include <string>
#include <vector>

#include "sim/common/errors.hpp"
#include "sim/kernel/applegpu_import.hpp"

using namespace agx;
using agx::kernel::import_applegpu_listing;

namespace {

// The instruction lines of an imported kernel, without their offset comments.
std::vector<std::string> code_of(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        if (line.empty() || line[0] == '#') continue;
        if (line.rfind("    ", 0) != 0 && line.find(':') == std::string::npos) continue;
        const auto hash = line.find(" #");
        std::string code = line.substr(0, hash);
        code = code.substr(0, code.find_last_not_of(' ') + 1);
        const auto first = code.find_first_not_of(' ');
        out.push_back(first == std::string::npos ? code : code.substr(first));
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

}  // namespace

TEST_CASE("applegpu import: the README's published listing") {
    const std::string listing =
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
    CHECK(k.text.find("agxsim-kernel 1\nkernel name=readme\n") != std::string::npos);
    const std::vector<std::string> want = {
        "device_load r0_r1, u2_u3, 0 slot=0 shift=1", "wait 0",
        "convert r2.cache, r0.discard mode=u32_to_f", "convert r0.cache, r1.discard mode=u32_to_f",
        "fmul32 r1.cache, r2.discard, 0.5",           "rcp32 r1, r1.discard",
        "fmul32 r0.cache, r0.discard, 0.5",           "rcp32 r0, r0.discard",
    };
    CHECK(code_of(k.text) == want);
    // Its last two lines (uniform_store) have no agxsim equivalent.
    CHECK(
        refusal(listing +
                "  2a: c508803d00803000     uniform_store    2, i16, pair, 0, r1l_r1h, 8\n") ==
        "k.dis:9: no agxsim equivalent for 'uniform_store' (agxsim isa list shows what it models)");
}

TEST_CASE("applegpu import: the same bytes as the current disassembler prints them") {
    const std::string listing =
        "   0: 0501040d00c43200     device_load      0, i32, xy, r0_r1, u2_u3, 0, signed, lsl 1\n"
        "   8: 3800                 wait             0\n"
        "   a: be890a042c00         convert          u32_to_f, r2.cache, r0.discard, rte\n"
        "  16: 9a85c4020200         fmul32           r1.cache, r2.discard, 0.5\n"
        "  1c: 0a05c282             rcp              r1, r1.discard\n";
    const auto k = import_applegpu_listing(listing, "now.dis", "now", "");
    const std::vector<std::string> want = {"device_load r0_r1, u2_u3, 0 slot=0 shift=1", "wait 0",
                                           "convert r2.cache, r0.discard mode=u32_to_f",
                                           "fmul32 r1.cache, r2.discard, 0.5",
                                           "rcp32 r1, r1.discard"};
    CHECK(code_of(k.text) == want);
}

TEST_CASE("applegpu import: control flow, conditions, bit tables, widths and labels") {
    const std::string listing =
        "   0: 72051004             get_sr           r1, sr80 (thread_position_in_grid.x)\n"
        "   4: 62080500             mov_imm          r2l, 5\n"
        "   8: 522842422400         if_icmp          r0l, ult, r1, r2, 1\n"
        "   e: 0e0d424224001000     iadd             r3, r1, r2, lsl 2\n"
        "  16: 1e0d4242a4480200     imadd            r3, r1, r2, r4, lsl 1\n"
        "  1e: 7e154242a400         and              r5, r1, r2\n"
        "  24: 1215424224468024     icmpsel          sgte, r5, r1, r2, r3, r4\n"
        "  2c: 0215424224468024     fcmpsel          lte, r5l, r1l, r2l, r3l, r4l\n"
        "  34: 522c42422400         while_fcmp       r0l, gt, r1, r2, 2\n"
        "  3a: 00c010000000         jmp_exec_any     0xe\n"
        "  40: 520e00000000         pop_exec         r0l, 1\n"
        "  46: 7e154242a400         bitop            0111, r5, r1, r2\n"
        "  4c: 3e9509202400         convert          f_to_s32, r5, r1, rtz\n"
        "  52: 8800                 stop\n";
    const auto k = import_applegpu_listing(listing, "cf.dis", "cf",
                                           "launch grid=32 threadgroup=32 registers=16\n");
    const std::vector<std::string> want = {
        "get_sr r1, sr80",
        "mov_imm r2l, 5",
        "if_icmp r1, r2 cc=ult n=1",
        "at_0xe:",
        "iadd32 r3, r1, r2 shift=2",
        "imadd32 r3, r1, r2, r4 shift=1",
        "bitop32 r5, r1, r2 op=and",
        "icmpsel32 r5, r1, r2, r3, r4 cc=sge",
        "fcmpsel16 r5l, r1l, r2l, r3l, r4l cc=le",
        "while_fcmp r1, r2 cc=gt n=2",
        "jmp_exec_any at_0xe",
        "pop_exec 1",
        "bitop32 r5, r1, r2 op=or",
        "convert r5, r1 mode=f_to_s32",
        "stop",
    };
    CHECK(code_of(k.text) == want);
    CHECK(k.text.find("launch grid=32 threadgroup=32 registers=16\n") != std::string::npos);
}

TEST_CASE("applegpu import: what cannot be mapped is refused with its line") {
    const std::string head = "   0: 72051004             get_sr           r1, sr80\n";
    CHECK(refusal(head + "   4: 00               texture_sample   r0, 0\n") ==
          "k.dis:2: no agxsim equivalent for 'texture_sample' (agxsim isa list shows what it "
          "models)");
    CHECK(refusal(head + "   4: 2a95 fadd32 r5, r1.abs, r2\n") ==
          "k.dis:2: operand modifier '.abs' on 'r1.abs' has no agxsim equivalent");
    CHECK(refusal(head + "   4: 00c0 jmp_exec_any 0x6\n") ==
          "k.dis:2: branch to 0x6, where no instruction of the listing starts");
    CHECK(refusal(head + "   4: 4228 if_fcmp r0l, nlt, r1, r2, 1\n")
              .find("k.dis:2: condition 'nlt' has no agxsim equivalent") == 0);
    CHECK(refusal(head + "   4: 0501 device_load 0, f16, x, r2l, u0_u1, r1, signed\n") ==
          "k.dis:2: memory format 'f16' has no agxsim equivalent (i8, i16, i32)");
    CHECK(refusal(head + "   4: be89 convert u32_to_f, r2, r0, rtz\n") ==
          "k.dis:2: convert u32_to_f rounding 'rtz': agxsim models rte only");
    CHECK(refusal("not a listing\n") ==
          "k.dis: no instruction lines ('OFFSET: BYTES mnemonic operands')");
}
