// The binary trace format v2: round trips with the text format, random
// access to sections, streaming in bounded memory, and bad files.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "sim/common/errors.hpp"
#include "sim/trace/binary_trace.hpp"
#include "sim/trace/binary_trace_checksum.hpp"
#include "sim/trace/open_trace.hpp"
#include "sim/trace/program_workload.hpp"
#include "sim/trace/text_trace.hpp"
#include "sim/trace/trace_writer.hpp"
#include "tests/unit/resident_memory.hpp"
#include "tests/unit/temp_file.hpp"

using namespace agx;
using test::TempFile;

namespace {

std::string example(const std::string& name) {
    return std::string(AGX_SOURCE_DIR) + "/traces/examples/" + name;
}

// Converts any trace file to the given format, at `out`.
void convert(const std::string& in, const TempFile& out, bool binary) {
    std::ofstream file(out.path(), std::ios::binary);
    auto writer = binary ? make_binary_trace_writer(file) : make_text_trace_writer(file);
    replay_trace(in, *writer);
}

std::uint32_t simd_count(const Workload& w) {
    return w.launch().threadgroups * w.launch().simds_per_threadgroup();
}

// Every simd's stream of `a` equals `b`'s, instruction by instruction.
void require_same_streams(Workload& a, Workload& b, bool compare_lines) {
    REQUIRE(a.launch().threads_per_threadgroup == b.launch().threads_per_threadgroup);
    REQUIRE(a.launch().threadgroups == b.launch().threadgroups);
    REQUIRE(a.launch().registers_halves == b.launch().registers_halves);
    REQUIRE(a.launch().threadgroup_memory_bytes == b.launch().threadgroup_memory_bytes);
    REQUIRE(a.launch().overhead_cycles == b.launch().overhead_cycles);
    REQUIRE(a.launch().code_in_l2_bytes == b.launch().code_in_l2_bytes);
    const std::uint32_t per_group = a.launch().simds_per_threadgroup();
    for (std::uint32_t g = 0; g < simd_count(a); ++g) {
        auto sa = a.open(g / per_group, g % per_group);
        auto sb = b.open(g / per_group, g % per_group);
        std::size_t n = 0;
        for (;; ++n) {
            const Instruction* x = sa->peek();
            const Instruction* y = sb->peek();
            INFO("simd " << g << " instruction " << n);
            REQUIRE((x == nullptr) == (y == nullptr));
            if (!x) break;
            REQUIRE(same_instruction(*x, *y, compare_lines));
            sa->advance();
            sb->advance();
        }
    }
}

std::string error_of(const std::string& path) {
    try {
        open_binary_trace(path);
    } catch (const InputError& e) {
        return e.what();
    }
    return "no error";
}

const std::string kHeader =
    "agxsim-trace 1\n"
    "launch threads_per_threadgroup=32 threadgroups=1 registers=64\n";

// Every feature of the format: masks, slots, explicit lanes, negative
// strides, uniforms, immediates, hints, 16-bit vectors, nested repeats,
// sections out of order, an empty section.
const std::string kRichTrace =
    "agxsim-trace 1\n"
    "kernel name=rich\n"
    "launch threads_per_threadgroup=96 threadgroups=2 registers=64 threadgroup_memory=512 "
    "overhead=1200 code_in_l2=4096\n"
    "simd 3..5\n"
    "  repeat 2\n"
    "    fadd16 r5h, r5l.cache, u3h\n"
    "    repeat 3\n"
    "      fmadd32 r1, r1.discard, 1.5, -2 mask=0x0000ffff\n"
    "    end\n"
    "    imul32x64 r2_r3, r4, 7\n"
    "  end\n"
    "  device_load r8_r9_r10_r11, u0_u1 slot=1 size=128 addr=0x4000-16*lane\n"
    "  wait 1\n"
    "end\n"
    "simd 0\n"
    "end\n"
    "simd 1..2\n"
    "  device_load r4l_r4h_r5l, u0_u1 size=48 addr=[0,8,16,24,32,40,48,56,64,72,80,88,96,104,"
    "112,120,128,136,144,152,160,168,176,184,192,200,208,216,224,232,240,0xfffffffffffe]\n"
    "  wait 0\n"
    "  get_sr r6, sr80\n"
    "  mov r7, 0xdeadbeef\n"
    "end\n";

// Writes a binary trace of one simd (one 32-thread threadgroup) whose
// `count` instructions come from make(i).
template <class Make>
void write_one_simd(const std::string& path, std::uint32_t registers_halves, std::uint32_t count,
                    Make make) {
    std::ofstream out(path, std::ios::binary);
    auto w = make_binary_trace_writer(out);
    Launch l;
    l.threads_per_threadgroup = 32;
    l.threadgroups = 1;
    l.registers_halves = registers_halves;
    w->begin(l, "flat");
    w->begin_section(0, 0);
    for (std::uint32_t i = 0; i < count; ++i) w->instruction(make(i));
    w->end_section();
    w->finish();
}

}  // namespace

