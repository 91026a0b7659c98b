// The kernel executor without the timing model: a simd's stream is driven
// by hand (peek, advance) and its masks, registers and buffers checked
// against values computed here.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "isa/semantics.hpp"
#include "sim/common/errors.hpp"
#include "sim/kernel/fp32_lanes.hpp"
#include "sim/kernel/kernel_workload.hpp"
#include "tests/unit/temp_file.hpp"

using namespace agx;
using agx::kernel::KernelWorkload;

namespace {

// A one-threadgroup kernel of `threads` threads around `code`, with a
// buffer `out` of 1024 u32 bound to u0_u1 and `in` (iota) bound to u2_u3.
struct Run {
    test::TempFile file{".agxk"};
    std::unique_ptr<KernelWorkload> k;
    std::vector<std::uint32_t> masks;  // of every instruction executed, in order
    std::vector<std::uint32_t> pcs;

    Run(const std::string& code, unsigned threads = 32, const std::string& extra = "",
        const std::string& launch = "") {
        file.write("agxsim-kernel 1\n" +
                   (launch.empty() ? "launch grid=" + std::to_string(threads) +
                                         " threadgroup=" + std::to_string(threads) +
                                         " registers=64 threadgroup_memory=1024\n"
                                   : launch) +
                   "buffer out size=4096 fill=zero\nbuffer in size=4096 fill=iota type=u32\n"
                   "uniform u0_u1 buffer=out\nuniform u2_u3 buffer=in\n" +
                   extra + code);
        k = std::make_unique<KernelWorkload>(kernel::load_kernel(file.path(), "", {}));
    }

    // Runs every simd of threadgroup 0 to its end, one after the other.
    Run& go() {
        const std::uint32_t simds = k->launch().simds_per_threadgroup();
        for (std::uint32_t s = 0; s < simds; ++s) {
            auto stream = k->open(0, s);
            while (const Instruction* in = stream->peek()) {
                masks.push_back(in->active_mask);
                pcs.push_back(in->pc);
                stream->advance();
            }
        }
        return *this;
    }

    std::uint32_t out(unsigned i) {
        std::uint32_t v = 0;
        auto& m = k->memory();
        m.read(m.base(*m.find_buffer("out")) + 4 * i, &v, 4);
        return v;
    }
    float outf(unsigned i) {
        const std::uint32_t v = out(i);
        float f;
        std::memcpy(&f, &v, 4);
        return f;
    }
};

// Stores r<reg> of every lane to out[lane].
std::string store_lanes(unsigned reg) {
    return "    get_sr r30, sr52\n    device_store r" + std::to_string(reg) +
           ", u0_u1, r30 slot=0\n";
}

// The next 32 random bits of a 64-bit linear congruential generator (Knuth's
// MMIX constants), for bit patterns the tests draw.
std::uint32_t lcg_bits(std::uint64_t& state) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<std::uint32_t>(state >> 32);
}

}  // namespace

TEST_CASE("kernel exec: nested if/else gives each lane the masks of its path") {
    // lane < 16: { lane even: A else: B } else: C
    Run r(
        "    get_sr r1, sr52\n"
        "    bitop32 r2, r1, 1 op=and\n"
        "    mov_imm r3, 0\n"
        "    if_icmp r1, 16 cc=ult\n"  // 0x0000ffff
        "    if_icmp r2, 0 cc=eq\n"    // 0x00005555
        "    mov_imm r3, 1\n"
        "    else_icmp 0, 0 cc=eq\n"  // 0x0000aaaa
        "    mov_imm r3, 2\n"
        "    pop_exec 1\n"            // 0x0000ffff
        "    else_icmp 0, 0 cc=eq\n"  // 0xffff0000
        "    mov_imm r3, 3\n"
        "    pop_exec 1\n" +  // all
        store_lanes(3) +
        "    stop\n");
    r.go();
    const std::vector<std::uint32_t> want = {
        0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff,  // get_sr, bitop, mov, if
        0x0000ffff,                                      // inner if
        0x00005555, 0x00005555,                          // mov 1, else
        0x0000aaaa, 0x0000aaaa,                          // mov 2, pop
        0x0000ffff,                                      // outer else
        0xffff0000, 0xffff0000,                          // mov 3, pop
        0xffffffff, 0xffffffff, 0xffffffff};             // get_sr, store, stop
    CHECK(r.masks == want);
    for (unsigned l = 0; l < 32; ++l) CHECK(r.out(l) == (l >= 16 ? 3u : l % 2 == 0 ? 1u : 2u));
}

