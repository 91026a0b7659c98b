// The text trace format v1: examples, operand syntax, errors, streaming.
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "sim/common/errors.hpp"
#include "sim/trace/text_trace.hpp"
#include "sim/trace/trace_parse.hpp"
#include "tests/unit/resident_memory.hpp"
#include "tests/unit/temp_file.hpp"

using namespace agx;
using test::TempTrace;

namespace {

std::string example(const char* name) {
    return std::string(AGX_SOURCE_DIR) + "/traces/examples/" + name;
}

std::vector<Instruction> read_all(Workload& w, std::uint32_t tg, std::uint32_t simd) {
    std::vector<Instruction> out;
    auto s = w.open(tg, simd);
    while (const Instruction* i = s->peek()) {
        out.push_back(*i);
        s->advance();
    }
    return out;
}

isa::Opcode opcode(std::string_view m) {
    return *isa::Catalogue::instance().find(m);
}

const std::string kHeader =
    "agxsim-trace 1\n"
    "launch threads_per_threadgroup=32 threadgroups=1 registers=64\n";

// Parses one instruction line with 64 half-registers.
Instruction parse_line(const std::string& line) {
    static const std::string path = "test.trace";
    Instruction in;
    trace_detail::parse_instruction(line, {path, 7}, 64, in);
    return in;
}

std::string error_of(const std::string& text) {
    TempTrace t(text);
    try {
        open_text_trace(t.path());
    } catch (const InputError& e) {
        std::string m = e.what();
        // Replace the temporary path so messages compare independently of it.
        if (m.rfind(t.path(), 0) == 0) m = "T" + m.substr(t.path().size());
        return m;
    }
    return "no error";
}

// Every error is "<path>:<line>: reason", on one line.
void check_error(const std::string& text, unsigned line, const std::string& fragment) {
    std::string m = error_of(text);
    INFO(m);
    CHECK(m.rfind("T:" + std::to_string(line) + ": ", 0) == 0);
    CHECK(m.find(fragment) != std::string::npos);
    CHECK(m.find('\n') == std::string::npos);
}

}  // namespace

TEST_CASE("example ffma_chain: 1000 dependent fmadd32 on one simd", "[trace]") {
    auto w = open_text_trace(example("ffma_chain.trace"));
    CHECK(w->launch().threads_per_threadgroup == 32);
    CHECK(w->launch().threadgroups == 1);
    CHECK(w->launch().registers_halves == 8);
    CHECK(w->name() == example("ffma_chain.trace"));
    auto ins = read_all(*w, 0, 0);
    REQUIRE(ins.size() == 1000);
    for (const auto& i : ins) {
        CHECK(i.opcode == opcode("fmadd32"));
        CHECK(i.pc == 0);  // a repeat body reuses its pcs
    }
    const auto& i = ins[0];
    REQUIRE(i.num_dst == 1);
    REQUIRE(i.num_src == 3);
    CHECK(i.dst[0].first_half == 0);
    CHECK(i.src[0].first_half == 0);
    CHECK(i.src[1].first_half == 2);
    CHECK(i.src[2].first_half == 4);
    CHECK(i.src[2].halves == 2);
    CHECK(i.active_mask == kFullMask);
    CHECK(i.wait_slot == kNoSlot);
    CHECK(i.source_line > 0);
}

TEST_CASE("example fadd16_ilp4: 88 simds, 4 chains of 16-bit halves", "[trace]") {
    auto w = open_text_trace(example("fadd16_ilp4.trace"));
    const auto& l = w->launch();
    CHECK(l.threadgroups * l.simds_per_threadgroup() == 88);
    auto ins = read_all(*w, 10, 7);
    REQUIRE(ins.size() == 4096);
    CHECK(ins[0].pc == 0);
    CHECK(ins[1].pc == 4);
    CHECK(ins[3].pc == 12);
    CHECK(ins[4].pc == 0);
    CHECK(ins[1].dst[0].first_half == 1);  // r0h
    CHECK(ins[1].dst[0].halves == 1);
    CHECK(ins[2].dst[0].first_half == 2);  // r1l
    CHECK(ins[0].src[1].first_half == 4);  // r2l
    CHECK_THROWS_AS(w->open(11, 0), std::out_of_range);
    CHECK_THROWS_AS(w->open(0, 8), std::out_of_range);
}