TEST_CASE("crc32 is zlib's", "[binary_trace]") {
    CHECK(binary_trace::crc32("123456789", 9) == 0xCBF43926u);
    const std::string s(1000, 'x');
    CHECK(binary_trace::crc32(s.data() + 3, 997, binary_trace::crc32(s.data(), 3)) ==
          binary_trace::crc32(s.data(), 1000));
}

TEST_CASE("examples: text -> binary -> identical instruction streams", "[binary_trace]") {
    for (const char* name :
         {"ffma_chain.trace", "fadd16_ilp4.trace", "imad_fadd_mix.trace", "load_wait_use.trace"}) {
        INFO(name);
        TempFile bin(".agxb");
        convert(example(name), bin, true);
        CHECK(detect_trace_format(bin.path()) == TraceFormat::Binary);
        auto text = open_text_trace(example(name));
        auto binary = open_binary_trace(bin.path());
        CHECK(binary->name() == bin.path());
        require_same_streams(*text, *binary, true);  // source lines are kept

        // And back to text: the same streams, but lines are those of the new file.
        TempFile back(".trace");
        convert(bin.path(), back, false);
        CHECK(detect_trace_format(back.path()) == TraceFormat::Text);
        auto again = open_text_trace(back.path());
        require_same_streams(*text, *again, false);
    }
}

TEST_CASE("every feature of the text format survives both conversions", "[binary_trace]") {
    TempFile src(".trace"), bin(".agxb"), back(".trace"), bin2(".agxb");
    src.write(kRichTrace);
    convert(src.path(), bin, true);
    convert(bin.path(), back, false);
    convert(back.path(), bin2, true);
    auto text = open_text_trace(src.path());
    auto binary = open_binary_trace(bin.path());
    require_same_streams(*text, *binary, true);
    auto text2 = open_text_trace(back.path());
    require_same_streams(*text, *text2, false);
    auto binary2 = open_binary_trace(bin2.path());
    require_same_streams(*text, *binary2, false);
    CHECK(back.read().find("kernel name=rich") != std::string::npos);
    CHECK(binary->launch().overhead_cycles == 1200);
    CHECK(binary->launch().code_in_l2_bytes == 4096);
    CHECK(back.read().find("repeat 3") != std::string::npos);  // structure, not flattened
}

TEST_CASE("open_trace tells formats by their bytes, not their names", "[binary_trace]") {
    TempFile bin(".trace"), text(".agxb");
    convert(example("ffma_chain.trace"), bin, true);
    text.write(kHeader + "simd 0\n  fadd32 r0, r0, r1\nend\n");
    auto a = open_trace(bin.path());
    auto b = open_trace(text.path());
    CHECK(a->open(0, 0)->peek()->opcode == *isa::Catalogue::instance().find("fmadd32"));
    CHECK(b->open(0, 0)->peek()->opcode == *isa::Catalogue::instance().find("fadd32"));
    CHECK_THROWS_AS(open_trace("/nonexistent/x.agxb"), InputError);
}