TEST_CASE("kernel exec: a loop runs each lane its own trip count, then the simd goes on") {
    // lane l sums 1..in[l] (in = iota: l) with a loop of l passes.
    Run r(
        "    get_sr r1, sr52\n"
        "    device_load r2, u2_u3, r1 slot=0\n"
        "    wait 0\n"
        "    mov_imm r3, 0\n"
        "    mov_imm r4, 0\n"
        "    if_icmp r4, r2 cc=ult\n"
        "    jmp_exec_none done\n"
        "loop:\n"
        "    iadd32 r4, r4, 1\n"
        "    iadd32 r3, r3, r4\n"
        "    while_icmp r4, r2 cc=ult\n"
        "    jmp_exec_any loop\n"
        "done:\n"
        "    pop_exec 1\n" +
        store_lanes(3) + "    stop\n");
    r.go();
    for (unsigned l = 0; l < 32; ++l) CHECK(r.out(l) == l * (l + 1) / 2);
    // The loop body runs 31 times (lane 31's count); on pass p the lanes
    // still in the loop are those above p.
    std::size_t passes = 0;
    for (std::size_t i = 0; i < r.pcs.size(); ++i)
        if (r.pcs[i] == r.pcs[7]) {  // the body's first instruction
            CHECK(r.masks[i] == (0xfffffffeu << passes));
            ++passes;
        }
    CHECK(passes == 31);
}

TEST_CASE("kernel exec: break out of a loop by moving the level count into r0l") {
    // Every lane loops; lane l breaks when the counter reaches l + 1.
    Run r(
        "    get_sr r1, sr52\n"
        "    mov_imm r3, 0\n"
        "    if_icmp 0, 0 cc=eq\n"
        "loop:\n"
        "    iadd32 r3, r3, 1\n"
        "    iadd32 r5, r1, 1\n"
        "    icmpsel32 r6, r3, r5, 1, 0 cc=eq\n"  // r6 = (r3 == l + 1)
        "    if_icmp r6, 1 cc=eq\n"
        "    mov_imm r0l, 2\n"  // break: two levels
        "    pop_exec 0\n"
        "    pop_exec 1\n"
        "    while_icmp r3, 100 cc=ult\n"
        "    jmp_exec_any loop\n"
        "    pop_exec 1\n" +
        store_lanes(3) + "    stop\n");
    r.go();
    for (unsigned l = 0; l < 32; ++l) CHECK(r.out(l) == l + 1);
}

TEST_CASE("kernel exec: call and ret through the link register") {
    Run r(
        "    mov_imm r3, 5\n"
        "    call double_it\n"
        "    call double_it\n" +
        store_lanes(3) +
        "    stop\n"
        "double_it:\n"
        "    iadd32 r3, r3, r3\n"
        "    ret r1\n");
    r.go();
    CHECK(r.out(0) == 20);
    CHECK(r.out(31) == 20);
}

TEST_CASE("kernel exec: partial simds and threadgroups have only the grid's lanes") {
    Run r(store_lanes(1) + "    stop\n", 0, "", "launch grid=40 threadgroup=64 registers=64\n");
    r.go();
    // simd 0: 32 lanes; simd 1: 8 lanes (threads 32..39).
    CHECK(r.masks.front() == 0xffffffffu);
    CHECK(r.masks.back() == 0x000000ffu);
}

TEST_CASE("kernel exec: get_sr gives the launch's positions") {
    Run r(
        "    get_sr r1, sr80\n    get_sr r2, sr81\n    get_sr r3, sr51\n    get_sr r4, sr53\n"
        "    get_sr r5, sr0\n    get_sr r6, sr4\n"
        "    imadd32 r7, r2, 1000, r1\n" +
            store_lanes(7) + "    stop\n",
        0, "", "launch grid=16,8 threadgroup=8,4 registers=64\n");
    r.go();  // threadgroup (0,0): x 0..7, y 0..3; lane l is x = l % 8, y = l / 8
    for (unsigned l = 0; l < 32; ++l) CHECK(r.out(l) == (l / 8) * 1000 + l % 8);
}

