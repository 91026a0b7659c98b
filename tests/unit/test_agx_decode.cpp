// The native decoder of AGX machine code (isa/agx_decode.hpp): applegpu's
// spelling of a listing it printed, failures that name the offset and bytes,
// and Mesa's 69 compiled kernels (libagx_shaders.c, built into a cache by
// scripts/setup-agx-compiler.sh; found where agxsim finds the compiler), every
// instruction of which decodes. That every one also reads as applegpu's
// disassembler prints it was checked against applegpu itself when the table
// was written; this test keeps the decoding complete.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "isa/agx_decode.hpp"
#include "sim/common/errors.hpp"
#include "sim/kernel/opencl_compile.hpp"

using agx::isa::decode_code;
using agx::isa::decode_instruction;
using agx::isa::DecodedInstruction;
using agx::isa::DecodeFailure;

namespace {

std::vector<std::uint8_t> from_hex(const std::string& hex) {
    std::vector<std::uint8_t> out;
    for (std::size_t i = 0; i + 1 < hex.size(); i += 2)
        out.push_back(static_cast<std::uint8_t>(std::stoul(hex.substr(i, 2), nullptr, 16)));
    return out;
}

std::string trim(const std::string& s) {
    const auto a = s.find_first_not_of(' ');
    if (a == std::string::npos) return {};
    return s.substr(a, s.find_last_not_of(' ') - a + 1);
}

// One line of an applegpu listing: `  1e: 20c042000000   jmp_exec_none   0x60`.
struct ListingLine {
    std::uint32_t offset;
    std::string bytes, mnemonic;
    std::vector<std::string> operands;
};

std::vector<ListingLine> read_listing(const std::string& path) {
    std::ifstream in(path);
    std::vector<ListingLine> out;
    for (std::string line; std::getline(in, line);) {
        if (line.empty() || line[0] == '#') continue;
        const auto colon = line.find(':');
        std::istringstream words(line.substr(colon + 1));
        ListingLine l;
        l.offset = static_cast<std::uint32_t>(std::stoul(line.substr(0, colon), nullptr, 16));
        words >> l.bytes >> l.mnemonic;
        std::string rest;
        std::getline(words, rest);
        std::istringstream ops(rest);
        for (std::string op; std::getline(ops, op, ',');)
            if (!trim(op).empty()) l.operands.push_back(trim(op));
        out.push_back(l);
    }
    return out;
}

// libagx_shaders.c: each kernel is `static const uint32_t NAME[N] = { 0x...,
// ... };`, little-endian words holding Mesa's agx_precompiled_kernel_info
// (src/asahi/compiler/agx_compile.h, 44 bytes) and then the binary.
struct Kernel {
    std::string name;
    std::vector<std::uint8_t> bytes;
};

std::vector<Kernel> read_kernels(const std::string& path) {
    std::ifstream in(path);
    std::vector<Kernel> out;
    const std::string head = "static const uint32_t ";
    bool inside = false;
    for (std::string line; std::getline(in, line);) {
        if (line.rfind(head, 0) == 0) {
            out.push_back({line.substr(head.size(), line.find('[') - head.size()), {}});
            inside = true;
            continue;
        }
        if (!inside) continue;
        if (line.find("};") != std::string::npos) {
            inside = false;
            continue;
        }
        std::istringstream words(line);
        for (std::string w; words >> w;) {
            const std::uint32_t v = static_cast<std::uint32_t>(std::stoul(w, nullptr, 16));
            for (int i = 0; i < 4; ++i) out.back().bytes.push_back((v >> (8 * i)) & 0xff);
        }
    }
    return out;
}

std::uint32_t u32(const std::vector<std::uint8_t>& b, std::size_t at) {
    std::uint32_t v = 0;
    std::memcpy(&v, b.data() + at, 4);
    return v;
}
std::uint16_t u16(const std::vector<std::uint8_t>& b, std::size_t at) {
    std::uint16_t v = 0;
    std::memcpy(&v, b.data() + at, 2);
    return v;
}

}  // namespace