TEST_CASE("repeat bodies and sections spanning many chunks", "[binary_trace]") {
    // 3000 distinct instructions in a repeat body make it span several
    // 32 KiB chunks, so every pass jumps back across chunks.
    std::string text = kHeader.substr(0, kHeader.find("threadgroups=1")) +
                       "threadgroups=5 registers=64\nsimd 0\n  repeat 3\n";
    for (int i = 0; i < 3000; ++i)
        text += "    fmadd32 r" + std::to_string(i % 30) + ", r1, " + std::to_string(i) + ", r2\n";
    text += "  end\n";
    for (int i = 0; i < 5000; ++i) text += "  iadd32 r3, r3, " + std::to_string(i) + "\n";
    text += "end\nsimd 1\n  repeat 2\n    repeat 2\n      fadd32 r0, r0, r1\n    end\n  end\nend\n";
    // Memory accesses, whose bases are deltas, up and down, across chunks,
    // repeat passes and replayed bodies.
    text += "simd 4\n  repeat 3\n";
    for (int i = 0; i < 4000; ++i)
        text += "    device_load r" + std::to_string(4 + i % 8) + ", u0_u1 addr=" +
                std::to_string((i % 7 == 3 ? 0x900000 : 0x10000) + 128 * (i % 1000)) +
                (i % 3 ? "+4*lane" : "-8*lane") + "\n";
    text += "  end\n  repeat 4\n    device_load r4, u0_u1 addr=0x40+4*lane\n";
    text += "    device_load r5, u0_u1 addr=0x20+4*lane\n  end\n";
    text += "  device_load r6, u0_u1 addr=0x7fff00+4*lane\nend\n";
    // Bodies at and just past the length a stream replays from a decoded copy.
    for (int simd : {2, 3}) {
        text += "simd " + std::to_string(simd) + "\n  repeat 5\n";
        for (int i = 0; i < 62 + simd; ++i)
            text += "    iadd32 r4, r4, " + std::to_string(i) + "\n";
        text += "  end\n  fadd32 r0, r0, r1\nend\n";
    }
    TempFile src(".trace"), bin(".agxb");
    src.write(text);
    convert(src.path(), bin, true);
    auto t = open_text_trace(src.path());
    auto b = open_binary_trace(bin.path());
    require_same_streams(*t, *b, true);
}

TEST_CASE("sections open in any order and interleave", "[binary_trace]") {
    // 64 sections of different lengths and contents.
    std::string text =
        "agxsim-trace 1\nlaunch threads_per_threadgroup=256 threadgroups=8 registers=32\n";
    for (int s = 63; s >= 0; --s) {
        text += "simd " + std::to_string(s) + "\n  repeat " + std::to_string(s + 1) + "\n";
        text += "    iadd32 r1, r1, " + std::to_string(s) + "\n    fadd32 r2, r2, r3\n  end\nend\n";
    }
    TempFile src(".trace"), bin(".agxb");
    src.write(text);
    convert(src.path(), bin, true);
    auto t = open_text_trace(src.path());
    auto b = open_binary_trace(bin.path());

    std::vector<std::uint32_t> order(64);
    for (std::uint32_t i = 0; i < 64; ++i) order[i] = i;
    std::shuffle(order.begin(), order.end(), std::mt19937(42));
    std::vector<std::unique_ptr<InstructionStream>> ts, bs;
    for (std::uint32_t g : order) {
        ts.push_back(t->open(g / 8, g % 8));
        bs.push_back(b->open(g / 8, g % 8));
    }
    std::mt19937 pick(7);
    std::size_t live = 64, total = 0;
    while (live > 0) {
        const std::size_t k = pick() % 64;
        const Instruction* x = ts[k]->peek();
        const Instruction* y = bs[k]->peek();
        REQUIRE((x == nullptr) == (y == nullptr));
        if (!x) continue;
        REQUIRE(same_instruction(*x, *y));
        if (y->src[1].kind == OperandKind::Imm) CHECK(y->src[1].imm == order[k]);
        ts[k]->advance();
        bs[k]->advance();
        ++total;
        if (!ts[k]->peek()) --live;
    }
    CHECK(total == 64 * 65);  // sum of 2 * (s + 1)
}