TEST_CASE("kernel exec: shuffles, ballots and a 64-bit product") {
    Run sh("    get_sr r1, sr52\n    simd_shuffle_down r2, r1, 3\n" + store_lanes(2) +
           "    stop\n");
    sh.go();
    for (unsigned l = 0; l < 32; ++l) CHECK(sh.out(l) == (l + 3 < 32 ? l + 3 : l));
    Run b("    get_sr r1, sr52\n    icmp_ballot r2, r1, 4 cc=ult\n" + store_lanes(2) +
          "    stop\n");
    b.go();
    CHECK(b.out(7) == 0xfu);
    Run q("    get_sr r1, sr52\n    quad_shuffle r2, r1, 2\n" + store_lanes(2) + "    stop\n");
    q.go();
    for (unsigned l = 0; l < 32; ++l) CHECK(q.out(l) == (l & ~3u) + 2);
    Run m("    mov_imm r1, 0xffffffff\n    imul32x64 r2_r3, r1, r1\n" + store_lanes(3) +
          "    stop\n");
    m.go();
    CHECK(m.out(0) == 0xfffffffeu);  // (2^32-1)^2 = 0xfffffffe00000001
}

TEST_CASE("kernel exec: simd_matrix_fmadd32 multiplies 8x8 fragments") {
    // A[m][k] = m + k, B[k][n] = k - n, C = 1; lane l holds (m, n), (m, n+1).
    Run r(
        "    get_sr r1, sr52\n"
        "    shr r2, r1, 4\n    shl r2, r2, 2\n"             // 4 (l / 16)
        "    shr r3, r1, 1\n    bitop32 r3, r3, 3 op=and\n"  // (l / 2) % 4
        "    iadd32 r4, r2, r3\n"                            // m
        "    shr r5, r1, 3\n    bitop32 r5, r5, 1 op=and\n    shl r5, r5, 2\n"
        "    bitop32 r6, r1, 1 op=and\n    shl r6, r6, 1\n"
        "    iadd32 r5, r5, r6\n"                        // n
        "    iadd32 r8, r4, r5\n    iadd32 r9, r8, 1\n"  // A: m + n, m + n + 1
        "    convert r8, r8 mode=u32_to_f\n    convert r9, r9 mode=u32_to_f\n"
        "    iadd32 r10, r4, r5 neg=1\n    iadd32 r11, r10, 1 neg=1\n"  // B: m - n, m - n - 1
        "    convert r10, r10 mode=s32_to_f\n    convert r11, r11 mode=s32_to_f\n"
        "    mov_imm r12, 1.0\n    mov_imm r13, 1.0\n"
        "    simd_matrix_fmadd32 r14_r15, r8_r9, r10_r11, r12_r13\n"
        "    shl r16, r4, 3\n    iadd32 r16, r16, r5\n"  // 8 m + n
        "    device_store r14_r15, u0_u1, r16 slot=0\n"
        "    stop\n");
    r.go();
    for (int m = 0; m < 8; ++m)
        for (int n = 0; n < 8; ++n) {
            float want = 1;
            for (int k = 0; k < 8; ++k) want += static_cast<float>((m + k) * (k - n));
            CHECK(r.outf(8 * m + n) == want);
        }
}

TEST_CASE("kernel exec: simd_matrix_fmadd32 under a partial mask writes only the active lanes") {
    // A = B = 1 everywhere, C = lane: with the result written over C in the
    // even lanes only, an even lane holds 8 + its element of C and an odd
    // lane keeps C. Every element reads C before any lane is written.
    Run r(
        "    get_sr r1, sr52\n"
        "    convert r12, r1 mode=u32_to_f\n    mov r13, r12\n"  // C: both elements = lane
        "    mov_imm r8, 1.0\n    mov_imm r9, 1.0\n"
        "    bitop32 r2, r1, 1 op=and\n"
        "    if_icmp r2, 0 cc=eq\n"
        "    simd_matrix_fmadd32 r12_r13, r8_r9, r8_r9, r12_r13\n"
        "    pop_exec 1\n"
        "    shl r3, r1, 1\n"
        "    device_store r12_r13, u0_u1, r3 slot=0\n"
        "    stop\n");
    r.go();
    for (unsigned l = 0; l < 32; ++l) {
        const float want = static_cast<float>(l) + (l % 2 == 0 ? 8.0f : 0.0f);
        CHECK(r.outf(2 * l) == want);
        CHECK(r.outf(2 * l + 1) == want);
    }
}