TEST_CASE("example imad_fadd_mix: alternating pipelines at 24 simds", "[trace]") {
    auto w = open_text_trace(example("imad_fadd_mix.trace"));
    const auto& l = w->launch();
    CHECK(l.threadgroups * l.simds_per_threadgroup() >= 24);
    auto ins = read_all(*w, 2, 7);
    REQUIRE(ins.size() == 1000);
    CHECK(ins[0].opcode == opcode("imadd32"));
    CHECK(ins[1].opcode == opcode("fadd32"));
    CHECK(ins[999].opcode == opcode("fadd32"));
}

TEST_CASE("example load_wait_use: load, wait, use", "[trace]") {
    auto w = open_text_trace(example("load_wait_use.trace"));
    auto ins = read_all(*w, 0, 0);
    REQUIRE(ins.size() == 302);
    const auto& ld = ins[0];
    CHECK(ld.opcode == opcode("device_load"));
    CHECK(ld.wait_slot == 0);
    CHECK(ld.dst[0].first_half == 8);  // r4
    CHECK(ld.src[0].kind == OperandKind::Uniform);
    CHECK(ld.src[0].halves == 4);
    CHECK(ld.mem.bytes_per_lane == 4);
    CHECK(ld.mem.address(0) == 0x10000);
    CHECK(ld.mem.address(31) == 0x10000 + 4 * 31);
    CHECK(ins[1].opcode == opcode("wait"));
    CHECK(ins[1].wait_slot == 0);
    CHECK(ins[2].src[1].hint == CacheHint::Discard);
    CHECK(ins[300].opcode == opcode("device_store"));
    CHECK(ins[300].wait_slot == 1);
    CHECK(ins[301].wait_slot == 1);
    auto other = read_all(*w, 0, 1);
    CHECK(other[0].mem.address(0) == 0x10080);
}

TEST_CASE("operands: halves, pairs, vectors, uniforms, immediates, hints", "[trace]") {
    auto a = parse_line("fadd16 r5h, r5l.cache, u3h");
    CHECK(a.dst[0].first_half == 11);
    CHECK(a.dst[0].halves == 1);
    CHECK(a.src[0].first_half == 10);
    CHECK(a.src[0].hint == CacheHint::Cache);
    CHECK(a.src[1].kind == OperandKind::Uniform);
    CHECK(a.src[1].first_half == 7);

    auto b = parse_line("imul32x64 r4_r5, r6.discard, 0x10");
    CHECK(b.dst[0].first_half == 8);
    CHECK(b.dst[0].halves == 4);
    CHECK(b.src[0].hint == CacheHint::Discard);
    CHECK(b.src[1].kind == OperandKind::Imm);
    CHECK(b.src[1].imm == 16);

    auto c = parse_line("fmadd32 r0, -1, 1.0, u10");
    CHECK(c.src[0].imm == 0xffffffffu);
    CHECK(c.src[1].imm == 0x3f800000u);
    CHECK(c.src[2].first_half == 20);

    auto d = parse_line(
        "device_load r4_r5_r6_r7, u0_u1, r8 size=128 addr=0x1000+16*lane mask=0x0000ffff slot=1");
    CHECK(d.dst[0].halves == 8);
    CHECK(d.num_src == 2);
    CHECK(d.mem.bytes_per_lane == 16);
    CHECK(d.mem.address(2) == 0x1020);
    CHECK(d.active_mask == 0x0000ffffu);
    CHECK(d.wait_slot == 1);

    auto e = parse_line("device_load r4l addr=0x2000-2*lane size=8");
    CHECK(e.dst[0].halves == 1);
    CHECK(e.mem.bytes_per_lane == 1);
    CHECK(e.mem.address(1) == 0x2000 - 2);
    CHECK(e.wait_slot == 0);  // default slot

    std::string lanes = "[";
    for (int i = 0; i < 32; ++i) lanes += (i ? ", " : "") + std::to_string(1000 + 64 * (31 - i));
    auto f = parse_line("threadgroup_store r2, r3 addr=" + lanes + "]");
    CHECK(f.mem.explicit_lanes);
    CHECK(f.mem.address(0) == 1000 + 64 * 31);
    CHECK(f.mem.address(31) == 1000);
    CHECK(f.mem.bytes_per_lane == 4);  // from the data register
    CHECK(f.wait_slot == kNoSlot);     // threadgroup memory has no wait slot

    auto g = parse_line("get_sr r1, sr80");
    CHECK(g.src[0].imm == 80);
    auto h = parse_line("wait 1");
    CHECK(h.wait_slot == 1);
    auto i = parse_line("mov r3l, r2h   ");
    CHECK(i.dst[0].halves == 1);
    CHECK(parse_line("threadgroup_barrier").num_src == 0);
    auto j = parse_line("mov r4_r5, u0_u1");
    CHECK(j.dst[0].halves == 4);
    CHECK(j.src[0].halves == 4);
    auto k = parse_line("device_store r4l_r4h_r5l, u0_u1 addr=0x40+6*lane");
    CHECK(k.src[0].halves == 3);
    CHECK(k.mem.bytes_per_lane == 6);
    CHECK(parse_line("device_load r4 addr=64").mem.address(31) == 64);  // one address for all lanes
}