TEST_CASE("a workload is written with identical simds sharing a section", "[binary_trace]") {
    Launch l;
    l.threads_per_threadgroup = 128;
    l.threadgroups = 2;
    l.registers_halves = 16;
    std::vector<Instruction> body = {
        make_instruction("fmadd32", {reg32(0), reg32(0), reg32(1), reg32(2)}, 0),
        make_instruction("rsqrt32", {reg32(3), reg32(0)}, 4)};
    ProgramWorkload w("program", l, body, 50);
    TempFile bin(".agxb"), text(".trace");
    {
        std::ofstream out(bin.path(), std::ios::binary);
        write_workload(w, "program", *make_binary_trace_writer(out));
    }
    {
        std::ofstream out(text.path(), std::ios::binary);
        write_workload(w, "program", *make_text_trace_writer(out));
    }
    auto b = open_binary_trace(bin.path());
    require_same_streams(w, *b, true);
    const std::string t = text.read();
    CHECK(t.find("simd 0..7\n") != std::string::npos);  // one section for all 8 simds
    // The text format numbers pcs itself, so compare what it keeps.
    auto tw = open_text_trace(text.path());
    auto s = tw->open(1, 3);
    std::size_t n = 0;
    for (; s->peek(); s->advance(), ++n) CHECK(s->peek()->opcode == body[n % 2].opcode);
    CHECK(n == 100);
}

TEST_CASE("writers refuse calls out of order", "[binary_trace]") {
    std::ostringstream out;
    auto w = make_binary_trace_writer(out);
    Launch l;
    l.threads_per_threadgroup = 64;
    l.threadgroups = 1;
    l.registers_halves = 8;
    CHECK_THROWS_AS(w->begin_section(0, 1), std::invalid_argument);
    w->begin(l, "");
    w->begin_section(0, 0);
    CHECK_THROWS_AS(w->begin_repeat(0), std::invalid_argument);
    CHECK_THROWS_AS(w->end_repeat(), std::invalid_argument);
    w->end_section();
    CHECK_THROWS_AS(w->finish(), std::invalid_argument);  // simd 1 has no section
}

TEST_CASE("a binary trace streams in bounded memory", "[binary_trace][streaming]") {
    // 400k distinct instructions (no repeat block): about 300 chunks.
    constexpr std::uint32_t kCount = 400000;
    TempFile bin(".agxb");
    Instruction in = make_instruction("fadd32", {reg32(0), reg32(0), imm(0)});
    write_one_simd(bin.path(), 64, kCount, [&](std::uint32_t i) {
        in.src[1].imm = i;
        in.pc = 4 * i;
        return in;
    });
    const std::size_t rss0 = agx_test::resident_bytes();
    auto w = open_binary_trace(bin.path());
    auto s = w->open(0, 0);
    std::size_t rss_peak = agx_test::resident_bytes();
    std::uint32_t n = 0;
    bool in_order = true;
    while (const Instruction* i = s->peek()) {
        in_order = in_order && i->src[1].imm == n && i->pc == 4 * n;
        s->advance();
        if (++n % 50000 == 0) rss_peak = std::max(rss_peak, agx_test::resident_bytes());
    }
    CHECK(n == kCount);
    CHECK(in_order);
    // Stored, 400k Instructions would take ~140 MB; streaming holds a few chunks.
    if (agx_test::kResidentMemoryMeasurable)
        CHECK(rss_peak < rss0 + 8 * 1024 * 1024);
    else
        WARN("resident memory is not checked under AddressSanitizer");
}