TEST_CASE("kernel exec: loads widen by format and atomics return the old value") {
    Run r(
        "    get_sr r1, sr52\n"
        "    device_load r2l_r2h, u2_u3, r1 format=i8 shift=1 slot=0\n"  // bytes 2l, 2l+1 of in
        "    mov_imm r3, 0\n    mov r3l, r2l\n"
        "    iadd32 r6, r1, 64\n"
        "    device_store r3, u0_u1, r6 slot=0\n"  // out[64 + l]
        "    mov_imm r4, 1\n"
        "    atomic r5, r4, u0_u1, 40 op=add slot=1\n"  // out[40] += 1 per lane
        "    device_store r5, u0_u1, r1 shift=0 offset=unsigned slot=0\n"
        "    stop\n");
    r.go();
    // in = iota u32: bytes 2l, 2l+1 are element l / 2's low bytes for even
    // l (its value, below 256) and its high bytes (0) for odd l.
    for (unsigned l = 0; l < 32; ++l) CHECK(r.out(64 + l) == (l % 2 == 0 ? l / 2 : 0u));
    // The atomic's old values 0..31 went to out[0..31] last.
    for (unsigned l = 0; l < 32; ++l) CHECK(r.out(l) == l);
    CHECK(r.out(40) == 32);
}

TEST_CASE("kernel exec: one load's lanes may read from two buffers") {
    // Lanes 0-15 take their base from out (zero), lanes 16-31 from in (iota).
    Run r(
        "    get_sr r1, sr52\n"
        "    mov r4, u0\n    mov r5, u1\n"
        "    if_icmp r1, 16 cc=uge\n"
        "    mov r4, u2\n    mov r5, u3\n"
        "    pop_exec 1\n"
        "    device_load r6, r4_r5, r1 slot=0\n"
        "    iadd32 r7, r1, 32\n"
        "    device_store r6, u0_u1, r7 slot=0\n"
        "    stop\n");
    r.go();
    for (unsigned l = 0; l < 32; ++l) CHECK(r.out(32 + l) == (l < 16 ? 0u : l));
}

TEST_CASE("kernel exec: a threadgroup address below 0 in one lane is named") {
    // Lane 0 reads at 8 - 3 * 4 = -4; the other lanes fall inside.
    Run r(
        "    get_sr r1, sr52\n    iadd32 r1, r1, 3 neg=1\n    threadgroup_load r2, 8, r1\n"
        "    stop\n");
    CHECK_THROWS_WITH(r.go(), Catch::Contains("lane 0 address 0xfffffffffffffffc (4 bytes) is "
                                              "outside the launch's threadgroup_memory=1024"));
}

TEST_CASE("kernel exec: threadgroup memory is shared by the simds of a threadgroup") {
    Run r(
        "    get_sr r1, sr51\n"
        "    threadgroup_store r1, 0, r1\n"
        "    threadgroup_barrier\n"
        "    bitop32 r2, r1, 32 op=xor\n"  // the other simd's lane
        "    threadgroup_load r3, 0, r2\n" +
            std::string("    device_store r3, u0_u1, r1 slot=0\n    stop\n"),
        64);
    // Run both simds to the barrier, then both past it, as the timing model would.
    auto s0 = r.k->open(0, 0), s1 = r.k->open(0, 1);
    for (auto* s : {s0.get(), s1.get()})
        for (int i = 0; i < 3; ++i) s->advance();
    for (auto* s : {s0.get(), s1.get()})
        while (s->peek()) s->advance();
    for (unsigned t = 0; t < 64; ++t) CHECK(r.out(t) == (t ^ 32u));
}

TEST_CASE("kernel exec: device memory is sparse") {
    Run r(
        "    get_sr r1, sr80\n"
        "    device_store r1, u4_u5, r1 slot=0\n    stop\n",
        0,
        "buffer big size=4*1024*1024*1024 fill=random type=f32 seed=3\nuniform u4_u5 buffer=big\n",
        "launch grid=16384 threadgroup=1024 registers=64\n");
    const auto groups = r.k->launch().threadgroups;
    for (std::uint32_t g = 0; g < groups; ++g)
        for (std::uint32_t s = 0; s < 32; ++s) {
            auto st = r.k->open(g, s);
            while (st->peek()) st->advance();
        }
    CHECK(r.k->memory().resident_bytes() <= 68 * 1024);  // 64 KB written
}

