// Reading what Mesa's AGX compiler writes (sim/kernel/opencl_compile.hpp)
// and building a kernel file from it (sim/kernel/compiled_kernel_text.hpp),
// on hand-made compiler output: no compiler needed.
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "sim/common/errors.hpp"
#include "sim/kernel/compiled_kernel_text.hpp"
#include "sim/kernel/opencl_compile.hpp"

using namespace agx;
using namespace agx::kernel;

namespace {

// asahi_clc's C output for one kernel: the 44-byte header, then `code`,
// as little-endian 32-bit words.
std::string c_output(const std::string& name, const std::vector<std::uint8_t>& code,
                     std::uint16_t registers) {
    std::vector<std::uint8_t> blob(44, 0);
    auto put32 = [&](std::size_t at, std::uint32_t v) {
        for (int b = 0; b < 4; ++b) blob[at + b] = static_cast<std::uint8_t>(v >> (8 * b));
    };
    auto put16 = [&](std::size_t at, std::uint16_t v) {
        blob[at] = static_cast<std::uint8_t>(v);
        blob[at + 1] = static_cast<std::uint8_t>(v >> 8);
    };
    put32(8, static_cast<std::uint32_t>(code.size()));   // main_size
    put32(12, static_cast<std::uint32_t>(code.size()));  // binary_size
    put16(24, registers);
    put16(30, 32);  // workgroup 32,1,1
    put16(32, 1);
    put16(34, 1);
    blob.insert(blob.end(), code.begin(), code.end());
    while (blob.size() % 4) blob.push_back(0);
    std::string s =
        "static const uint32_t " + name + "_0_g13g[" + std::to_string(blob.size() / 4) + "] = {";
    for (std::size_t i = 0; i < blob.size(); i += 4) {
        char w[16];
        std::snprintf(w, sizeof w, " 0x%02x%02x%02x%02x,", blob[i + 3], blob[i + 2], blob[i + 1],
                      blob[i]);
        s += w;
    }
    return s + "\n};\n";
}

const char* kHeader =
    "struct k_args {\n   uint64_t out;\n   uint32_t n;\n   uint8_t _pad2[4];\n   uint64_t in;\n"
    "} PACKED;\n";

}  // namespace

TEST_CASE("opencl compile: the compiler's header and argument layout are read") {
    // get_sr r1, sr80; stop (applegpu's encodings, as in collatz.dis).
    const std::vector<std::uint8_t> code = {0x72, 0x05, 0x10, 0x04, 0x88, 0x00};
    const CompiledKernel k = read_asahi_output(c_output("k", code, 4), kHeader, "", "k.cl");
    CHECK(k.name == "k");
    CHECK(k.registers_halves == 4);
    CHECK(k.workgroup[0] == 32);
    CHECK(k.main_size == 6);
    REQUIRE(k.arguments.size() == 3);
    CHECK(k.arguments[0].name == "out");
    CHECK(k.arguments[1].offset_bytes == 8);
    CHECK(k.arguments[2].name == "in");
    CHECK(k.arguments[2].offset_bytes == 16);  // after the 4 bytes of padding
    CHECK_THROWS_WITH(read_asahi_output(c_output("k", code, 4), kHeader, "other", "k.cl"),
                      "k.cl: the source has no kernel named 'other'");
}

// A SPIR-V module: the header, then instructions (words << 16 | opcode).
struct Spirv {
    std::vector<std::uint32_t> w = {0x07230203, 0x00010000, 0, 100, 0};
    void op(std::uint16_t code, std::vector<std::uint32_t> args) {
        w.push_back(static_cast<std::uint32_t>(args.size() + 1) << 16 | code);
        w.insert(w.end(), args.begin(), args.end());
    }
    // A literal string as words, NUL-terminated.
    static std::vector<std::uint32_t> str(const std::string& s) {
        std::vector<std::uint32_t> out((s.size() + 4) / 4, 0);
        for (std::size_t i = 0; i < s.size(); ++i)
            out[i / 4] |= std::uint32_t{static_cast<unsigned char>(s[i])} << (8 * (i % 4));
        return out;
    }
    void named(std::uint16_t code, std::vector<std::uint32_t> head, const std::string& s) {
        for (auto x : str(s)) head.push_back(x);
        op(code, head);
    }
    std::string bytes() const {
        return std::string(reinterpret_cast<const char*>(w.data()), w.size() * 4);
    }
};