TEST_CASE("agx decode: collatz.dis's bytes read as applegpu printed them") {
    const auto listing =
        read_listing(std::string(AGX_SOURCE_DIR) + "/traces/kernels/imported/collatz.dis");
    REQUIRE(listing.size() == 20);
    std::string hex;
    for (const auto& l : listing) hex += l.bytes;
    const auto code = from_hex(hex);
    const auto decoded = decode_code(code.data(), code.size(), "collatz.dis");
    REQUIRE(decoded.size() == listing.size());
    for (std::size_t i = 0; i < listing.size(); ++i) {
        INFO("offset 0x" << std::hex << listing[i].offset);
        CHECK(decoded[i].offset == listing[i].offset);
        CHECK(decoded[i].bytes_hex == listing[i].bytes);
        CHECK(decoded[i].mnemonic == listing[i].mnemonic);
        CHECK(decoded[i].operands == listing[i].operands);
    }
    // Spot checks of the spelling: a special register's meaning, a 64-bit
    // uniform base, an absolute branch target.
    CHECK(decoded[1].operands[1] == "sr80 (thread_position_in_grid.x)");
    CHECK(decoded[2].operands[4] == "u0_u1");
    CHECK(decoded[6].operands[0] == "0x60");
}

TEST_CASE("agx decode: hints, halves, pairs, modifiers and immediates as applegpu spells them") {
    struct Case {
        const char* hex;
        const char* mnemonic;
        std::vector<std::string> operands;
    };
    // Instructions of Mesa's kernels and two written by hand, with the text
    // applegpu's disassembler printed for each.
    const Case cases[] = {
        {"0a05c282", "rcp", {"r1", "r1.discard"}},
        {"ea0d4286", "fadd32.sat", {"r3.cache", "r1.abs", "0.125"}},
        {"0e11942564000000", "iadd", {"r4", "u10.sx", "r1.sx"}},
        {"0e0b44c334000000", "iadd", {"r2_r3", "r2_r3", "r6_r7"}},
        {"4e0544ea19000000", "isub.sat", {"r1", "r2", "u15"}},
        {"3a1148aa2430", "fmadd32", {"r4", "r4.neg", "r5", "1.0"}},
        {"0531840e00c43200",
         "device_load",
         {"0", "i32", "xy", "r6_r7", "u2_u3", "r4", "unsigned", "lsl 1"}},
        {"2e9d0020a61c0001", "bfeil", {"r7", "0", "r49", "28", "mask 0x3"}},
        {"52091b010000", "if_icmp", {"r0l", "nueq", "u13h", "0", "1"}},
        {"12024c221a001110", "icmpsel", {"ueq", "r0h", "r6", "u17", "0", "1"}},
        {"0202004024010130", "fcmpsel", {"lt", "r0h", "0.0", "r2", "1", "0"}},
        {"420800000000", "push_exec", {"r0l", "1"}},
        {"3e9108802400", "convert", {"f_to_u32", "r4", "r4", "rtz"}},
        {"6989800214000000", "threadgroup_load", {"i32", "x", "r2", "0", "0"}},
        {"1520088d50d00200",
         "atomic",
         {"add", "0", "r4", "u44_u45", "0", "signed", "r1", "1", "0", "1", "4", "2"}},
    };
    for (const Case& c : cases) {
        INFO(c.hex);
        const auto code = from_hex(c.hex);
        DecodedInstruction d;
        DecodeFailure f;
        REQUIRE(decode_instruction(code.data(), code.size(), 0, d, f));
        CHECK(d.length == code.size());
        CHECK(d.bytes_hex == c.hex);
        CHECK(d.mnemonic == c.mnemonic);
        CHECK(d.operands == c.operands);
    }
}

TEST_CASE("agx decode: an unknown encoding fails naming its offset and bytes") {
    // mov_imm r0l, 0; wait 0; then an opcode no form has.
    const auto code = from_hex("6200000038000100abcd");
    DecodedInstruction d;
    DecodeFailure f;
    CHECK_FALSE(decode_instruction(code.data(), code.size(), 6, d, f));
    CHECK(f.offset == 6);
    CHECK(f.bytes_hex == "0100abcd");
    CHECK(f.reason == "no instruction form matches");
    try {
        decode_code(code.data(), code.size(), "k.bin");
        FAIL("decode_code accepted an unknown encoding");
    } catch (const agx::InputError& e) {
        CHECK(std::string(e.what()) ==
              "k.bin: cannot decode the instruction at byte offset 0x6 (bytes 0100abcd): "
              "no instruction form matches");
    }
    // An instruction that runs past the end: fmadd32 is 6 bytes at least.
    const auto cut = from_hex("3a1148aa");
    CHECK_FALSE(decode_instruction(cut.data(), cut.size(), 0, d, f));
    CHECK(f.reason == "fmadd32 is 6 bytes long, but only 4 remain");
}

