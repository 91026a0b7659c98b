// Reading what Mesa's AGX compiler writes (sim/kernel/opencl_compile.hpp)
// and building a kernel file from it (sim/kernel/compiled_kernel_text.hpp),
// on hand-made compiler output: no compiler needed.
#include <catch2/catch.hpp>

#include <cstdio>
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

TEST_CASE("opencl compile: argument types come from the kernel's declaration") {
    const std::string src =
        "// kernel void decoy(int x)\n"
        "kernel __attribute__((reqd_work_group_size(32, 1, 1)))\n"
        "void k(global float *out, const uint n, __constant int *in, unsigned short s, half h)\n"
        "{ }\n";
    const auto t = kernel_argument_types(src, "k", "k.cl");
    REQUIRE(t.size() == 5);
    CHECK(t[0] == std::make_pair(std::string("out"), std::string("pointer")));
    CHECK(t[1].second == "u32");
    CHECK(t[2].second == "pointer");
    CHECK(t[3].second == "u16");
    CHECK(t[4].second == "f16");
    CHECK_THROWS_WITH(kernel_argument_types("kernel void k(local float *tile) {}", "k", "k.cl"),
                      Catch::Contains("argument 'tile' is a local pointer"));
    CHECK_THROWS_WITH(kernel_argument_types("kernel void k(float4 v) {}", "k", "k.cl"),
                      Catch::Contains("argument 'v' has type"));
    CHECK_THROWS_WITH(kernel_argument_types("void k(int x) {}", "k", "k.cl"),
                      "k.cl: no kernel named 'k' is declared in the source");
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