TEST_CASE("float immediates: decimal literals to binary32, hex floats and '+' refused", "[trace]") {
    // Read with strtof, which every C++ library has (Apple's lacks
    // std::from_chars for floats), to the same bits.
    CHECK(parse_line("fadd32 r0, r0, 1.5").src[1].imm == 0x3fc00000u);
    CHECK(parse_line("fadd32 r0, r0, -2.5e-1").src[1].imm == 0xbe800000u);
    CHECK(parse_line("fadd32 r0, r0, 1e10").src[1].imm == 0x501502f9u);
    CHECK(parse_line("fadd32 r0, r0, 1e-40").src[1].imm == 0x000116c2u);    // subnormal, kept
    CHECK_THROWS_AS(parse_line("fadd32 r0, r0, 1.5e39"), agx::InputError);  // past binary32
    CHECK_THROWS_AS(parse_line("fadd32 r0, r0, 1e-50"), agx::InputError);   // underflows to 0
    CHECK_THROWS_AS(parse_line("fadd32 r0, r0, +1.5"), agx::InputError);
    CHECK_THROWS_AS(parse_line("fadd32 r0, r0, 1.5f"), agx::InputError);
}

TEST_CASE("pcs accumulate encoded lengths, repeat bodies reuse theirs", "[trace]") {
    TempTrace t(kHeader +
                "simd 0\n"
                "  fadd32 r0, r0, r1\n"
                "  repeat 2\n"
                "    fmadd32 r0, r0, r1, r2   # inner\n"
                "    repeat 3\n"
                "      wait 0\n"
                "    end\n"
                "  end\n"
                "  fadd32 r0, r0, r1\n"
                "end\n");
    auto w = open_text_trace(t.path());
    auto ins = read_all(*w, 0, 0);
    REQUIRE(ins.size() == 1 + 2 * (1 + 3) + 1);
    const auto& cat = isa::Catalogue::instance();
    std::uint32_t fadd = cat.info(opcode("fadd32")).encoded_bytes;
    std::uint32_t fma = cat.info(opcode("fmadd32")).encoded_bytes;
    std::uint32_t wait = cat.info(opcode("wait")).encoded_bytes;
    CHECK(ins[0].pc == 0);
    CHECK(ins[1].pc == fadd);
    CHECK(ins[2].pc == fadd + fma);
    CHECK(ins[4].pc == fadd + fma);
    CHECK(ins[5].pc == fadd);  // second pass of the outer body
    CHECK(ins[9].pc == fadd + fma + wait);
    CHECK(ins[9].source_line == 11);
    CHECK(ins[2].source_line == 8);
}

TEST_CASE("ranges share a stream, sections cover simds in any order", "[trace]") {
    TempTrace t(
        "# comment first\n"
        "\n"
        "agxsim-trace 1\r\n"
        "kernel name=two\n"
        "launch threads_per_threadgroup=64 threadgroups=2 registers=8 threadgroup_memory=1024\n"
        "simd 2..3\n  fadd32 r0, r0, r1\nend\n"
        "simd 0..1\n  fmul32 r0, r0, r1\n  fmul32 r0, r0, r1\nend\n"
        "simd 2\n");  // would overlap: replaced below
    t.write(
        "agxsim-trace 1\r\n"
        "launch threads_per_threadgroup=64 threadgroups=2 registers=8 threadgroup_memory=1024\n"
        "simd 2..3\n  fadd32 r0, r0, r1\nend\n"
        "simd 0..1\n  fmul32 r0, r0, r1\r\n  fmul32 r0, r0, r1\nend");  // no final newline
    auto w = open_text_trace(t.path());
    CHECK(w->launch().threadgroup_memory_bytes == 1024);
    CHECK(read_all(*w, 0, 1).size() == 2);
    CHECK(read_all(*w, 1, 0).size() == 1);
    CHECK(read_all(*w, 1, 1)[0].opcode == opcode("fadd32"));
}