TEST_CASE("kernel exec: bad kernels name the line and the reason") {
    auto refuse = [](const std::string& code, const std::string& reason) {
        test::TempFile f(".agxk");
        f.write("agxsim-kernel 1\nlaunch grid=32 threadgroup=32 registers=8\n" + code);
        try {
            KernelWorkload k(kernel::load_kernel(f.path(), "", {}));
            auto s = k.open(0, 0);
            while (s->peek()) s->advance();
            FAIL("accepted: " << code);
        } catch (const InputError& e) {
            INFO(e.what());
            CHECK(std::string(e.what()).find(reason) != std::string::npos);
        }
    };
    refuse("  else_icmp 0, 0 cc=eq\n  stop\n", ":3: pc 0x0");
    refuse("  else_icmp 0, 0 cc=eq\n  stop\n", "underflow");
    refuse("  bitop32 r1, r1, r1\n  stop\n", "needs op=");
    refuse("  convert r1, r1 mode=f_to_u64\n  stop\n", "unknown convert mode");
    refuse("  get_sr r1, sr99\n  stop\n", "unknown special register sr99");
    refuse("  atomic r1, r2, u0_u1, 0 op=cmpxchg\n  stop\n", "64-bit pair");
    refuse("  device_load r1, u0_u1 slot=0\n  stop\n", "needs all 3 operands");
    refuse("  mov_imm r2, 3\n  call r2\n  stop\n", "no instruction starts");
    refuse("x:\nx:\n  stop\n", "already defined");
    refuse("  stop\nlaunch grid=1 threadgroup=1 registers=1\n",
           "must come before the first instruction");
    // Lanes that walk off the end of a buffer: the first one outside is
    // named, after lanes that fell in it (lane 24's four bytes are the
    // buffer's last); and a base two bytes off is misaligned in lane 0.
    const std::string buffer = "buffer b size=100 fill=zero\nuniform u0_u1 buffer=b\n";
    refuse(buffer + "  get_sr r1, sr52\n  device_load r2, u0_u1, r1 slot=0\n  stop\n",
           "lane 25 address");
    refuse(buffer +
               "  get_sr r1, sr52\n  iadd32 r1, r1, 2\n  device_load r2, u0_u1, r1 slot=0\n"
               "  stop\n",
           "lane 23 address 0x10000000064 (4 bytes) is outside every buffer");
    refuse(buffer +
               "  get_sr r1, sr52\n  mov r2, u0\n  iadd32 r2, r2, 2\n  mov r3, u1\n"
               "  device_load r1, r2_r3, r1 slot=0\n  stop\n",
           "lane 0 address 0x10000000002 (4 bytes) is not aligned");
    // The odd lanes, disabled by the first if, count 255 more levels at
    // each of the next: the 257th takes lane 1's counter past 16 bits.
    std::string deep = "  get_sr r1, sr52\n  bitop32 r2, r1, 1 op=and\n  if_icmp r2, 0 cc=eq\n";
    for (int i = 0; i < 257; ++i) deep += "  if_icmp 0, 0 cc=eq n=255\n";
    refuse(deep + "  stop\n", "exec-mask stack counter r0l overflows 16 bits in lane 1");
}

TEST_CASE("kernel exec: the vectorised fp32 lane loops match the per-lane semantics") {
    // Bit patterns that cover normals, denormals, zeros, infinities and NaNs.
    std::uint64_t state = 12345;
    auto next = [&] {
        const std::uint32_t r = lcg_bits(state);
        switch (r % 8) {
            case 0:
                return r & 0x807fffffu;  // denormal or zero
            case 1:
                return (r & 0x80000000u) | 0x7f800000u;  // infinity
            case 2:
                return r | 0x7f800001u;  // NaN
            default:
                return r;
        }
    };
    for (int round = 0; round < 2000; ++round) {
        std::uint32_t a[32], b[32], c[32], out[32], before[32];
        for (unsigned l = 0; l < 32; ++l) {
            a[l] = next();
            b[l] = next();
            c[l] = next();
            out[l] = before[l] = next();
        }
        const std::uint32_t mask = round % 3 == 0 ? 0xffffffffu : next();
        const kernel::Fp32Op op = static_cast<kernel::Fp32Op>(round % 3);
        kernel::fp32_lanes(op, out, a, b, c, mask);
        for (unsigned l = 0; l < 32; ++l) {
            std::uint32_t want = before[l];
            if (mask >> l & 1u) {
                want = op == kernel::Fp32Op::Add   ? isa::sem::fadd32(a[l], b[l])
                       : op == kernel::Fp32Op::Mul ? isa::sem::fmul32(a[l], b[l])
                                                   : isa::sem::fmadd32(a[l], b[l], c[l]);
            }
            INFO("op " << round % 3 << " lane " << l << " a " << a[l] << " b " << b[l] << " c "
                       << c[l]);
            REQUIRE(out[l] == want);
        }
    }
}