TEST_CASE("opencl compile: argument names and types come from the SPIR-V module") {
    Spirv m;
    m.named(15, {6, 1}, "k");  // OpEntryPoint Kernel %1 "k"
    m.named(5, {10}, "out");   // OpName
    m.named(5, {11}, "n");
    m.named(5, {12}, "x");
    m.op(22, {2, 32});       // %2 = f32
    m.op(21, {3, 32, 0});    // %3 = i32
    m.op(32, {4, 5, 2});     // %4 = global f32*
    m.op(54, {7, 1, 0, 8});  // OpFunction %1
    m.op(55, {4, 10});       // out: global pointer
    m.op(55, {3, 11});       // n: i32
    m.op(55, {2, 12});       // x: f32
    m.op(56, {});
    const auto t = spirv_argument_types(m.bytes(), "k", "k.cl");
    REQUIRE(t.size() == 3);
    CHECK(t[0] == std::make_pair(std::string("out"), std::string("pointer")));
    CHECK(t[1] == std::make_pair(std::string("n"), std::string("i32")));
    CHECK(t[2] == std::make_pair(std::string("x"), std::string("f32")));
    CHECK_THROWS_WITH(spirv_argument_types(m.bytes(), "other", "k.cl"),
                      "k.cl: the SPIR-V module has no kernel named 'other'");

    Spirv local;
    local.named(15, {6, 1}, "k");
    local.named(5, {10}, "tile");
    local.op(22, {2, 32});
    local.op(32, {4, 4, 2});  // Workgroup: a local pointer
    local.op(54, {7, 1, 0, 8});
    local.op(55, {4, 10});
    local.op(56, {});
    CHECK_THROWS_WITH(spirv_argument_types(local.bytes(), "k", "k.cl"),
                      Catch::Contains("argument 'tile' is a local pointer"));
}

TEST_CASE("opencl compile: a binary with an unknown encoding names the offset and bytes") {
    // get_sr, then two bytes no form matches.
    const std::vector<std::uint8_t> code = {0x72, 0x05, 0x10, 0x04, 0xff, 0xff, 0x88, 0x00};
    CompiledKernel k =
        read_asahi_output(c_output("k", code, 4), "struct k_args {\n} PACKED;\n", "", "k.cl");
    k.source = "k.cl";
    CHECK_THROWS_WITH(compiled_kernel_text(k, "Mesa"),
                      Catch::StartsWith("k.cl (kernel k): cannot decode the instruction at byte "
                                        "offset 0x4 (bytes ffff"));
}

TEST_CASE("opencl compile: the kernel file keeps arguments, registers and pcs") {
    const std::vector<std::uint8_t> code = {0x72, 0x05, 0x10, 0x04, 0x88, 0x00};
    CompiledKernel k = read_asahi_output(c_output("k", code, 4), kHeader, "", "k.cl");
    k.source = "k.cl";
    k.arguments[0].type = "pointer";
    k.arguments[1].type = "u32";
    k.arguments[2].type = "pointer";
    const std::string text = compiled_kernel_text(k, "Mesa");
    CHECK(text.find("compiled registers=4 threadgroup=32,1,1\n") != std::string::npos);
    CHECK(text.find("argument out uniform=u0_u1 type=pointer\n") != std::string::npos);
    CHECK(text.find("argument n uniform=u2 type=u32\n") != std::string::npos);
    CHECK(text.find("argument in uniform=u4_u5 type=pointer\n") != std::string::npos);
    CHECK(text.find("get_sr r1, sr80 pc=0x0") != std::string::npos);
    CHECK(text.find("stop pc=0x4") != std::string::npos);
}