TEST_CASE("empty sections and peek/advance contract", "[trace]") {
    TempTrace t(kHeader + "simd 0\nend\n");
    auto w = open_text_trace(t.path());
    auto s = w->open(0, 0);
    CHECK(s->peek() == nullptr);
    CHECK(s->peek() == nullptr);
}

TEST_CASE("trace errors name file and line", "[trace]") {
    const std::string h = kHeader;  // lines 1-2
    check_error("agxsim-trace 2\n", 1, "version 2 not supported");
    check_error("# only\nlaunch threads_per_threadgroup=32 threadgroups=1 registers=8\n", 2,
                "not an agxsim trace");
    check_error("", 1, "empty trace");
    check_error(h + "simd 0\n  fmad32 r0, r0, r1, r2\nend\n", 4,
                "unknown mnemonic 'fmad32' (did you mean 'fmadd32'?)");
    check_error(h + "simd 0\n  fmadd32 r0, r0, r1\nend\n", 4, "fmadd32 expects 4 operands, got 3");
    check_error(h + "simd 0\n  fadd32 r0, r, r1\nend\n", 4, "bad register 'r'");
    check_error(h + "simd 0\n  fadd32 r40, r0, r1\nend\n", 4,
                "register r40 out of range: launch declares 64 half-registers");
    check_error(h + "simd 0\n  fadd32 r0, r0l, r1\nend\n", 4,
                "expected a 32-bit operand, got 16-bit");
    check_error(h + "simd 0\n  fadd32 5, r0, r1\nend\n", 4, "a destination must be a register");
    check_error(h + "simd 0\n  wait r0\nend\n", 4, "expected an immediate");
    check_error(h + "simd 0\n  wait 2\nend\n", 4, "wait slot 2 out of range");
    check_error(h + "simd 0\n  mov r4_r5_r6, r0\nend\n", 4,
                "expected a 16-bit, 32-bit or 64-bit register");
    check_error(h + "simd 0\n  mov_imm r0, r1\nend\n", 4, "expected an immediate");
    check_error(h + "simd 0\n  fadd32 r0, r4_r6, r1\nend\n", 4, "must be consecutive");
    check_error(h + "simd 0\n  imul32x64 r3_r4, r0, r1\nend\n", 4, "even register");
    check_error(h + "simd 0\n  fadd32 r0, r0 r1\nend\n", 4, "missing ','");
    check_error(h + "simd 0\n  fadd32 r0, r0, r1 mask=0x1ffffffff\nend\n", 4, "bad value");
    check_error(h + "simd 0\n  fadd32 r0, r0, r1 slot=0\nend\n", 4, "slot= only applies");
    check_error(h + "simd 0\n  fadd32 r0, r0, r1 color=red\nend\n", 4, "unknown attribute 'color'");
    check_error(h + "simd 0\n  device_load r4\nend\n", 4, "needs addr=");
    check_error(h + "simd 0\n  device_load r4 addr=[1,2,3]\nend\n", 4,
                "addr= list has 3 entries, expected 32");
    check_error(h + "simd 0\n  device_load r4 size=64 addr=0\nend\n", 4, "does not fit");
    check_error(h + "simd 0\n  fadd32 r0, r0.bogus, r1\nend\n", 4, "bad register");
    check_error(h + "simd 0\n  fadd32 r0, u1.cache, r1\nend\n", 4,
                "cache hints only apply to registers");
    check_error(
        "agxsim-trace 1\nlaunch threads_per_threadgroup=128 threadgroups=1 registers=8\n"
        "simd 0..3\n  fadd32 r0, r0, r1\n",
        4, "truncated: section 'simd 0..3' has no 'end'");
    check_error(h + "simd 0\n  repeat 4\n  fadd32 r0, r0, r1\n", 5,
                "truncated: 'repeat' at line 4");
    check_error(h + "simd 0\n  repeat 4\n  fadd32 r0, r0, r1\nend\n", 6,
                "truncated: section 'simd 0' has no 'end'");
    check_error(h + "simd 0\n  repeat 0\n  end\nend\n", 4, "bad repeat count");
    check_error(h + "simd 0\nend\nend\n", 5, "'end' outside any section");
    check_error(h + "simd 0\nsimd 1\n", 4, "'simd' inside section 'simd 0'");
    check_error(h + "simd 1\nend\n", 3, "out of range: the launch has 1 simds");
    check_error(
        "agxsim-trace 1\nlaunch threads_per_threadgroup=64 threadgroups=3 registers=8\n"
        "simd 0..4\nend\n",
        2, "simd 5 has no instruction stream");
    check_error(
        "agxsim-trace 1\nlaunch threads_per_threadgroup=64 threadgroups=1 registers=8\n"
        "simd 0..1\nend\nsimd 1\nend\n",
        5, "simd 1 has two instruction streams (lines 3 and 5)");
    check_error("agxsim-trace 1\nsimd 0\nend\n", 2, "'simd' section before the 'launch' line");
    check_error("agxsim-trace 1\nlaunch threadgroups=1 registers=8\n", 2,
                "launch needs threads_per_threadgroup=");
    check_error("agxsim-trace 1\nlaunch threads_per_threadgroup=32 threadgroups=1 registers=300\n",
                2, "registers must be 1..256");
    check_error("agxsim-trace 1\n", 1, "no 'launch' line");
}