TEST_CASE("kernel exec: the 8x8 fp32 matrix product is fmadd32 step by step, in k order") {
    // Values near the bottom of the normal range, so that products and sums
    // fall into the denormals (flushed at every step), mixed with ordinary
    // ones, zeros of both signs, and now and then an infinity or a NaN.
    std::uint64_t state = 777;
    auto next = [&] {
        const std::uint32_t r = lcg_bits(state);
        switch (r % 64) {
            case 0:
                return (r & 0x80000000u) | 0x7f800000u;  // infinity
            case 1:
                return r | 0x7f800001u;  // NaN
            case 2:
            case 3:
                return r & 0x80000000u;  // zero
            default:
                break;
        }
        if (r % 3 == 0) return r & 0x807fffffu;  // denormal
        // exponent 1..16 (tiny) or 112..143 (around 1), any sign and mantissa
        const std::uint32_t e = r % 5 < 3 ? 1 + (r >> 8) % 16 : 112 + (r >> 8) % 32;
        return (r & 0x807fffffu) | e << 23;
    };
    for (int round = 0; round < 3000; ++round) {
        std::uint32_t a[64], b[64], c[64], d[64];
        for (unsigned i = 0; i < 64; ++i) {
            a[i] = next();
            b[i] = next();
            c[i] = next();
        }
        kernel::fp32_matrix_fmadd8x8(d, a, b, c);
        for (unsigned m = 0; m < 8; ++m)
            for (unsigned n = 0; n < 8; ++n) {
                std::uint32_t want = c[8 * m + n];
                for (unsigned k = 0; k < 8; ++k)
                    want = isa::sem::fmadd32(a[8 * m + k], b[8 * k + n], want);
                INFO("round " << round << " element " << m << "," << n);
                REQUIRE(d[8 * m + n] == want);
            }
    }
}

TEST_CASE("kernel exec: the exec-mask compares read 16-bit operands at 16 bits") {
    // r2 = lane in its low half and 0xffff in its high half: compared as
    // 32 bits, every lane would be above 8; as r2l, lanes 0..7 are below.
    Run r(
        "    get_sr r1, sr52\n"
        "    mov_imm r2, 0xffff0000\n"
        "    iadd32 r2, r2, r1\n"
        "    mov_imm r3, 0\n"
        "    if_icmp r2l, 8 cc=ult n=1\n"
        "    mov_imm r3, 1\n"
        "    pop_exec 1\n"
        "    mov_imm r4, 0x3c00\n"  // r4l = 1.0 in binary16, r4h = 0
        "    mov_imm r5, 0\n"
        "    if_fcmp r4l, 0.5 cc=gt n=1\n"  // 1.0 > 0.5 at 16 bits (as 32 bits: a tiny positive
                                            // number)
        "    mov_imm r5, 1\n"
        "    pop_exec 1\n"
        "    iadd32 r3, r3, r5 shift=1\n" +
        store_lanes(3) + "    stop\n");
    r.go();
    for (unsigned l = 0; l < 32; ++l) {
        INFO("lane " << l);
        CHECK(r.out(l) == (l < 8 ? 3u : 2u));
    }
}

TEST_CASE("kernel exec: lane positions stepped from lane 0 are the divided-out ones") {
    kernel::SimdPlace p;
    p.grid_size = {1000, 1000, 1000};
    for (const std::array<std::uint32_t, 3> size : {std::array<std::uint32_t, 3>{32, 1, 1},
                                                    {3, 5, 7},
                                                    {1, 1, 64},
                                                    {7, 3, 2},
                                                    {16, 2, 4},
                                                    {1, 33, 1}})
        for (std::uint32_t simd = 0; simd < 3; ++simd) {
            p.threadgroup_size = size;
            p.threadgroup_position = {2, 3, 4};
            p.simd_in_group = simd;
            for (const bool in_grid : {false, true}) {
                const auto got = p.lane_positions(in_grid);
                for (unsigned l = 0; l < 32; ++l) {
                    const auto want =
                        in_grid ? p.position_in_grid(l) : p.position_in_threadgroup(l);
                    for (int d = 0; d < 3; ++d) CHECK(got[d][l] == want[d]);
                }
            }
        }
}