TEST_CASE("a binary trace changed after it was opened stops its streams",
          "[binary_trace][errors]") {
    TempFile bin(".agxb");
    convert(example("ffma_chain.trace"), bin, true);
    auto w = open_binary_trace(bin.path());
    const std::string bytes = bin.read();
    bin.write(bytes);  // the same bytes, but a new modification time
    try {
        w->open(0, 0)->peek();
        FAIL("a changed file was read");
    } catch (const InputError& e) {
        CHECK(std::string(e.what()) == bin.path() + ": the trace changed after it was opened");
    }
}

TEST_CASE("opening checks every record, not only checksums", "[binary_trace][errors]") {
    // The writer keeps what it is given; a register beyond the launch's makes
    // a file whose checksums are right but whose record is not.
    TempFile bin(".agxb");
    Instruction in = make_instruction("fadd32", {reg32(0), reg32(1), reg32(2)});
    write_one_simd(bin.path(), 8, 5000, [&](std::uint32_t i) {  // two chunks
        in.pc = 4 * i;
        in.src[1].first_half = i == 4321 ? 8 : 4;
        return in;
    });
    const std::string e = error_of(bin.path());
    INFO(e);
    CHECK(e.rfind(bin.path() + ": section 0 (simd 0), chunk ", 0) == 0);
    CHECK(e.find("fadd32 source 2: register halves 8..9 out of range") != std::string::npos);
}

TEST_CASE("bad binary files are InputErrors naming the file", "[binary_trace][errors]") {
    TempFile good(".agxb");
    convert(example("load_wait_use.trace"), good, true);
    const std::string bytes = good.read();
    REQUIRE(bytes.size() > 100);
    TempFile bad(".agxb");
    auto expect_error = [&](const std::string& content, const std::string& reason) {
        bad.write(content);
        const std::string e = error_of(bad.path());
        INFO(e);
        CHECK(e.rfind(bad.path() + ": ", 0) == 0);
        CHECK(e.find(reason) != std::string::npos);
        // open_trace sees the first byte and reports the same.
        if (!content.empty() && content[0] == '\x89') {
            try {
                open_trace(bad.path());
                FAIL("open_trace accepted a bad file");
            } catch (const InputError& x) {
                CHECK(std::string(x.what()) == e);
            }
        }
    };

    SECTION("magic") {
        expect_error("agxsim-trace 1\n", "bad magic");
        std::string b = bytes;
        b[3] = 'Y';
        expect_error(b, "bad magic");
        expect_error("", "bad magic");
    }
    SECTION("version") {
        std::string b = bytes;
        b[8] = 1;  // version 1: fixed-width records
        expect_error(b, "binary trace version 1 not supported (this agxsim reads version 2)");
        b[8] = 3;
        expect_error(b, "version 3 not supported");
    }
    SECTION("truncation at every length") {
        for (std::size_t n :
             {std::size_t{1}, std::size_t{8}, std::size_t{15}, std::size_t{16}, std::size_t{40},
              bytes.size() / 2, bytes.size() - 33, bytes.size() - 1})
            expect_error(bytes.substr(0, n), "truncated");
    }
    SECTION("corrupt chunk frame") {
        // The first chunk's frame starts right after the 16-byte header.
        for (std::size_t at : {std::size_t{16}, std::size_t{20}, std::size_t{30}}) {
            std::string b = bytes;
            b[at] = static_cast<char>(b[at] ^ 0x5a);
            expect_error(b, "corrupt frame");
        }
    }
    SECTION("corrupt index") {
        std::string b = bytes;
        b[b.size() - 40] = static_cast<char>(b[b.size() - 40] ^ 1);
        expect_error(b, "corrupt index");
    }
    SECTION("corrupt footer") {
        std::string b = bytes;
        b[b.size() - 32] = static_cast<char>(b[b.size() - 32] + 1);  // index offset
        expect_error(b, "corrupt footer");
    }
    SECTION("missing file") {
        CHECK_THROWS_AS(open_binary_trace(bad.path() + ".missing"), InputError);
    }
}