TEST_CASE("agx decode: padding after stop is skipped, as applegpu's disassembler does") {
    // stop, trap, zero padding, then wait 1: decoding goes on past stop.
    const auto code = from_hex("880008000000000000003801");
    const auto decoded = decode_code(code.data(), code.size(), "pad.bin");
    REQUIRE(decoded.size() == 3);
    CHECK(decoded[0].mnemonic == "stop");
    CHECK(decoded[0].operands.empty());
    CHECK(decoded[1].mnemonic == "trap");
    CHECK(decoded[2].offset == 10);
    CHECK(decoded[2].mnemonic == "wait");
    CHECK(decoded[2].operands == std::vector<std::string>{"1"});
}

TEST_CASE("agx decode: every instruction of Mesa's 69 compiled kernels decodes") {
    const std::string dir = agx::kernel::find_compiler_dir();
    if (dir.empty()) {
        // Skipped (CTest's SKIP_RETURN_CODE), saying why.
        std::cout << "agxsim-skip: Mesa's AGX compiler is not built here "
                     "(scripts/setup-agx-compiler.sh builds it and its corpus)\n";
        std::exit(77);
    }
    const std::string path = std::string(dir) + "/libagx_shaders.c";
    if (!std::ifstream(path)) {
        std::cout << "agxsim-skip: " << path << " is missing\n";
        std::exit(77);
    }
    const auto kernels = read_kernels(path);
    REQUIRE(kernels.size() == 69);
    std::size_t regions = 0, instructions = 0;
    std::map<std::string, std::size_t> mnemonics;
    for (const Kernel& k : kernels) {
        const auto& b = k.bytes;
        REQUIRE(b.size() >= 44);
        // agx_precompiled_kernel_info: preamble_offset, main_offset,
        // main_size, binary_size, rodata {offset, base_uniform, size_16},
        // nr_gprs, nr_preamble_gprs, ...
        const std::uint32_t preamble = u32(b, 0), main = u32(b, 4), main_size = u32(b, 8);
        const std::uint32_t binary_size = u32(b, 12), rodata = u32(b, 16);
        const bool has_rodata = u16(b, 22) != 0, has_preamble = u16(b, 26) != 0;
        REQUIRE(44 + binary_size <= b.size());
        const std::uint8_t* binary = b.data() + 44;
        // Mesa lays out [rodata] main [preamble], each padded to 128 bytes: the
        // preamble runs to the next part after it, or to the binary's end.
        std::vector<std::pair<std::uint32_t, std::uint32_t>> parts{{main, main + main_size}};
        if (has_preamble) {
            std::uint32_t end = binary_size;
            for (std::uint32_t other : {main, has_rodata ? rodata : 0u})
                if (other > preamble && other < end) end = other;
            parts.push_back({preamble, end});
        }
        for (const auto& [begin, end] : parts) {
            REQUIRE(begin < end);
            REQUIRE(end <= binary_size);
            const std::string where = k.name + "+0x" + std::to_string(begin);
            std::vector<DecodedInstruction> code;
            REQUIRE_NOTHROW(code = decode_code(binary + begin, end - begin, where));
            bool stops = false;
            for (const auto& ins : code) {
                ++mnemonics[ins.mnemonic];
                stops = stops || ins.mnemonic == "stop";
            }
            CHECK(stops);
            instructions += code.size();
            ++regions;
        }
    }
    // 69 main programs and 62 preambles; the count includes the 8 `trap`s Mesa
    // appends after each program's stop.
    CHECK(regions == 131);
    CHECK(instructions == 19613);
    CHECK(mnemonics["trap"] == 8 * regions);
    CHECK(mnemonics.count("<disassembly failed>") == 0);
}