TEST_CASE("a missing file is an InputError naming the path", "[trace]") {
    try {
        open_text_trace("/nonexistent/dir/x.trace");
        FAIL("no error");
    } catch (const InputError& e) {
        std::string m = e.what();
        CHECK(m.rfind("/nonexistent/dir/x.trace: cannot open trace: ", 0) == 0);
        CHECK(m.find('\n') == std::string::npos);
    }
}

TEST_CASE("streams read lazily: open() keeps no instructions", "[trace][streaming]") {
    // Rewriting an instruction after open() (same length, still valid) shows
    // up in the stream: the instructions were not stored by the index pass.
    const std::string before = kHeader + "simd 0\n  fadd32 r0, r0, r1\nend\n";
    const std::string after = kHeader + "simd 0\n  fmul32 r0, r0, r1\nend\n";
    TempTrace t(before);
    auto w = open_text_trace(t.path());
    t.write(after);
    auto ins = read_all(*w, 0, 0);
    REQUIRE(ins.size() == 1);
    CHECK(ins[0].opcode == opcode("fmul32"));
}

TEST_CASE("a 200k-instruction trace streams in bounded memory", "[trace][streaming]") {
    constexpr int kLines = 200000;
    std::string text = kHeader + "simd 0\n";
    text.reserve(text.size() + kLines * 40);
    for (int i = 0; i < kLines; ++i)
        text += (i % 2 ? "  fmadd32 r1, r1, r2, r3 mask=0xffff\n" : "  fadd32 r0, r0, r2\n");
    text += "end\n";
    TempTrace t(text);
    text.clear();
    text.shrink_to_fit();

    const std::size_t rss0 = agx_test::resident_bytes();
    auto w = open_text_trace(t.path());
    auto s = w->open(0, 0);
    std::size_t n = 0, masked = 0;
    std::size_t rss_peak = agx_test::resident_bytes();
    while (const Instruction* i = s->peek()) {
        masked += i->active_mask == 0xffffu;
        s->advance();
        if (++n % 50000 == 0) rss_peak = std::max(rss_peak, agx_test::resident_bytes());
    }
    CHECK(n == kLines);
    CHECK(masked == kLines / 2);
    // Stored, 200k Instructions would take ~80 MB; streaming needs buffers only.
    if (agx_test::kResidentMemoryMeasurable)
        CHECK(rss_peak < rss0 + 8 * 1024 * 1024);
    else
        WARN("resident memory is not checked under AddressSanitizer");
}

TEST_CASE("many resident streams share one file descriptor", "[trace][streaming]") {
    auto w = open_text_trace(example("fadd16_ilp4.trace"));
    std::vector<std::unique_ptr<InstructionStream>> streams;
    for (std::uint32_t tg = 0; tg < 11; ++tg)
        for (std::uint32_t s = 0; s < 8; ++s) streams.push_back(w->open(tg, s));
    // Interleave them like a scheduler would.
    std::size_t total = 0;
    for (int round = 0; round < 4096; ++round)
        for (auto& s : streams)
            if (s->peek()) {
                s->advance();
                ++total;
            }
    CHECK(total == 88u * 4096u);
    for (auto& s : streams) CHECK(s->peek() == nullptr);
}

TEST_CASE("long lines grow the buffers, overlong lines are errors", "[trace][streaming]") {
    const std::string comment = "  # " + std::string(10000, 'x') + "\n";
    TempTrace t(kHeader + "simd 0\n  repeat 3\n" + comment + "    fadd32 r0, r0, r1\n" + comment +
                "  end\nend\n");
    auto w = open_text_trace(t.path());
    auto ins = read_all(*w, 0, 0);
    REQUIRE(ins.size() == 3);
    CHECK(ins[2].source_line == 6);

    check_error(kHeader + "simd 0\n#" + std::string(70000, 'x') + "\nend\n", 4, "line longer than");
}
