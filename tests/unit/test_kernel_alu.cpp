// The kernel executor's per-lane ALU semantics, instruction by instruction,
// through the executor: each test runs a small kernel (KernelWorkload) whose
// lanes load their own operands from a buffer, run the instructions under
// test and store the results; the results are compared with values worked
// out here independently (C++ arithmetic, std::fma, <cmath>, and bit
// patterns worked by hand), never with isa/semantics.hpp's functions.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "sim/kernel/kernel_workload.hpp"
#include "tests/unit/temp_file.hpp"

using namespace agx;
using agx::kernel::KernelWorkload;

namespace {

using u16 = std::uint16_t;
using u32 = std::uint32_t;
using u64 = std::uint64_t;
using Lanes = std::array<u32, 32>;

constexpr unsigned kFirstOut = 20;  // outputs are r20, r21, ...

std::string hex(u64 v) {
    char b[32];
    std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
    return b;
}

// ---- independent float helpers -------------------------------------------
float f(u32 b) {
    float x;
    std::memcpy(&x, &b, 4);
    return x;
}
u32 bits(float x) {
    u32 b;
    std::memcpy(&b, &x, 4);
    return b;
}
// binary32 denormal -> zero of the same sign.
u32 ftz(u32 a) {
    return (a & 0x7f800000u) == 0 ? (a & 0x80000000u) : a;
}
float fin(u32 a) {
    return f(ftz(a));
}
// A binary32 result as the executor must write it: NaN canonical, denormal flushed.
u32 fout(float r) {
    if (std::isnan(r)) return 0x7fc00000u;
    return ftz(bits(r));
}
u32 ref_fadd(u32 a, u32 b) {
    return fout(fin(a) + fin(b));
}
u32 ref_fmul(u32 a, u32 b) {
    return fout(fin(a) * fin(b));
}
u32 ref_fmadd(u32 a, u32 b, u32 c) {
    return fout(std::fma(fin(a), fin(b), fin(c)));
}
// IEEE minNum / maxNum on flushed operands, -0 < +0.
u32 ref_fminmax(u32 a, u32 b, bool is_max) {
    const u32 fa = ftz(a), fb = ftz(b);
    const float x = f(fa), y = f(fb);
    if (std::isnan(x) && std::isnan(y)) return 0x7fc00000u;
    if (std::isnan(x)) return fb;
    if (std::isnan(y)) return fa;
    if (x == 0 && y == 0) {
        const bool xneg = fa >> 31, yneg = fb >> 31;
        if (is_max) return (xneg && yneg) ? 0x80000000u : 0u;
        return (xneg || yneg) ? 0x80000000u : 0u;
    }
    return (is_max ? x > y : x < y) ? fa : fb;
}

// binary16 <-> double, written here (exact one way, round to nearest even
// the other; NaN -> 0x7e00).
double h2d(u16 h) {
    const double sign = (h & 0x8000u) ? -1.0 : 1.0;
    const unsigned e = (h >> 10) & 31u, m = h & 1023u;
    if (e == 0) return sign * std::ldexp(static_cast<double>(m), -24);
    if (e == 31)
        return m ? std::numeric_limits<double>::quiet_NaN()
                 : sign * std::numeric_limits<double>::infinity();
    return sign * std::ldexp(static_cast<double>(1024 + m), static_cast<int>(e) - 25);
}
u16 d2h(double d) {
    if (std::isnan(d)) return 0x7e00;
    const u16 sign = std::signbit(d) ? 0x8000 : 0;
    const double a = std::fabs(d);
    if (a >= 65520.0) return sign | 0x7c00;  // 65520: halfway to 65536, ties to even = inf
    if (a < std::ldexp(1.0, -14)) {
        const double q = std::nearbyint(std::ldexp(a, 24));   // units of 2^-24, ties to even
        return static_cast<u16>(sign | static_cast<u16>(q));  // 1024 is the smallest normal
    }
    int k;
    std::frexp(a, &k);                                 // a = m 2^k, m in [0.5, 1)
    int e = k - 1;                                     // a in [2^e, 2^(e+1))
    double q = std::nearbyint(std::ldexp(a, 10 - e));  // in [1024, 2048]
    if (q == 2048) {
        q = 1024;
        ++e;
    }
    if (e + 15 >= 31) return sign | 0x7c00;
    return static_cast<u16>(sign | ((e + 15) << 10) | (static_cast<unsigned>(q) - 1024));
}

// Distance in units in the last place between two finite binary32 values of
// the same sign (a large number otherwise).
u64 ulp_distance32(u32 a, u32 b) {
    if ((a >> 31) != (b >> 31)) return (a & 0x7fffffffu) == 0 && (b & 0x7fffffffu) == 0 ? 0 : ~0ull;
    return a > b ? a - b : b - a;
}
u64 ulp_distance16(u16 a, u16 b) {
    if ((a >> 15) != (b >> 15)) return (a & 0x7fffu) == 0 && (b & 0x7fffu) == 0 ? 0 : ~0ull;
    return a > b ? a - b : b - a;
}

// The value of `cases[lane % size]` in every lane.
Lanes spread(const std::vector<u32>& cases) {
    Lanes v{};
    for (unsigned l = 0; l < 32; ++l) v[l] = cases[l % cases.size()];
    return v;
}
template <class F>
Lanes per_lane(F fn) {
    Lanes v{};
    for (unsigned l = 0; l < 32; ++l) v[l] = fn(l);
    return v;
}

// ---- running a kernel ----------------------------------------------------
// The results of one run: the 32 lanes of r20, r21, ... and the execution
// mask of every instruction executed.
struct AluRun {
    std::vector<Lanes> regs;
    std::vector<u32> masks;
    u32 operator()(unsigned reg, unsigned lane) const { return regs.at(reg - kFirstOut).at(lane); }
    u16 lo(unsigned reg, unsigned lane) const { return static_cast<u16>((*this)(reg, lane)); }
    u16 hi(unsigned reg, unsigned lane) const { return static_cast<u16>((*this)(reg, lane) >> 16); }
};

// One simd of 32 lanes (registers r0..r127). Input i is loaded into r(10+i)
// (lane l gets in[i][l]), r100 holds the lane; then `body` runs with every
// lane active and r20 .. r(last_out) are stored and read back.
// `directives` adds launch directives (uniforms u4 and up are free).
AluRun run_alu(const std::string& body, const std::vector<Lanes>& in, unsigned last_out,
               const std::string& directives = "") {
    REQUIRE(in.size() <= 8);
    REQUIRE(last_out >= kFirstOut);
    REQUIRE(last_out < 100);
    std::string bytes(4096, '\0');
    for (std::size_t i = 0; i < in.size(); ++i) std::memcpy(&bytes[i * 128], in[i].data(), 128);
    test::TempFile data(".bin");
    data.write(bytes);
    std::string k =
        "agxsim-kernel 1\n"
        "launch grid=32 threadgroup=32 registers=256\n"
        "buffer in size=4096 fill=file path=" +
        data.path() +
        "\n"
        "buffer out size=65536 fill=zero\n"
        "uniform u0_u1 buffer=in\n"
        "uniform u2_u3 buffer=out\n" +
        directives + "    get_sr r100, sr52\n";
    for (std::size_t i = 0; i < in.size(); ++i)
        k += "    iadd32 r101, r100, " + std::to_string(32 * i) + "\n    device_load r" +
             std::to_string(10 + i) + ", u0_u1, r101 slot=0\n";
    k += "    wait 0\n" + body;
    const unsigned outs = last_out - kFirstOut + 1;
    for (unsigned j = 0; j < outs; ++j)
        k += "    iadd32 r101, r100, " + std::to_string(32 * j) + "\n    device_store r" +
             std::to_string(kFirstOut + j) + ", u2_u3, r101 slot=0\n";
    k += "    stop\n";
    test::TempFile file(".agxk");
    file.write(k);
    KernelWorkload w(kernel::load_kernel(file.path(), "", {}));
    AluRun r;
    auto stream = w.open(0, 0);
    while (const Instruction* i = stream->peek()) {
        r.masks.push_back(i->active_mask);
        stream->advance();
    }
    auto& m = w.memory();
    const u64 base = m.base(*m.find_buffer("out"));
    r.regs.resize(outs);
    for (unsigned j = 0; j < outs; ++j)
        for (unsigned l = 0; l < 32; ++l) m.read(base + 4 * (32 * j + l), &r.regs[j][l], 4);
    return r;
}

// Checks every lane of a 32-bit result against want(lane).
template <class F>
void check32(const AluRun& r, unsigned reg, const std::string& what, F want) {
    for (unsigned l = 0; l < 32; ++l) {
        const u32 w = want(l), got = r(reg, l);
        INFO(what << " (r" << reg << ") lane " << l << ": got " << hex(got) << ", want " << hex(w));
        CHECK(got == w);
    }
}

// ---- integer references ----------------------------------------------------
u32 ref_shl(u32 a, u32 n) {
    n &= 127;
    return n >= 32 ? 0 : a << n;
}
u32 ref_shr(u32 a, u32 n) {
    n &= 127;
    return n >= 32 ? 0 : a >> n;
}
u32 ref_asr(u32 a, u32 n) {
    n &= 127;
    const bool neg = a >> 31;
    if (n >= 32) return neg ? 0xffffffffu : 0;
    u32 r = a >> n;
    if (neg && n) r |= ~(0xffffffffu >> n);
    return r;
}
u16 ref_shl16(u16 a, u16 n) {
    n &= 127;
    return n >= 16 ? 0 : static_cast<u16>(a << n);
}
u16 ref_shr16(u16 a, u16 n) {
    n &= 127;
    return n >= 16 ? 0 : static_cast<u16>(a >> n);
}
u16 ref_asr16(u16 a, u16 n) {
    n &= 127;
    const bool neg = a >> 15;
    if (n >= 16) return neg ? 0xffff : 0;
    u32 r = a >> n;
    if (neg && n) r |= (0xffffu << (16 - n)) & 0xffffu;
    return static_cast<u16>(r);
}
bool ref_icond(const std::string& cc, u32 a, u32 b, unsigned width) {
    if (width == 16) {
        a &= 0xffffu;
        b &= 0xffffu;
    }
    const std::int64_t sa =
        width == 16 ? static_cast<std::int16_t>(a) : static_cast<std::int32_t>(a);
    const std::int64_t sb =
        width == 16 ? static_cast<std::int16_t>(b) : static_cast<std::int32_t>(b);
    if (cc == "eq") return a == b;
    if (cc == "ne") return a != b;
    if (cc == "ult") return a < b;
    if (cc == "ule") return a <= b;
    if (cc == "ugt") return a > b;
    if (cc == "uge") return a >= b;
    if (cc == "slt") return sa < sb;
    if (cc == "sle") return sa <= sb;
    if (cc == "sgt") return sa > sb;
    if (cc == "sge") return sa >= sb;
    FAIL("bad cc " << cc);
    return false;
}
bool ref_fcond(const std::string& cc, double a, double b) {
    if (cc == "eq") return a == b;
    if (cc == "ne") return !(a == b);
    if (cc == "lt") return a < b;
    if (cc == "le") return a <= b;
    if (cc == "gt") return a > b;
    if (cc == "ge") return a >= b;
    if (cc == "ltn") return a < b || (std::isnan(b) && !std::isnan(a));
    if (cc == "gtn") return a > b || (std::isnan(b) && !std::isnan(a));
    FAIL("bad cc " << cc);
    return false;
}

}  // namespace

// ===========================================================================

TEST_CASE("kernel alu: fadd32 fmul32 fmadd32 round to nearest even, flush denormals, fuse") {
    struct Case {
        u32 a, b, c, add, mul, madd;
    };
    // Worked by hand.
    const std::vector<Case> t = {
        {0x3f800000, 0x40000000, 0x3f000000, 0x40400000, 0x40000000, 0x40200000},  // 1, 2, .5
        // 1 + 2^-24: a tie, to even (1); 2^-24 - 1 = -(1 - 2^-24) exactly
        {0x3f800000, 0x33800000, 0xbf800000, 0x3f800000, 0x33800000, 0xbf7fffff},
        // 1 + 3 2^-24 = 1 + 1.5 ulp: the tie goes to 1 + 2 ulp
        {0x3f800000, 0x34400000, 0x00000000, 0x3f800002, 0x34400000, 0x34400000},
        {0x7f800000, 0xff800000, 0x3f800000, 0x7fc00000, 0xff800000, 0xff800000},  // inf, -inf
        {0x7f800001, 0x3f800000, 0x3f800000, 0x7fc00000, 0x7fc00000, 0x7fc00000},  // sNaN
        {0xffc12345, 0x3f800000, 0x3f800000, 0x7fc00000, 0x7fc00000, 0x7fc00000},  // -NaN payload
        // denormal inputs are zeros: 2^-127 + 2^-127 would be 2^-126
        {0x00400000, 0x00400000, 0x00800000, 0x00000000, 0x00000000, 0x00800000},
        {0x80400000, 0x80400000, 0x80000000, 0x80000000, 0x00000000, 0x00000000},
        // denormal results flush, keeping the sign
        {0x00c00000, 0x80800000, 0x00000000, 0x00000000, 0x80000000, 0x80000000},
        {0x00800000, 0x80c00000, 0x00400000, 0x80000000, 0x80000000, 0x80000000},
        // overflow
        {0x7f7fffff, 0x7f7fffff, 0xff7fffff, 0x7f800000, 0x7f800000, 0x7f800000},
        // fused: 2 max - max = max (unfused: inf)
        {0x7f7fffff, 0x40000000, 0xff7fffff, 0x7f7fffff, 0x7f800000, 0x7f7fffff},
        // fused: 2 max - inf = -inf (unfused: inf - inf = NaN)
        {0x7f7fffff, 0x40000000, 0xff800000, 0x7f7fffff, 0x7f800000, 0xff800000},
        // (1 + 2^-23)(1 - 2^-23) - 1 = -2^-46 fused; the product alone rounds to 1
        {0x3f800001, 0x3f7ffffe, 0xbf800000, 0x40000000, 0x3f800000, 0xa8800000},
        // 2^-149 (denormal) x 2^100: 0, not 2^-49
        {0x00000001, 0x71800000, 0x00000000, 0x71800000, 0x00000000, 0x00000000},
        // 2^-127 x 2^126: 0, not 0.5
        {0x00400000, 0x7e800000, 0x3f800000, 0x7e800000, 0x00000000, 0x3f800000},
        // 2^-126 x 0.5 = 2^-127: flushed
        {0x00800000, 0x3f000000, 0x80000000, 0x3f000000, 0x00000000, 0x00000000},
        {0x00800000, 0xbf000000, 0x00000000, 0xbf000000, 0x80000000, 0x80000000},
        {0x00000000, 0x7f800000, 0x3f800000, 0x7f800000, 0x7fc00000, 0x7fc00000},  // 0 x inf
        {0x3f800000, 0xbf800000, 0x3f800000, 0x00000000, 0xbf800000, 0x00000000},  // 1 - 1 = +0
        {0x40000000, 0x40400000, 0x3f800000, 0x40a00000, 0x40c00000, 0x40e00000},  // 2, 3, 1
        {0x3f800000, 0x3f800000, 0x7fc00000, 0x40000000, 0x3f800000, 0x7fc00000},  // c NaN
        // 0x3eaaaaab = 11184811 2^-25; x 3 = 1 + 2^-25: fused - 1 = 2^-25
        {0x3eaaaaab, 0x40400000, 0xbf800000, 0x40555555, 0x3f800000, 0x33000000},
        // signed zeros: -1 x 0 = -0; -0 + -0 = -0 fused
        {0xbf800000, 0x00000000, 0x80000000, 0xbf800000, 0x80000000, 0x80000000},
        // x + -x = +0; x x -x - (-x^2) = 0 exactly: 1.5 x -1.5 + 2.25 = +0
        {0x3fc00000, 0xbfc00000, 0x40100000, 0x00000000, 0xc0100000, 0x00000000},
        // the smallest normal times 1 stays; minus a denormal (a zero) stays
        {0x00800000, 0x3f800000, 0x807fffff, 0x3f800000, 0x00800000, 0x00800000},
    };
    std::vector<u32> a, b, c;
    for (const auto& x : t) {
        a.push_back(x.a);
        b.push_back(x.b);
        c.push_back(x.c);
    }
    const auto r = run_alu(
        "    fadd32 r20, r10, r11\n"
        "    fmul32 r21, r10, r11\n"
        "    fmadd32 r22, r10, r11, r12\n"
        "    fadd32 r23, r10, u4\n"          // a uniform source
        "    fmul32 r24, r10, 2.0\n"         // a float immediate
        "    fmadd32 r25, r11, 0.5, r12\n",  // an immediate in the middle
        {spread(a), spread(b), spread(c)}, 25, "uniform u4 value=1.5 type=f32\n");
    auto at = [&](unsigned l) { return t[l % t.size()]; };
    check32(r, 20, "fadd32 a, b", [&](unsigned l) { return at(l).add; });
    check32(r, 21, "fmul32 a, b", [&](unsigned l) { return at(l).mul; });
    check32(r, 22, "fmadd32 a, b, c", [&](unsigned l) { return at(l).madd; });
    check32(r, 23, "fadd32 a, u4=1.5", [&](unsigned l) { return ref_fadd(at(l).a, 0x3fc00000); });
    check32(r, 24, "fmul32 a, 2.0", [&](unsigned l) { return ref_fmul(at(l).a, 0x40000000); });
    check32(r, 25, "fmadd32 b, 0.5, c",
            [&](unsigned l) { return ref_fmadd(at(l).b, 0x3f000000, at(l).c); });
    // The hand-worked table agrees with C++ float arithmetic (a check of the table).
    for (const auto& x : t) {
        CHECK(ref_fadd(x.a, x.b) == x.add);
        CHECK(ref_fmul(x.a, x.b) == x.mul);
        CHECK(ref_fmadd(x.a, x.b, x.c) == x.madd);
    }
}

TEST_CASE("kernel alu: fadd16 fmul16 fmadd16 keep denormals and write only their half") {
    struct Case {
        u16 a, b, c, add, mul, madd;
    };
    const std::vector<Case> t = {
        {0x3c00, 0x4000, 0x3800, 0x4200, 0x4000, 0x4100},  // 1, 2, 0.5
        {0x0001, 0x0001, 0x0001, 0x0002, 0x0000, 0x0001},  // denormals kept
        {0x0200, 0x0200, 0x8000, 0x0400, 0x0000, 0x0000},  // 2^-15 + 2^-15 = 2^-14 (normal)
        {0x7bff, 0x7bff, 0xfbff, 0x7c00, 0x7c00, 0x7c00},  // overflow
        {0x7bff, 0x4000, 0xfbff, 0x7bff, 0x7c00, 0x7bff},  // fused: 2 max - max = max
        {0x7c00, 0xfc00, 0x3c00, 0x7e00, 0xfc00, 0xfc00},  // inf - inf: NaN
        {0x7d00, 0x3c00, 0x3c00, 0x7e00, 0x7e00, 0x7e00},  // signalling NaN in: canonical NaN
        {0x3c00, 0x1000, 0x0000, 0x3c00, 0x1000, 0x1000},  // 1 + 2^-11: tie to even
        {0x3c00, 0x1600, 0x0000, 0x3c02, 0x1600, 0x1600},  // 1 + 1.5 ulp: up to even
        // (1 + 2^-10)^2 - 1 = 2^-9 + 2^-20: a half ulp of 2^-9, to even
        {0x3c01, 0x3c01, 0xbc00, 0x4001, 0x3c02, 0x1800},
        // (1 + 2^-10)(1 - 2^-11) - 1 = 2^-11 - 2^-21 fused; unfused 0
        {0x3c01, 0x3bff, 0xbc00, 0x4000, 0x3c00, 0x0ffe},
        {0x0001, 0x3800, 0x0000, 0x3800, 0x0000, 0x0000},  // 2^-24 x 0.5 = 2^-25: tie to 0
        {0x0003, 0x3800, 0x8000, 0x3800, 0x0002, 0x0002},  // 1.5 2^-24: tie to 2 2^-24
        {0x8000, 0x8000, 0x8000, 0x8000, 0x0000, 0x0000},  // signed zeros
        {0x4200, 0xc000, 0x4500, 0x3c00, 0xc600, 0xbc00},  // 3, -2, 5
    };
    std::vector<u32> ab, c;
    for (const auto& x : t) {
        ab.push_back(x.a | u32{x.b} << 16);
        c.push_back(x.c | 0xdead0000u);  // the high half must not matter
    }
    const auto r = run_alu(
        "    mov_imm r20, 0\n"
        "    fadd16 r20l, r10l, r10h\n"
        "    fmul16 r20h, r10l, r10h\n"
        "    mov_imm r21, 0xa5a5a5a5\n"
        "    fmadd16 r21l, r10l, r10h, r11l\n"
        "    mov_imm r22, 0x5a5a5a5a\n"
        "    fadd16 r22h, r10l, 1.5\n"  // the immediate is binary32 1.5 made 16-bit
        "    fmul16 r23l, r10h, 0.1\n",
        {spread(ab), spread(c)}, 23);
    for (unsigned l = 0; l < 32; ++l) {
        const Case& x = t[l % t.size()];
        INFO("lane " << l << " a " << hex(x.a) << " b " << hex(x.b) << " c " << hex(x.c));
        CHECK(hex(r.lo(20, l)) == hex(x.add));
        CHECK(hex(r.hi(20, l)) == hex(x.mul));
        CHECK(hex(r.lo(21, l)) == hex(x.madd));
        CHECK(hex(r.hi(21, l)) == hex(0xa5a5));  // the other half is kept
        CHECK(hex(r.hi(22, l)) == hex(d2h(h2d(x.a) + 1.5)));
        CHECK(hex(r.lo(22, l)) == hex(0x5a5a));
        // 0.1 as binary16 is 0x2e66 (0.0999755859375)
        CHECK(hex(r.lo(23, l)) == hex(d2h(h2d(x.b) * h2d(0x2e66))));
        CHECK(r.hi(23, l) == 0);
    }
    // The table agrees with double arithmetic rounded by d2h.
    for (const auto& x : t) {
        CHECK(hex(d2h(h2d(x.a) + h2d(x.b))) == hex(x.add));
        CHECK(hex(d2h(h2d(x.a) * h2d(x.b))) == hex(x.mul));
        CHECK(hex(d2h(std::fma(h2d(x.a), h2d(x.b), h2d(x.c)))) == hex(x.madd));
    }
}

TEST_CASE("kernel alu: fmin fmax are minNum maxNum, -0 below +0, 32-bit flushes") {
    struct Case {
        u32 a, b, mn, mx;
    };
    const std::vector<Case> t = {
        {0x3f800000, 0x40000000, 0x3f800000, 0x40000000},
        {0x40000000, 0x3f800000, 0x3f800000, 0x40000000},
        {0x7fc00000, 0x3f800000, 0x3f800000, 0x3f800000},  // a NaN loses
        {0x3f800000, 0x7fc00000, 0x3f800000, 0x3f800000},
        {0xffc00001, 0xbf800000, 0xbf800000, 0xbf800000},
        {0x7fc00000, 0x7f800001, 0x7fc00000, 0x7fc00000},  // both NaN: canonical NaN
        {0x80000000, 0x00000000, 0x80000000, 0x00000000},
        {0x00000000, 0x80000000, 0x80000000, 0x00000000},
        {0xff800000, 0x40a00000, 0xff800000, 0x40a00000},
        {0x00400000, 0x3f800000, 0x00000000, 0x3f800000},  // denormal min: flushed to 0
        {0x80400000, 0x00000000, 0x80000000, 0x00000000},  // -denormal = -0 < +0
        {0x7f800000, 0x7f7fffff, 0x7f7fffff, 0x7f800000},
        {0x7f800001, 0x40400000, 0x40400000, 0x40400000},  // signalling NaN loses too
    };
    struct Case16 {
        u16 a, b, mn, mx;
    };
    const std::vector<Case16> h = {
        {0x0001, 0x0002, 0x0001, 0x0002},  // denormals kept
        {0x7e00, 0x3c00, 0x3c00, 0x3c00}, {0x3c00, 0x7e00, 0x3c00, 0x3c00},
        {0x8000, 0x0000, 0x8000, 0x0000}, {0x0000, 0x8000, 0x8000, 0x0000},
        {0xfc00, 0x7bff, 0xfc00, 0x7bff}, {0x8001, 0x0001, 0x8001, 0x0001},
        {0xc000, 0xbc00, 0xc000, 0xbc00},
    };
    std::vector<u32> a, b, ab16;
    for (const auto& x : t) {
        a.push_back(x.a);
        b.push_back(x.b);
    }
    for (const auto& x : h) ab16.push_back(x.a | u32{x.b} << 16);
    const auto r = run_alu(
        "    fmin32 r20, r10, r11\n"
        "    fmax32 r21, r10, r11\n"
        "    mov_imm r22, 0\n"
        "    fmin16 r22l, r12l, r12h\n"
        "    fmax16 r22h, r12l, r12h\n",
        {spread(a), spread(b), spread(ab16)}, 22);
    check32(r, 20, "fmin32", [&](unsigned l) { return t[l % t.size()].mn; });
    check32(r, 21, "fmax32", [&](unsigned l) { return t[l % t.size()].mx; });
    check32(r, 22, "fmin16 | fmax16 << 16", [&](unsigned l) {
        const auto& x = h[l % h.size()];
        return x.mn | u32{x.mx} << 16;
    });
    for (const auto& x : t) {
        CHECK(hex(ref_fminmax(x.a, x.b, false)) == hex(x.mn));
        CHECK(hex(ref_fminmax(x.a, x.b, true)) == hex(x.mx));
    }
}

TEST_CASE("kernel alu: fcmpsel32 and fcmpsel16 under every condition") {
    const std::vector<std::string> ccs = {"eq", "ne", "lt", "le", "gt", "ge", "ltn", "gtn"};
    const std::vector<std::pair<u32, u32>> c32 = {
        {0x3f800000, 0x40000000}, {0x40000000, 0x3f800000}, {0x3f800000, 0x3f800000},
        {0x7fc00000, 0x3f800000}, {0x3f800000, 0x7fc00000}, {0x7fc00000, 0x7fc00000},
        {0x80000000, 0x00000000}, {0x00000001, 0x00000000},  // a denormal is a zero
        {0xff800000, 0x7f800000}, {0x7f800000, 0x7f800000}, {0x80400000, 0x00400000},
    };
    const std::vector<std::pair<u16, u16>> c16 = {
        {0x3c00, 0x4000}, {0x4000, 0x3c00}, {0x3c00, 0x3c00}, {0x7e00, 0x3c00},
        {0x3c00, 0x7e00}, {0x7e00, 0x7e00}, {0x8000, 0x0000}, {0x0001, 0x0000},  // kept: > 0
        {0xfc00, 0x7c00}, {0x0001, 0x0002}, {0xbc00, 0xc000},
    };
    const Lanes a = per_lane([&](unsigned l) { return c32[l % c32.size()].first; });
    const Lanes b = per_lane([&](unsigned l) { return c32[l % c32.size()].second; });
    const Lanes x = per_lane([](unsigned l) { return 0x11110000u + l; });
    const Lanes y = per_lane([](unsigned l) { return 0x22220000u + l; });
    const Lanes ab16 = per_lane([&](unsigned l) {
        const auto& p = c16[(l + 3) % c16.size()];
        return p.first | u32{p.second} << 16;
    });
    const Lanes xy16 = per_lane([](unsigned l) { return (0x1100u + l) | (0x2200u + l) << 16; });
    std::string body;
    for (unsigned i = 0; i < ccs.size(); ++i)
        body +=
            "    fcmpsel32 r" + std::to_string(20 + i) + ", r10, r11, r12, r13 cc=" + ccs[i] + "\n";
    for (unsigned i = 0; i < ccs.size(); ++i)
        body += "    fcmpsel16 r" + std::to_string(28 + i / 2) + (i % 2 ? "h" : "l") +
                ", r14l, r14h, r15l, r15h cc=" + ccs[i] + "\n";
    body += "    fcmpsel32 r32, r10, 1.0, 2.0, 3.0 cc=lt\n";  // immediates
    const auto r = run_alu(body, {a, b, x, y, ab16, xy16}, 32);
    for (unsigned i = 0; i < ccs.size(); ++i) {
        check32(r, 20 + i, "fcmpsel32 cc=" + ccs[i],
                [&](unsigned l) { return ref_fcond(ccs[i], fin(a[l]), fin(b[l])) ? x[l] : y[l]; });
        for (unsigned l = 0; l < 32; ++l) {
            const u16 ha = static_cast<u16>(ab16[l]), hb = static_cast<u16>(ab16[l] >> 16);
            const u16 want = ref_fcond(ccs[i], h2d(ha), h2d(hb)) ? static_cast<u16>(0x1100 + l)
                                                                 : static_cast<u16>(0x2200 + l);
            const u16 got = i % 2 ? r.hi(28 + i / 2, l) : r.lo(28 + i / 2, l);
            INFO("fcmpsel16 cc=" << ccs[i] << " lane " << l << " a " << hex(ha) << " b "
                                 << hex(hb));
            CHECK(hex(got) == hex(want));
        }
    }
    check32(r, 32, "fcmpsel32 a, 1.0, 2.0, 3.0 cc=lt",
            [&](unsigned l) { return fin(a[l]) < 1.0f ? 0x40000000u : 0x40400000u; });
    // Hand-worked spot checks of the reference: NaN compares.
    CHECK(ref_fcond("ne", NAN, 1.0));
    CHECK_FALSE(ref_fcond("eq", NAN, NAN));
    CHECK(ref_fcond("ltn", 1.0, NAN));
    CHECK_FALSE(ref_fcond("ltn", NAN, 1.0));
    CHECK(ref_fcond("gtn", 1.0, NAN));
    CHECK(ref_fcond("eq", -0.0, 0.0));
}

TEST_CASE("kernel alu: icmpsel32 icmpsel16 imin imax, signed and unsigned") {
    const std::vector<std::string> ccs = {"eq",  "ne",  "ult", "ule", "ugt",
                                          "uge", "slt", "sle", "sgt", "sge"};
    const std::vector<std::pair<u32, u32>> c32 = {
        {1, 2},
        {2, 1},
        {5, 5},
        {0xffffffff, 1},
        {1, 0xffffffff},
        {0x80000000, 0x7fffffff},
        {0x7fffffff, 0x80000000},
        {0, 0},
        {0x80000000, 0x80000001},
        {0xfffffffe, 0xffffffff},
        {0, 0x80000000},
    };
    const std::vector<std::pair<u16, u16>> c16 = {
        {1, 2},           {2, 1}, {7, 7},      {0xffff, 1},      {1, 0xffff},      {0x8000, 0x7fff},
        {0x7fff, 0x8000}, {0, 0}, {0x8000, 0}, {0xfffe, 0xffff}, {0x1234, 0x1234},
    };
    const Lanes a = per_lane([&](unsigned l) { return c32[l % c32.size()].first; });
    const Lanes b = per_lane([&](unsigned l) { return c32[l % c32.size()].second; });
    const Lanes x = per_lane([](unsigned l) { return 0xaaaa0000u + l; });
    const Lanes y = per_lane([](unsigned l) { return 0xbbbb0000u + l; });
    // 16-bit operands with different garbage in the high halves.
    const Lanes a16 =
        per_lane([&](unsigned l) { return c16[l % c16.size()].first | (l * 0x1357u) << 16; });
    const Lanes b16 = per_lane(
        [&](unsigned l) { return c16[l % c16.size()].second | (0xffffu - l * 0x0531u) << 16; });
    const Lanes xy16 = per_lane([](unsigned l) { return (0x3300u + l) | (0x4400u + l) << 16; });
    std::string body;
    for (unsigned i = 0; i < ccs.size(); ++i)
        body +=
            "    icmpsel32 r" + std::to_string(20 + i) + ", r10, r11, r12, r13 cc=" + ccs[i] + "\n";
    for (unsigned i = 0; i < ccs.size(); ++i)
        body += "    icmpsel16 r" + std::to_string(30 + i / 2) + (i % 2 ? "h" : "l") +
                ", r14l, r15l, r16l, r16h cc=" + ccs[i] + "\n";
    body +=
        "    imin32 r35, r10, r11\n"
        "    imax32 r36, r10, r11\n"
        "    imin32 r37, r10, r11 signed=1\n"
        "    imax32 r38, r10, r11 signed=1\n"
        "    imin16 r39l, r14l, r15l\n"
        "    imax16 r39h, r14l, r15l\n"
        "    imin16 r40l, r14l, r15l signed=1\n"
        "    imax16 r40h, r14l, r15l signed=1\n"
        "    icmpsel32 r41, r10, 5, 100, r13 cc=slt\n";
    const auto r = run_alu(body, {a, b, x, y, a16, b16, xy16}, 41);
    for (unsigned i = 0; i < ccs.size(); ++i) {
        check32(r, 20 + i, "icmpsel32 cc=" + ccs[i],
                [&](unsigned l) { return ref_icond(ccs[i], a[l], b[l], 32) ? x[l] : y[l]; });
        for (unsigned l = 0; l < 32; ++l) {
            const u16 want = ref_icond(ccs[i], a16[l], b16[l], 16) ? static_cast<u16>(0x3300 + l)
                                                                   : static_cast<u16>(0x4400 + l);
            const u16 got = i % 2 ? r.hi(30 + i / 2, l) : r.lo(30 + i / 2, l);
            INFO("icmpsel16 cc=" << ccs[i] << " lane " << l << " a " << hex(a16[l]) << " b "
                                 << hex(b16[l]));
            CHECK(hex(got) == hex(want));
        }
    }
    auto s32 = [](u32 v) { return static_cast<std::int32_t>(v); };
    auto s16 = [](u32 v) { return static_cast<std::int16_t>(v); };
    check32(r, 35, "imin32", [&](unsigned l) { return std::min(a[l], b[l]); });
    check32(r, 36, "imax32", [&](unsigned l) { return std::max(a[l], b[l]); });
    check32(r, 37, "imin32 signed",
            [&](unsigned l) { return static_cast<u32>(std::min(s32(a[l]), s32(b[l]))); });
    check32(r, 38, "imax32 signed",
            [&](unsigned l) { return static_cast<u32>(std::max(s32(a[l]), s32(b[l]))); });
    check32(r, 39, "imin16 | imax16 << 16", [&](unsigned l) {
        const u32 p = a16[l] & 0xffffu, q = b16[l] & 0xffffu;
        return std::min(p, q) | std::max(p, q) << 16;
    });
    check32(r, 40, "imin16 signed | imax16 signed << 16", [&](unsigned l) {
        const u32 mn = static_cast<u16>(std::min(s16(a16[l]), s16(b16[l])));
        const u32 mx = static_cast<u16>(std::max(s16(a16[l]), s16(b16[l])));
        return mn | mx << 16;
    });
    check32(r, 41, "icmpsel32 a, 5, 100, y cc=slt",
            [&](unsigned l) { return s32(a[l]) < 5 ? 100u : y[l]; });
}

TEST_CASE("kernel alu: iadd16 iadd32 with neg= and shift=, iaddsat32 saturates") {
    const std::vector<std::pair<u32, u32>> c = {
        {1, 2},
        {0xffffffff, 1},
        {0x7fffffff, 1},
        {0x80000000, 0xffffffff},
        {0xfffffff0, 0x20},
        {0x10000001, 0x10000001},
        {0, 1},
        {5, 0xfffffffb},
        {0x80000000, 0x80000000},
        {0x12345678, 0x9abcdef0},
        {0x0000fffb, 0x00030003},
        {0x7fff8000, 0x80017fff},
        {0xffffffff, 0xffffffff},
        {0x7ffffffe, 0x7ffffffe},
        {0x80000001, 0x7fffffff},
    };
    const Lanes a = per_lane([&](unsigned l) { return c[l % c.size()].first; });
    const Lanes b = per_lane([&](unsigned l) { return c[l % c.size()].second; });
    const auto r = run_alu(
        "    iadd32 r20, r10, r11\n"
        "    iadd32 r21, r10, r11 shift=4\n"
        "    iadd32 r22, r10, r11 neg=1\n"
        "    iadd32 r23, r10, r11 neg=1 shift=2\n"
        "    iadd32 r24, r10, -1\n"
        "    iaddsat32 r25, r10, r11\n"
        "    iaddsat32 r26, r10, r11 signed=1\n"
        "    mov_imm r27, 0x77778888\n"
        "    iadd16 r27l, r10l, r11h\n"
        "    mov_imm r28, 0x12345678\n"
        "    iadd16 r28h, r10h, r11l neg=1 shift=3\n"
        "    iadd16 r29l, r10l, r11l shift=1\n"
        "    iadd16 r29h, r10h, 0xffff\n",
        {a, b}, 29);
    check32(r, 20, "iadd32", [&](unsigned l) { return a[l] + b[l]; });
    check32(r, 21, "iadd32 shift=4", [&](unsigned l) { return a[l] + b[l] * 16u; });
    check32(r, 22, "iadd32 neg=1", [&](unsigned l) { return a[l] - b[l]; });
    check32(r, 23, "iadd32 neg=1 shift=2", [&](unsigned l) { return a[l] - b[l] * 4u; });
    check32(r, 24, "iadd32 a, -1", [&](unsigned l) { return a[l] - 1u; });
    check32(r, 25, "iaddsat32", [&](unsigned l) {
        const u64 s = u64{a[l]} + u64{b[l]};
        return s > 0xffffffffull ? 0xffffffffu : static_cast<u32>(s);
    });
    check32(r, 26, "iaddsat32 signed=1", [&](unsigned l) {
        const std::int64_t s =
            std::int64_t{static_cast<std::int32_t>(a[l])} + static_cast<std::int32_t>(b[l]);
        if (s > 0x7fffffffll) return 0x7fffffffu;
        if (s < -0x80000000ll) return 0x80000000u;
        return static_cast<u32>(s);
    });
    check32(r, 27, "iadd16 r27l, al, bh",
            [&](unsigned l) { return 0x77770000u | ((a[l] + (b[l] >> 16)) & 0xffffu); });
    check32(r, 28, "iadd16 r28h, ah, bl neg=1 shift=3", [&](unsigned l) {
        return 0x5678u | (((a[l] >> 16) - (b[l] & 0xffffu) * 8u) & 0xffffu) << 16;
    });
    check32(r, 29, "iadd16 shift=1 | iadd16 0xffff", [&](unsigned l) {
        return ((a[l] + (b[l] & 0xffffu) * 2u) & 0xffffu) | (((a[l] >> 16) + 0xffffu) & 0xffffu)
                                                                << 16;
    });
    // Hand-worked: saturation at both ends.
    CHECK(hex(r(25, 1)) == hex(0xffffffff));  // 0xffffffff + 1
    CHECK(hex(r(26, 2)) == hex(0x7fffffff));  // INT_MAX + 1
    CHECK(hex(r(26, 3)) == hex(0x80000000));  // INT_MIN - 1
    CHECK(hex(r(26, 8)) == hex(0x80000000));  // INT_MIN + INT_MIN
    CHECK(hex(r(25, 8)) == hex(0xffffffff));  // 2^31 + 2^31 unsigned
    CHECK(hex(r(26, 7)) == hex(0));           // 5 + -5
}

TEST_CASE("kernel alu: imul imadd 16 32, wide and high products, 64-bit pairs") {
    struct Case {
        u32 a, b, c, d;  // c:d, low:high, the 64-bit addend
    };
    const std::vector<Case> t = {
        {3, 5, 7, 0},
        {0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff},
        {0x80000000, 0x80000000, 1, 0},
        {0x80000000, 0x7fffffff, 0, 0x80000000},
        {0x12345678, 0x9abcdef0, 0x11111111, 0x22222222},
        {0xffffffff, 5, 0, 0},
        {0x8000ffff, 0x7fff8000, 0x0000ffff, 0},
        {0x0000ffff, 0xffff0001, 0xfffe0002, 1},
        {0x7fffffff, 0x7fffffff, 0x80000000, 0x7fffffff},
        {0x00010002, 0x00030004, 0x00050006, 0},
        {0xfffffffb, 0x00000007, 0xfffffff0, 0xffffffff},
    };
    auto at = [&](unsigned l) { return t[l % t.size()]; };
    std::vector<u32> va, vb, vc, vd;
    for (const auto& x : t) {
        va.push_back(x.a);
        vb.push_back(x.b);
        vc.push_back(x.c);
        vd.push_back(x.d);
    }
    const auto r = run_alu(
        "    imul32 r20, r10, r11\n"
        "    imadd32 r21, r10, r11, r12\n"
        "    imadd32 r22, r10, r11, r12 neg=1 shift=2\n"
        "    imulhi32 r23, r10, r11\n"
        "    imulhi32 r24, r10, r11 signed=1\n"
        "    imul32x64 r26_r27, r10, r11\n"
        "    imul32x64 r28_r29, r10, r11 signed=1\n"
        "    imadd32x64 r30_r31, r10, r11, r12_r13\n"
        "    imadd32x64 r32_r33, r10, r11, r12_r13 signed=1\n"
        "    imul16x32 r34, r10l, r11h\n"
        "    imul16x32 r35, r10l, r11h signed=1\n"
        "    imadd16x32 r36, r10h, r11l, r12\n"
        "    imadd16x32 r37, r10h, r11l, r12 signed=1\n"
        "    mov_imm r38, 0xcafe0000\n"
        "    imul16 r38l, r10l, r11l\n"
        "    mov_imm r39, 0x0000beef\n"
        "    imadd16 r39h, r10l, r11l, r12h\n"
        "    imadd16 r40l, r10l, r11l, r12l neg=1 shift=1\n",
        {spread(va), spread(vb), spread(vc), spread(vd)}, 40);
    auto s32 = [](u32 v) { return std::int64_t{static_cast<std::int32_t>(v)}; };
    auto s16 = [](u32 v) { return std::int32_t{static_cast<std::int16_t>(v)}; };
    auto sprod = [&](u32 a, u32 b) { return static_cast<u64>(s32(a) * s32(b)); };
    check32(r, 20, "imul32", [&](unsigned l) { return at(l).a * at(l).b; });
    check32(r, 21, "imadd32", [&](unsigned l) { return at(l).a * at(l).b + at(l).c; });
    check32(r, 22, "imadd32 neg=1 shift=2",
            [&](unsigned l) { return at(l).a * at(l).b - at(l).c * 4u; });
    check32(r, 23, "imulhi32",
            [&](unsigned l) { return static_cast<u32>((u64{at(l).a} * at(l).b) >> 32); });
    check32(r, 24, "imulhi32 signed=1",
            [&](unsigned l) { return static_cast<u32>(sprod(at(l).a, at(l).b) >> 32); });
    check32(r, 26, "imul32x64 lo", [&](unsigned l) { return at(l).a * at(l).b; });
    check32(r, 27, "imul32x64 hi",
            [&](unsigned l) { return static_cast<u32>((u64{at(l).a} * at(l).b) >> 32); });
    check32(r, 28, "imul32x64 signed lo",
            [&](unsigned l) { return static_cast<u32>(sprod(at(l).a, at(l).b)); });
    check32(r, 29, "imul32x64 signed hi",
            [&](unsigned l) { return static_cast<u32>(sprod(at(l).a, at(l).b) >> 32); });
    auto c64 = [&](unsigned l) { return u64{at(l).c} | u64{at(l).d} << 32; };
    check32(r, 30, "imadd32x64 lo",
            [&](unsigned l) { return static_cast<u32>(u64{at(l).a} * at(l).b + c64(l)); });
    check32(r, 31, "imadd32x64 hi",
            [&](unsigned l) { return static_cast<u32>((u64{at(l).a} * at(l).b + c64(l)) >> 32); });
    check32(r, 32, "imadd32x64 signed lo",
            [&](unsigned l) { return static_cast<u32>(sprod(at(l).a, at(l).b) + c64(l)); });
    check32(r, 33, "imadd32x64 signed hi",
            [&](unsigned l) { return static_cast<u32>((sprod(at(l).a, at(l).b) + c64(l)) >> 32); });
    check32(r, 34, "imul16x32 al, bh",
            [&](unsigned l) { return (at(l).a & 0xffffu) * (at(l).b >> 16); });
    check32(r, 35, "imul16x32 al, bh signed",
            [&](unsigned l) { return static_cast<u32>(s16(at(l).a) * s16(at(l).b >> 16)); });
    check32(r, 36, "imadd16x32 ah, bl, c",
            [&](unsigned l) { return (at(l).a >> 16) * (at(l).b & 0xffffu) + at(l).c; });
    check32(r, 37, "imadd16x32 ah, bl, c signed", [&](unsigned l) {
        return static_cast<u32>(s16(at(l).a >> 16) * s16(at(l).b)) + at(l).c;
    });
    check32(r, 38, "imul16 r38l", [&](unsigned l) {
        return 0xcafe0000u | (((at(l).a & 0xffffu) * (at(l).b & 0xffffu)) & 0xffffu);
    });
    check32(r, 39, "imadd16 r39h", [&](unsigned l) {
        return 0xbeefu | (((at(l).a & 0xffffu) * (at(l).b & 0xffffu) + (at(l).c >> 16)) & 0xffffu)
                             << 16;
    });
    check32(r, 40, "imadd16 r40l neg=1 shift=1", [&](unsigned l) {
        return ((at(l).a & 0xffffu) * (at(l).b & 0xffffu) - (at(l).c & 0xffffu) * 2u) & 0xffffu;
    });
    // Hand-worked 64-bit products.
    CHECK(hex(r(26, 1)) == hex(0x00000001));  // (2^32-1)^2 = 0xfffffffe00000001
    CHECK(hex(r(27, 1)) == hex(0xfffffffe));
    CHECK(hex(r(28, 1)) == hex(0x00000001));  // (-1)(-1) = 1
    CHECK(hex(r(29, 1)) == hex(0x00000000));
    CHECK(hex(r(30, 1)) == hex(0x00000000));  // + 0xffffffffffffffff: 0xfffffffe00000000
    CHECK(hex(r(31, 1)) == hex(0xfffffffe));
    CHECK(hex(r(29, 3)) == hex(0xc0000000));  // -2^31 (2^31 - 1) = 0xc000000080000000
    CHECK(hex(r(28, 3)) == hex(0x80000000));
    CHECK(hex(r(27, 2)) == hex(0x40000000));  // 2^31 2^31 = 2^62 either way
    CHECK(hex(r(29, 2)) == hex(0x40000000));
    CHECK(hex(r(24, 5)) == hex(0xffffffff));  // -1 x 5 signed: high word all ones
    CHECK(hex(r(23, 5)) == hex(0x00000004));  // (2^32 - 1) 5 = 0x4fffffffb
    CHECK(hex(r(35, 6)) == hex(0xffff8001));  // 0xffff x 0x7fff signed: -1 x 32767
}

TEST_CASE("kernel alu: bitop32 and bitop16 by op= name") {
    const std::vector<std::pair<std::string, std::function<u32(u32, u32)>>> ops = {
        {"and", [](u32 a, u32 b) { return a & b; }},
        {"or", [](u32 a, u32 b) { return a | b; }},
        {"xor", [](u32 a, u32 b) { return a ^ b; }},
        {"nand", [](u32 a, u32 b) { return ~(a & b); }},
        {"nor", [](u32 a, u32 b) { return ~(a | b); }},
        {"xnor", [](u32 a, u32 b) { return ~(a ^ b); }},
        {"andn", [](u32 a, u32 b) { return a & ~b; }},
        {"orn", [](u32 a, u32 b) { return a | ~b; }},
        {"not_a", [](u32 a, u32) { return ~a; }},
        {"not_b", [](u32, u32 b) { return ~b; }},
        {"a", [](u32 a, u32) { return a; }},
        {"b", [](u32, u32 b) { return b; }},
        {"zero", [](u32, u32) { return 0u; }},
        {"ones", [](u32, u32) { return 0xffffffffu; }},
    };
    u64 state = 99;
    auto next = [&] {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        return static_cast<u32>(state >> 32);
    };
    Lanes a{}, b{};
    for (unsigned l = 0; l < 32; ++l) {
        a[l] = next();
        b[l] = next();
    }
    a[0] = 0xff00ff00;
    b[0] = 0xf0f0f0f0;
    std::string body;
    for (unsigned i = 0; i < ops.size(); ++i)
        body += "    bitop32 r" + std::to_string(20 + i) + ", r10, r11 op=" + ops[i].first + "\n";
    body +=
        "    mov_imm r34, 0\n"
        "    bitop16 r34l, r10l, r11h op=xor\n"
        "    bitop16 r34h, r10h, r11l op=andn\n"
        "    bitop32 r35, r10, 0xff00ff op=orn\n";
    const auto r = run_alu(body, {a, b}, 35);
    for (unsigned i = 0; i < ops.size(); ++i)
        check32(r, 20 + i, "bitop32 op=" + ops[i].first,
                [&](unsigned l) { return ops[i].second(a[l], b[l]); });
    check32(r, 34, "bitop16 xor | andn", [&](unsigned l) {
        return ((a[l] ^ (b[l] >> 16)) & 0xffffu) | ((a[l] >> 16) & ~b[l] & 0xffffu) << 16;
    });
    check32(r, 35, "bitop32 a, 0xff00ff op=orn", [&](unsigned l) { return a[l] | 0xff00ff00u; });
    // Hand-worked on lane 0: a = 0xff00ff00, b = 0xf0f0f0f0.
    CHECK(hex(r(20, 0)) == hex(0xf000f000));  // and
    CHECK(hex(r(22, 0)) == hex(0x0ff00ff0));  // xor
    CHECK(hex(r(26, 0)) == hex(0x0f000f00));  // andn
    CHECK(hex(r(27, 0)) == hex(0xff0fff0f));  // orn
}

TEST_CASE("kernel alu: shifts use the amount's low 7 bits, 32 or more (and -1) shift all out") {
    const std::vector<u32> amts = {0,  1,  4,   15,  16,  31,         32,         33,
                                   63, 64, 127, 128, 129, 0xffffffff, 0x80000004, 0xffffffe0};
    const Lanes amt = spread(amts);
    const Lanes v1 = per_lane([](unsigned l) { return l < 16 ? 0x80000001u : 0xdeadbeefu; });
    const Lanes v2 = per_lane([](unsigned l) { return l < 16 ? 0x7fffffffu : 0x12345678u; });
    const Lanes v16 =
        per_lane([](unsigned l) { return (l < 16 ? 0x8001u : 0x7ffeu) | 0xabcd0000u; });
    const auto r = run_alu(
        "    shl r20, r10, r11\n"
        "    shr r21, r10, r11\n"
        "    asr r22, r10, r11\n"
        "    shl r23, r12, r11\n"
        "    shr r24, r12, r11\n"
        "    asr r25, r12, r11\n"
        "    shl r26, r10, -1\n"
        "    shr r27, r10, 32\n"
        "    asr r28, r10, -1\n"
        "    asr r29, r10, 32\n"
        "    mov_imm r30, 0x55550000\n"
        "    shlhi r30l, r13l, r11l\n"
        "    mov_imm r31, 0x0000aaaa\n"
        "    shrhi r31h, r13l, r11l\n"
        "    mov_imm r32, 0\n"
        "    asrh r32l, r13l, r11l\n"
        "    asrh r32h, r13l, -1\n"
        "    shl r33, r10, 4\n"
        "    asr r34, r10, 4\n",
        {v1, amt, v2, v16}, 34);
    check32(r, 20, "shl", [&](unsigned l) { return ref_shl(v1[l], amt[l]); });
    check32(r, 21, "shr", [&](unsigned l) { return ref_shr(v1[l], amt[l]); });
    check32(r, 22, "asr", [&](unsigned l) { return ref_asr(v1[l], amt[l]); });
    check32(r, 23, "shl", [&](unsigned l) { return ref_shl(v2[l], amt[l]); });
    check32(r, 24, "shr", [&](unsigned l) { return ref_shr(v2[l], amt[l]); });
    check32(r, 25, "asr", [&](unsigned l) { return ref_asr(v2[l], amt[l]); });
    check32(r, 26, "shl a, -1", [&](unsigned) { return 0u; });
    check32(r, 27, "shr a, 32", [&](unsigned) { return 0u; });
    check32(r, 28, "asr a, -1", [&](unsigned l) { return v1[l] >> 31 ? 0xffffffffu : 0u; });
    check32(r, 29, "asr a, 32", [&](unsigned l) { return v1[l] >> 31 ? 0xffffffffu : 0u; });
    check32(r, 30, "shlhi r30l", [&](unsigned l) {
        return 0x55550000u | ref_shl16(static_cast<u16>(v16[l]), static_cast<u16>(amt[l]));
    });
    check32(r, 31, "shrhi r31h", [&](unsigned l) {
        return 0xaaaau | u32{ref_shr16(static_cast<u16>(v16[l]), static_cast<u16>(amt[l]))} << 16;
    });
    check32(r, 32, "asrh r32l | asrh -1 r32h", [&](unsigned l) {
        return ref_asr16(static_cast<u16>(v16[l]), static_cast<u16>(amt[l])) |
               u32{ref_asr16(static_cast<u16>(v16[l]), 0xffff)} << 16;
    });
    check32(r, 33, "shl a, 4", [&](unsigned l) { return v1[l] << 4; });
    check32(r, 34, "asr a, 4", [&](unsigned l) {
        return static_cast<u32>(static_cast<std::int32_t>(v1[l]) / 16 -
                                (static_cast<std::int32_t>(v1[l]) % 16 < 0 ? 1 : 0));
    });
    // Hand-worked lanes: 0x80000001 by 31, 0xffffffff (-1 = 127), 0x80000004 (= 4), 128 (= 0).
    CHECK(hex(r(20, 5)) == hex(0x80000000));       // shl 0x80000001, 31
    CHECK(hex(r(21, 5)) == hex(0x00000001));       // shr 0x80000001, 31
    CHECK(hex(r(22, 5)) == hex(0xffffffff));       // asr 0x80000001, 31
    CHECK(hex(r(20, 13)) == hex(0));               // shl by -1
    CHECK(hex(r(21, 13)) == hex(0));               // shr by -1
    CHECK(hex(r(22, 13)) == hex(0xffffffff));      // asr by -1
    CHECK(hex(r(21, 14)) == hex(0x08000000));      // shr 0x80000001, 0x80000004
    CHECK(hex(r(20, 11)) == hex(0x80000001));      // shl by 128: the low 7 bits are 0
    CHECK(hex(r(22, 22)) == hex(0xffffffff));      // asr 0xdeadbeef, 32
    CHECK(hex(r(21, 22)) == hex(0));               // shr 0xdeadbeef, 32
    CHECK(hex(r(24, 17)) == hex(0x091a2b3c));      // shr 0x12345678, 1
    CHECK(hex(r(32, 4) & 0xffff) == hex(0xffff));  // asrh 0x8001, 16
    CHECK(hex(r(32, 3) & 0xffff) == hex(0xffff));  // asrh 0x8001, 15
    CHECK(hex(r(30, 3) & 0xffff) == hex(0x8000));  // shlhi 0x8001, 15
    CHECK(hex(r(31, 18) >> 16) == hex(0x07ff));    // shrhi 0x7ffe, 4
}

TEST_CASE("kernel alu: bfeil bfi extr intl bitrev popcount ffs clz") {
    struct Case {
        u32 v, off, cnt, ins;
    };
    const std::vector<Case> t = {
        {0x12345678, 8, 8, 0x00000abc},
        {0x12345678, 28, 8, 0xffffffff},
        {0xdeadbeef, 0, 0, 0x01234567},
        {0xdeadbeef, 4, 32, 0x89abcdef},
        {0xdeadbeef, 16, 40, 0},
        {0x00000000, 4, 12, 0xabc},
        {0xffffffff, 8, 8, 0},
        {0x80000000, 31, 1, 0xffffffff},
        {0x00000001, 0, 1, 0x80000000},
        {0x0000ffff, 0x84, 0x81, 0x5},
        {0x89abcdef, 31, 3, 0x01234567},
        {0xf0f0f0f0, 0, 0x80, 0x0f0f0f0f},
        // offsets / shifts of 32 and more (low 7 bits: 0xffffffff = 127, 0xa0 = 32)
        {0x89abcdef, 32, 4, 0x01234567},
        {0x89abcdef, 40, 8, 0x01234567},
        {0x89abcdef, 100, 8, 0x01234567},
        {0x89abcdef, 0xffffffff, 8, 0x01234567},
        {0x89abcdef, 0xa0, 8, 0x01234567},
        {0x89abcdef, 63, 8, 0x81234567},
    };
    auto at = [&](unsigned l) { return t[l % t.size()]; };
    std::vector<u32> v, off, cnt, ins;
    for (const auto& x : t) {
        v.push_back(x.v);
        off.push_back(x.off);
        cnt.push_back(x.cnt);
        ins.push_back(x.ins);
    }
    const auto r = run_alu(
        "    bfeil r20, r10, r11, r12\n"
        "    bfi r21, r10, r13, r11, r12\n"
        "    extr r22, r10, r13, r11\n"
        "    intl r23, r10l, r13h\n"
        "    bitrev r24, r10\n"
        "    popcount r25, r10\n"
        "    ffs r26, r10\n"
        "    clz r27, r10\n"
        "    bfeil r28, r10, 8, 4\n",
        {spread(v), spread(off), spread(cnt), spread(ins)}, 28);
    auto width = [](u32 c) {
        c &= 127;
        return c == 0 || c > 31 ? 32u : c;
    };
    auto mask = [](u32 w) { return w >= 32 ? 0xffffffffu : (1u << w) - 1; };
    check32(r, 20, "bfeil", [&](unsigned l) {
        const u32 o = at(l).off & 127;
        return (o >= 32 ? 0 : at(l).v >> o) & mask(width(at(l).cnt));
    });
    check32(r, 21, "bfi", [&](unsigned l) {
        const u32 o = at(l).off & 127, m = o >= 32 ? 0 : mask(width(at(l).cnt)) << o;
        return (at(l).v & ~m) | ((o >= 32 ? 0 : at(l).ins << o) & m);
    });
    check32(r, 22, "extr", [&](unsigned l) {
        const u32 s = at(l).off & 127;
        const u64 pair = u64{at(l).ins} << 32 | at(l).v;
        return s >= 64 ? 0u : static_cast<u32>(pair >> s);
    });
    check32(r, 23, "intl", [&](unsigned l) {
        const u32 x = at(l).v & 0xffffu, y = at(l).ins >> 16;
        u32 out = 0;
        for (unsigned i = 0; i < 16; ++i)
            out |= (x >> i & 1u) << (2 * i) | (y >> i & 1u) << (2 * i + 1);
        return out;
    });
    check32(r, 24, "bitrev", [&](unsigned l) {
        u32 out = 0;
        for (unsigned i = 0; i < 32; ++i) out |= (at(l).v >> i & 1u) << (31 - i);
        return out;
    });
    check32(r, 25, "popcount", [&](unsigned l) {
        u32 n = 0;
        for (unsigned i = 0; i < 32; ++i) n += at(l).v >> i & 1u;
        return n;
    });
    check32(r, 26, "ffs (index of the highest set bit)", [&](unsigned l) {
        for (int i = 31; i >= 0; --i)
            if (at(l).v >> i & 1u) return static_cast<u32>(i);
        return 0xffffffffu;
    });
    check32(r, 27, "clz", [&](unsigned l) {
        u32 n = 0;
        for (int i = 31; i >= 0 && !(at(l).v >> i & 1u); --i) ++n;
        return n;
    });
    check32(r, 28, "bfeil a, 8, 4", [&](unsigned l) { return at(l).v >> 8 & 0xfu; });
    // Hand-worked.
    CHECK(hex(r(20, 0)) == hex(0x56));         // bfeil 0x12345678, 8, 8
    CHECK(hex(r(20, 1)) == hex(0x1));          // bfeil 0x12345678, 28, 8
    CHECK(hex(r(20, 2)) == hex(0xdeadbeef));   // count 0 = 32 bits
    CHECK(hex(r(20, 4)) == hex(0xdead));       // count 40 = 32 bits
    CHECK(hex(r(20, 9)) == hex(0x1));          // offset 0x84 = 4, count 0x81 = 1
    CHECK(hex(r(21, 0)) == hex(0x1234bc78));   // bfi 0x12345678, 0xabc, 8, 8
    CHECK(hex(r(21, 1)) == hex(0xf2345678));   // bfi at 28: 4 bits fit
    CHECK(hex(r(21, 5)) == hex(0x0000abc0));   // bfi 0, 0xabc, 4, 12
    CHECK(hex(r(21, 6)) == hex(0xffff00ff));   // bfi 0xffffffff, 0, 8, 8
    CHECK(hex(r(22, 0)) == hex(0xbc123456));   // extr lo 0x12345678, hi 0xabc, 8
    CHECK(hex(r(22, 10)) == hex(0x02468acf));  // extr 0x89abcdef, 0x01234567, 31
    CHECK(hex(r(23, 8)) == hex(0x80000001));   // intl 0x0001, 0x8000
    CHECK(hex(r(24, 0)) == hex(0x1e6a2c48));   // bitrev 0x12345678
    CHECK(hex(r(25, 2)) == hex(24));           // popcount 0xdeadbeef
    CHECK(hex(r(26, 0)) == hex(28));           // ffs 0x12345678
    CHECK(hex(r(26, 5)) == hex(0xffffffff));   // ffs 0
    CHECK(hex(r(27, 5)) == hex(32));           // clz 0
    CHECK(hex(r(27, 8)) == hex(31));           // clz 1
    CHECK(hex(r(22, 12)) == hex(0x01234567));  // extr shift 32: hi
    CHECK(hex(r(22, 13)) == hex(0x00012345));  // extr shift 40: hi >> 8
    CHECK(hex(r(22, 14)) == hex(0));           // extr shift 100: everything out
    CHECK(hex(r(22, 15)) == hex(0));           // extr shift -1 = 127
    CHECK(hex(r(22, 16)) == hex(0x01234567));  // extr shift 0xa0 = 32
    CHECK(hex(r(22, 17)) == hex(0x1));         // extr 0x81234567:.., 63: the top bit
    CHECK(hex(r(20, 12)) == hex(0));           // bfeil offset 32
    CHECK(hex(r(21, 12)) == hex(0x89abcdef));  // bfi offset 32: nothing inserted
}

TEST_CASE("kernel alu: convert by mode= rounds toward zero and saturates, int to float to even") {
    const std::vector<u32> xs = {
        0,          1,          0xffffffff, 16777217,   16777219,   0x80000000,
        0x7fffffff, 100,        0xbfc00000, 0x407f5c29, 0x40200000, 0x4f800000,
        0x7f800000, 0xff800000, 0x7fc00000, 0x501502f9, 0xcf000000, 0x4f32d05e,
        0x00000001, 0xbf666666, 0x4effffff, 0x4f000000, 0xc0200000, 0xcf000001,
    };
    const Lanes x = spread(xs);
    const auto r = run_alu(
        "    convert r20, r10 mode=u32_to_f\n"
        "    convert r21, r10 mode=s32_to_f\n"
        "    convert r22, r10 mode=f_to_u32\n"
        "    convert r23, r10 mode=f_to_s32\n",
        {x}, 23);
    check32(r, 20, "u32_to_f", [&](unsigned l) { return bits(static_cast<float>(x[l])); });
    check32(r, 21, "s32_to_f",
            [&](unsigned l) { return bits(static_cast<float>(static_cast<std::int32_t>(x[l]))); });
    check32(r, 22, "f_to_u32", [&](unsigned l) {
        const double v = f(x[l]);
        if (std::isnan(v)) return 0u;
        const double t = std::trunc(v);
        if (t <= 0) return 0u;
        if (t >= 4294967295.0) return 0xffffffffu;
        return static_cast<u32>(t);
    });
    check32(r, 23, "f_to_s32", [&](unsigned l) {
        const double v = f(x[l]);
        if (std::isnan(v)) return 0u;
        const double t = std::trunc(v);
        if (t <= -2147483648.0) return 0x80000000u;
        if (t >= 2147483647.0) return 0x7fffffffu;
        return static_cast<u32>(static_cast<std::int32_t>(t));
    });
    // Hand-worked.
    CHECK(hex(r(20, 2)) == hex(0x4f800000));   // 2^32 - 1 -> 2^32
    CHECK(hex(r(20, 3)) == hex(0x4b800000));   // 2^24 + 1: tie, to even 2^24
    CHECK(hex(r(20, 4)) == hex(0x4b800002));   // 2^24 + 3: tie, to even 2^24 + 4
    CHECK(hex(r(21, 2)) == hex(0xbf800000));   // -1
    CHECK(hex(r(21, 5)) == hex(0xcf000000));   // -2^31
    CHECK(hex(r(21, 6)) == hex(0x4f000000));   // 2^31 - 1 -> 2^31
    CHECK(hex(r(22, 8)) == hex(0));            // -1.5 -> 0 (saturated)
    CHECK(hex(r(23, 8)) == hex(0xffffffff));   // -1.5 -> -1
    CHECK(hex(r(22, 9)) == hex(3));            // 3.99 -> 3
    CHECK(hex(r(23, 10)) == hex(2));           // 2.5 -> 2
    CHECK(hex(r(22, 11)) == hex(0xffffffff));  // 2^32 saturates
    CHECK(hex(r(22, 12)) == hex(0xffffffff));  // inf
    CHECK(hex(r(23, 12)) == hex(0x7fffffff));
    CHECK(hex(r(22, 13)) == hex(0));  // -inf
    CHECK(hex(r(23, 13)) == hex(0x80000000));
    CHECK(hex(r(22, 14)) == hex(0));  // NaN
    CHECK(hex(r(23, 14)) == hex(0));
    CHECK(hex(r(23, 16)) == hex(0x80000000));  // -2^31 exactly
    CHECK(hex(r(23, 17)) == hex(0x7fffffff));  // 3e9 saturates
    CHECK(hex(r(22, 17)) == hex(3000000000u));
    CHECK(hex(r(23, 19)) == hex(0));            // -0.9 -> 0
    CHECK(hex(r(23, 20)) == hex(2147483520u));  // the largest float below 2^31
    CHECK(hex(r(23, 21)) == hex(0x7fffffff));   // 2^31
    CHECK(hex(r(22, 21)) == hex(0x80000000));
    CHECK(hex(r(23, 22)) == hex(0xfffffffe));  // -2.5 -> -2
    CHECK(hex(r(23, 23)) == hex(0x80000000));  // below -2^31 saturates
}

TEST_CASE("kernel alu: rint floor ceil trunc, ties to even, flushed denormals, NaN") {
    const std::vector<u32> xs = {
        0x40200000,  // 2.5
        0xc0200000,  // -2.5
        0x40600000,  // 3.5
        0xbecccccd,  // -0.4
        0x3ecccccd,  // 0.4
        0x3f000000,  // 0.5
        0xbf000000,  // -0.5
        0x3fc00000,  // 1.5
        0x7f800000,     0xff800000,
        0x7f800001,      // NaN in: canonical out
        0x4afffffe + 1,  // 8388607.5
        0x60ad78ec,      // 1e20
        0x80000001,      // -denormal: -0
        0x00000001,      // denormal: +0
        0xbf800000,      // -1
        0x4b000001,      // 8388609
        0xc0600000,      // -3.5
    };
    const Lanes x = spread(xs);
    const auto r = run_alu(
        "    rint r20, r10\n"
        "    trunc r21, r10\n"
        "    floor r22, r10\n"
        "    ceil r23, r10\n",
        {x}, 23);
    auto ref = [&](unsigned l, float (*fn)(float)) {
        const float v = fin(x[l]);
        return fout(fn(v));
    };
    check32(r, 20, "rint",
            [&](unsigned l) { return ref(l, [](float v) { return std::nearbyint(v); }); });
    check32(r, 21, "trunc",
            [&](unsigned l) { return ref(l, [](float v) { return std::trunc(v); }); });
    check32(r, 22, "floor",
            [&](unsigned l) { return ref(l, [](float v) { return std::floor(v); }); });
    check32(r, 23, "ceil",
            [&](unsigned l) { return ref(l, [](float v) { return std::ceil(v); }); });
    // Hand-worked.
    CHECK(hex(r(20, 0)) == hex(0x40000000));   // rint 2.5 = 2
    CHECK(hex(r(20, 1)) == hex(0xc0000000));   // rint -2.5 = -2
    CHECK(hex(r(20, 2)) == hex(0x40800000));   // rint 3.5 = 4
    CHECK(hex(r(20, 3)) == hex(0x80000000));   // rint -0.4 = -0
    CHECK(hex(r(22, 3)) == hex(0xbf800000));   // floor -0.4 = -1
    CHECK(hex(r(23, 3)) == hex(0x80000000));   // ceil -0.4 = -0
    CHECK(hex(r(21, 3)) == hex(0x80000000));   // trunc -0.4 = -0
    CHECK(hex(r(23, 4)) == hex(0x3f800000));   // ceil 0.4 = 1
    CHECK(hex(r(20, 5)) == hex(0x00000000));   // rint 0.5 = 0
    CHECK(hex(r(20, 6)) == hex(0x80000000));   // rint -0.5 = -0
    CHECK(hex(r(20, 7)) == hex(0x40000000));   // rint 1.5 = 2
    CHECK(hex(r(20, 10)) == hex(0x7fc00000));  // NaN
    CHECK(hex(r(22, 10)) == hex(0x7fc00000));
    CHECK(hex(r(20, 11)) == hex(0x4b000000));  // rint 8388607.5 = 8388608
    CHECK(hex(r(22, 11)) == hex(0x4afffffe));  // floor = 8388607
    CHECK(hex(r(23, 13)) == hex(0x80000000));  // ceil(-denormal) = -0
    CHECK(hex(r(23, 14)) == hex(0x00000000));  // ceil(denormal) = 0, not 1
    CHECK(hex(r(22, 13)) == hex(0x80000000));  // floor(-denormal) = -0, not -1
    CHECK(hex(r(20, 17)) == hex(0xc0800000));  // rint -3.5 = -4
}

TEST_CASE("kernel alu: rcp32 rsqrt32 exp2_32 log2_32 within 1 ulp, special cases exact") {
    // {input, exact result bits} or {input, nullopt}: within 1 ulp of the
    // double-precision value.
    using Want = std::optional<u32>;
    struct Case {
        u32 x;
        Want want;
    };
    const std::vector<Case> rcp = {
        {0x40000000, 0x3f000000},                                // 2 -> 0.5
        {0x00000000, 0x7f800000},                                // +0 -> +inf
        {0x80000000, 0xff800000},                                // -0 -> -inf
        {0x7f800000, 0x00000000},                                // inf -> 0
        {0xff800000, 0x80000000},                                // -inf -> -0
        {0x7fc00000, 0x7fc00000},                                // NaN
        {0x00000001, 0x7f800000},                                // denormal = +0 -> inf
        {0x80000001, 0xff800000},                                // -denormal = -0 -> -inf
        {0x7f000000, 0x00000000},                                // 2^127 -> 2^-127, flushed
        {0x7f7fffff, 0x00000000},   {0x40400000, std::nullopt},  // 3
        {0xc0800000, 0xbe800000},                                // -4 -> -0.25
        {0x3dcccccd, std::nullopt},                              // 0.1
    };
    const std::vector<Case> rsqrt = {
        {0x40800000, 0x3f000000},                              // 4 -> 0.5
        {0x00000000, 0x7f800000},                              // +0 -> inf
        {0xbf800000, 0x7fc00000},                              // -1 -> NaN
        {0x7f800000, 0x00000000},                              // inf -> 0
        {0x40000000, std::nullopt},                            // 2
        {0x00000001, 0x7f800000},                              // denormal = 0 -> inf
        {0x3e800000, 0x40000000},                              // 0.25 -> 2
        {0x7fc00000, 0x7fc00000},   {0xff800000, 0x7fc00000},  // -inf -> NaN
        {0x40400000, std::nullopt},
    };
    const std::vector<Case> exp2 = {
        {0x40400000, 0x41000000},                              // 3 -> 8
        {0xbf800000, 0x3f000000},                              // -1 -> 0.5
        {0xff800000, 0x00000000},                              // -inf -> 0
        {0x7f800000, 0x7f800000},                              // inf
        {0x43000000, 0x7f800000},                              // 128 -> overflow
        {0xc2fe0000, 0x00000000},                              // -127 -> 2^-127, flushed
        {0xc2fc0000, 0x00800000},                              // -126 -> 2^-126
        {0x3f000000, std::nullopt},                            // 0.5 -> sqrt 2
        {0x00000001, 0x3f800000},                              // denormal = 0 -> 1
        {0x7fc00000, 0x7fc00000},   {0xc3160000, 0x00000000},  // -150
        {0x00000000, 0x3f800000},   {0x41200000, 0x44800000},  // 10 -> 1024
        {0x3dcccccd, std::nullopt},                            // 0.1
    };
    const std::vector<Case> log2 = {
        {0x41000000, 0x40400000},    // 8 -> 3
        {0x3f800000, 0x00000000},    // 1 -> 0
        {0x00000000, 0xff800000},    // 0 -> -inf
        {0x80000000, 0xff800000},    // -0 -> -inf
        {0xbf800000, 0x7fc00000},    // -1 -> NaN
        {0x7f800000, 0x7f800000},    // inf
        {0x00000001, 0xff800000},    // denormal = 0 -> -inf (not -149)
        {0x40400000, std::nullopt},  // 3
        {0x00800000, 0xc2fc0000},    // 2^-126 -> -126
        {0x3f000000, 0xbf800000},    // 0.5 -> -1
        {0x7fc00000, 0x7fc00000},   {0x3dcccccd, std::nullopt},
    };
    auto ins = [](const std::vector<Case>& t) {
        return per_lane([&](unsigned l) { return t[l % t.size()].x; });
    };
    const auto r = run_alu(
        "    rcp32 r20, r10\n"
        "    rsqrt32 r21, r11\n"
        "    exp2_32 r22, r12\n"
        "    log2_32 r23, r13\n",
        {ins(rcp), ins(rsqrt), ins(exp2), ins(log2)}, 23);
    auto check = [&](unsigned reg, const char* what, const std::vector<Case>& t,
                     double (*fn)(double)) {
        for (unsigned l = 0; l < 32; ++l) {
            const Case& c = t[l % t.size()];
            const u32 got = r(reg, l);
            INFO(what << " " << hex(c.x) << " lane " << l << ": got " << hex(got));
            if (c.want) {
                INFO("want " << hex(*c.want));
                CHECK(got == *c.want);
            } else {
                const double exact = fn(fin(c.x));
                const u32 near = bits(static_cast<float>(exact));
                INFO("want within 1 ulp of " << exact << " (" << hex(near) << ")");
                CHECK(ulp_distance32(got, near) <= 1);
            }
        }
    };
    check(20, "rcp32", rcp, [](double v) { return 1.0 / v; });
    check(21, "rsqrt32", rsqrt, [](double v) { return 1.0 / std::sqrt(v); });
    check(22, "exp2_32", exp2, [](double v) { return std::exp2(v); });
    check(23, "log2_32", log2, [](double v) { return std::log2(v); });
}

TEST_CASE("kernel alu: rcp16 rsqrt16 exp2_16 log2_16 keep binary16 denormals") {
    using Want = std::optional<u16>;
    struct Case {
        u16 x;
        Want want;
    };
    const std::vector<Case> rcp = {
        {0x4000, 0x3800},        // 2 -> 0.5
        {0x0000, 0x7c00},        // 0 -> inf
        {0x8000, 0xfc00},        // -0 -> -inf
        {0x0001, 0x7c00},        // 2^-24 -> 2^24: overflow
        {0x7bff, 0x0100},        // 1/65504 = 256.125 2^-24: a denormal
        {0x7c00, 0x0000},        // inf -> 0
        {0x7e00, 0x7e00},        // NaN
        {0x3c00, 0x3c00},        // 1
        {0x4200, 0x3555},        // 1/3
        {0x0400, 0x7400},        // 2^-14 -> 2^14
        {0x4900, std::nullopt},  // 10
    };
    const std::vector<Case> rsqrt = {
        {0x4400, 0x3800},        // 4 -> 0.5
        {0x0000, 0x7c00},        // 0 -> inf
        {0xbc00, 0x7e00},        // -1 -> NaN
        {0x7c00, 0x0000},        // inf -> 0
        {0x0001, 0x6c00},        // 2^-24 (kept) -> 2^12
        {0x3400, 0x4000},        // 0.25 -> 2
        {0x4000, std::nullopt},  // 2
        {0x0100, 0x5c00},        // 2^-16 -> 2^8
    };
    const std::vector<Case> exp2 = {
        {0x4400, 0x4c00},        // 4 -> 16
        {0x4c00, 0x7c00},        // 16 -> 65536: overflow
        {0xce00, 0x0001},        // -24 -> 2^-24, a denormal
        {0xcf00, 0x0000},        // -28 -> 0
        {0xfc00, 0x0000},        // -inf -> 0
        {0x0000, 0x3c00},        // 0 -> 1
        {0xbc00, 0x3800},        // -1 -> 0.5
        {0x7e00, 0x7e00},        // NaN
        {0x3800, std::nullopt},  // 0.5 -> sqrt 2
        {0xcc00, 0x0100},        // -16 -> 2^-16, a denormal
    };
    const std::vector<Case> log2 = {
        {0x0001, 0xce00},        // 2^-24 (kept) -> -24
        {0x0000, 0xfc00},        // 0 -> -inf
        {0x4c00, 0x4400},        // 16 -> 4
        {0xbc00, 0x7e00},        // -1 -> NaN
        {0x7c00, 0x7c00},        // inf -> inf
        {0x3c00, 0x0000},        // 1 -> 0
        {0x3800, 0xbc00},        // 0.5 -> -1
        {0x4200, std::nullopt},  // 3
        {0x0100, 0xcc00},        // 2^-16 -> -16
    };
    const Lanes in0 = per_lane(
        [&](unsigned l) { return rcp[l % rcp.size()].x | u32{rsqrt[l % rsqrt.size()].x} << 16; });
    const Lanes in1 = per_lane(
        [&](unsigned l) { return exp2[l % exp2.size()].x | u32{log2[l % log2.size()].x} << 16; });
    const auto r = run_alu(
        "    mov_imm r20, 0\n"
        "    rcp16 r20l, r10l\n"
        "    rsqrt16 r20h, r10h\n"
        "    mov_imm r21, 0\n"
        "    exp2_16 r21l, r11l\n"
        "    log2_16 r21h, r11h\n",
        {in0, in1}, 21);
    auto check = [&](unsigned reg, bool high, const char* what, const std::vector<Case>& t,
                     double (*fn)(double)) {
        for (unsigned l = 0; l < 32; ++l) {
            const Case& c = t[l % t.size()];
            const u16 got = high ? r.hi(reg, l) : r.lo(reg, l);
            INFO(what << " " << hex(c.x) << " lane " << l << ": got " << hex(got));
            if (c.want) {
                INFO("want " << hex(*c.want));
                CHECK(got == *c.want);
            } else {
                const double exact = fn(h2d(c.x));
                INFO("want within 1 ulp of " << exact << " (" << hex(d2h(exact)) << ")");
                CHECK(ulp_distance16(got, d2h(exact)) <= 1);
            }
            // The hand-worked values agree with double arithmetic rounded by d2h.
            if (c.want) CHECK(hex(d2h(fn(h2d(c.x)))) == hex(*c.want));
        }
    };
    check(20, false, "rcp16", rcp, [](double v) { return 1.0 / v; });
    check(20, true, "rsqrt16", rsqrt, [](double v) { return 1.0 / std::sqrt(v); });
    check(21, false, "exp2_16", exp2, [](double v) { return std::exp2(v); });
    check(21, true, "log2_16", log2, [](double v) { return std::log2(v); });
}

TEST_CASE("kernel alu: sin_pt_1 times sin_pt_2 is the sine of quarter turns") {
    const std::vector<float> xs = {0.0f,  0.25f, 0.5f, 1.0f,  1.5f,  2.0f,   2.5f, 3.0f,
                                   3.5f,  3.9f,  0.1f, 1.2f,  2.7f,  3.25f,  4.5f, -0.5f,
                                   0.75f, 1.75f, 2.2f, 0.01f, 3.99f, 1.0e-3f};
    const Lanes x = per_lane([&](unsigned l) { return bits(xs[l % xs.size()]); });
    const auto r = run_alu(
        "    sin_pt_1 r20, r10\n"
        "    sin_pt_2 r21, r20\n"
        "    fmul32 r22, r20, r21\n",
        {x}, 22);
    const double pi = std::acos(-1.0);
    for (unsigned l = 0; l < 32; ++l) {
        const float v = xs[l % xs.size()];
        // agxsim's documented fold: reduce mod 4, then y = x (x < 1), 2 - x (x < 3), x - 4.
        float m = std::fmod(v, 4.0f);
        if (m < 0) m += 4.0f;
        const float y = m < 1 ? m : m < 3 ? 2.0f - m : m - 4.0f;
        const double want = std::sin(static_cast<double>(v) * pi / 2);
        const float got = f(r(22, l));
        INFO("x " << v << " lane " << l << ": sin_pt_1 " << f(r(20, l)) << " (want " << y
                  << "), sin_pt_2 " << f(r(21, l)) << ", product " << got << ", sin " << want);
        CHECK(hex(r(20, l)) == hex(bits(y)));
        if (y == 0) {
            CHECK(f(r(21, l)) == static_cast<float>(pi / 2));
        } else {
            const double p2 = std::sin(static_cast<double>(y) * pi / 2) / y;
            CHECK(ulp_distance32(r(21, l), bits(static_cast<float>(p2))) <= 1);
        }
        CHECK(std::fabs(got - want) <=
              4 * std::ldexp(1.0, -24) * std::max(1e-30, std::fabs(want)) + 1e-7);
    }
    // Exact points: sin(0) = 0, sin(pi/2) = 1, sin(pi) = 0, sin(3pi/2) = -1.
    CHECK(hex(r(22, 0)) == hex(0));
    CHECK(hex(r(22, 3)) == hex(0x3f800000));
    CHECK(hex(r(22, 5) & 0x7fffffffu) == hex(0));
    CHECK(hex(r(22, 7)) == hex(0xbf800000));
}

TEST_CASE("kernel alu: mov and mov_imm at every width, get_sr") {
    u64 state = 7;
    auto next = [&] {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        return static_cast<u32>(state >> 32);
    };
    Lanes a{}, b{}, c{}, d{};
    for (unsigned l = 0; l < 32; ++l) {
        a[l] = next();
        b[l] = next();
        c[l] = next();
        d[l] = next();
    }
    const auto r = run_alu(
        "    mov r20, r10\n"
        "    mov_imm r21, 0x11112222\n"
        "    mov r21l, r10h\n"
        "    mov r22, r10h\n"  // zero-extends
        "    mov_imm r23, 0x33334444\n"
        "    mov r23h, r11l\n"
        "    mov r24_r25, r12_r13\n"
        "    mov_imm r26, -1\n"
        "    mov_imm r27, 1.5\n"
        "    mov_imm r28, 0x12345678\n"
        "    mov_imm r28l, 0xbeef\n"
        "    mov r29, r10\n"
        "    mov_imm r29h, 0x8000\n"
        "    mov r30, u4\n"
        "    get_sr r31, sr52\n"
        "    get_sr r32, sr51\n"
        "    get_sr r33, sr80\n"
        "    get_sr r34, sr58\n"
        "    get_sr r35, sr63\n"
        "    get_sr r36, sr4\n"
        "    get_sr r37, sr53\n"
        "    mov_imm r38, 0x55555555\n"
        "    mov r38h, u5l\n",
        {a, b, c, d}, 38, "uniform u4 value=2.5 type=f32\nuniform u5 value=0xabcd1234\n");
    check32(r, 20, "mov r20, r10", [&](unsigned l) { return a[l]; });
    check32(r, 21, "mov r21l, r10h", [&](unsigned l) { return 0x11110000u | a[l] >> 16; });
    check32(r, 22, "mov r22, r10h", [&](unsigned l) { return a[l] >> 16; });
    check32(r, 23, "mov r23h, r11l", [&](unsigned l) { return 0x4444u | b[l] << 16; });
    check32(r, 24, "mov pair lo", [&](unsigned l) { return c[l]; });
    check32(r, 25, "mov pair hi", [&](unsigned l) { return d[l]; });
    check32(r, 26, "mov_imm -1", [&](unsigned) { return 0xffffffffu; });
    check32(r, 27, "mov_imm 1.5", [&](unsigned) { return 0x3fc00000u; });
    check32(r, 28, "mov_imm r28l", [&](unsigned) { return 0x1234beefu; });
    check32(r, 29, "mov_imm r29h", [&](unsigned l) { return 0x80000000u | (a[l] & 0xffffu); });
    check32(r, 30, "mov r30, u4", [&](unsigned) { return 0x40200000u; });
    check32(r, 31, "get_sr sr52 (lane)", [&](unsigned l) { return l; });
    check32(r, 32, "get_sr sr51", [&](unsigned l) { return l; });
    check32(r, 33, "get_sr sr80", [&](unsigned l) { return l; });
    check32(r, 34, "get_sr sr58 (all active)", [&](unsigned l) { return l; });
    check32(r, 35, "get_sr sr63", [&](unsigned) { return 1u; });
    check32(r, 36, "get_sr sr4", [&](unsigned) { return 32u; });
    check32(r, 37, "get_sr sr53", [&](unsigned) { return 0u; });
    check32(r, 38, "mov r38h, u5l", [&](unsigned) { return 0x12345555u; });
}

TEST_CASE(
    "kernel alu: uniform, immediate, half and pair operands, destinations that alias sources") {
    u64 state = 31;
    auto next = [&] {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        return static_cast<u32>(state >> 32);
    };
    const std::vector<u16> specials = {0x7e00, 0x7c00, 0xfc00, 0x8000, 0x0000, 0x0001, 0x3c00};
    Lanes a{}, b{}, c{}, d{};
    for (unsigned l = 0; l < 32; ++l) {
        a[l] = next();
        c[l] = next();
        d[l] = next();
        const u16 lo = l < specials.size() ? specials[l] : d2h((static_cast<int>(l) - 16) * 0.375);
        const u16 hi = l >= 25 ? specials[l - 25] : d2h(0.5 + l * 0.25);
        b[l] = lo | u32{hi} << 16;
    }
    a[0] = 0xffffffff;
    a[1] = 0x80000000;
    const auto r = run_alu(
        "    imadd32x64 r20_r21, r10, r11, u4_u5\n"
        "    imadd32x64 r22_r23, r10, r11, -1\n"  // an immediate addend is zero-extended
        "    mov r24_r25, u4_u5\n"
        "    mov_imm r26_r27, 5\n"
        "    mov r28_r29, r10\n"  // zero-extends
        "    mov r30, r12_r13\n"  // the low half
        "    mov_imm r31, 0\n"
        "    fadd16 r31l, r11l, u6l\n"  // u6l = 1.5 as binary16
        "    fadd16 r31h, r11h, u6h\n"  // u6h unset: +0
        "    mov_imm r32, 0\n"
        "    fcmpsel16 r32l, r11l, 1.0, 0.5, 2.0 cc=lt\n"
        "    fcmpsel16 r32h, r11h, r11l, r11l, r11h cc=gtn\n"
        "    mov_imm r33, 0\n"
        "    icmpsel16 r33l, r10l, 0x8000, 1, 2 cc=ult\n"
        "    mov r34, r10\n"
        "    fadd32 r34, r34, r34\n"  // the fp32 loop in place
        "    mov r35, r12\n"
        "    iadd32 r35, r35, r35\n"
        "    mov r36, r11\n"
        "    fmul16 r36h, r36l, r36h\n"
        "    mov r38, r10\n"
        "    mov r39, r11\n"
        "    imul32x64 r38_r39, r38, r39\n"  // a pair written over its own sources
        "    mov r40, u7\n"
        "    iadd32 r41, r10, u7\n"
        "    fmul32 r42, r10, u7\n"
        "    imadd32 r43, r10, r11, r12 shift=4\n"
        "    mov_imm r44, 0x11112222\n"
        "    iadd16 r44h, r10h, r12h neg=1 shift=4\n",
        {a, b, c, d}, 44,
        "uniform u4_u5 value=0x0123456789abcdef\nuniform u6l value=1.5 type=f16\n"
        "uniform u7 value=0x40400000\n");
    auto bl = [&](unsigned l) { return static_cast<u16>(b[l]); };
    auto bh = [&](unsigned l) { return static_cast<u16>(b[l] >> 16); };
    auto wide = [&](unsigned l) { return u64{a[l]} * b[l]; };
    check32(r, 20, "imadd32x64 + u4_u5 lo",
            [&](unsigned l) { return static_cast<u32>(wide(l) + 0x0123456789abcdefull); });
    check32(r, 21, "imadd32x64 + u4_u5 hi",
            [&](unsigned l) { return static_cast<u32>((wide(l) + 0x0123456789abcdefull) >> 32); });
    check32(r, 22, "imadd32x64 + -1 lo",
            [&](unsigned l) { return static_cast<u32>(wide(l) + 0xffffffffull); });
    check32(r, 23, "imadd32x64 + -1 hi",
            [&](unsigned l) { return static_cast<u32>((wide(l) + 0xffffffffull) >> 32); });
    check32(r, 24, "mov pair from u4_u5 lo", [](unsigned) { return 0x89abcdefu; });
    check32(r, 25, "mov pair from u4_u5 hi", [](unsigned) { return 0x01234567u; });
    check32(r, 26, "mov_imm pair lo", [](unsigned) { return 5u; });
    check32(r, 27, "mov_imm pair hi", [](unsigned) { return 0u; });
    check32(r, 28, "mov pair from 32-bit lo", [&](unsigned l) { return a[l]; });
    check32(r, 29, "mov pair from 32-bit hi", [](unsigned) { return 0u; });
    check32(r, 30, "mov 32-bit from pair", [&](unsigned l) { return c[l]; });
    check32(r, 31, "fadd16 with uniform halves",
            [&](unsigned l) { return d2h(h2d(bl(l)) + 1.5) | u32{d2h(h2d(bh(l)) + 0.0)} << 16; });
    check32(r, 32, "fcmpsel16 with float immediates", [&](unsigned l) {
        const u32 lo = h2d(bl(l)) < 1.0 ? 0x3800u : 0x4000u;
        const u32 hi = ref_fcond("gtn", h2d(bh(l)), h2d(bl(l))) ? bl(l) : bh(l);
        return lo | hi << 16;
    });
    check32(r, 33, "icmpsel16 with immediates",
            [&](unsigned l) { return (a[l] & 0xffffu) < 0x8000u ? 1u : 2u; });
    check32(r, 34, "fadd32 in place", [&](unsigned l) { return ref_fadd(a[l], a[l]); });
    check32(r, 35, "iadd32 in place", [&](unsigned l) { return c[l] * 2u; });
    check32(r, 36, "fmul16 in place",
            [&](unsigned l) { return bl(l) | u32{d2h(h2d(bl(l)) * h2d(bh(l)))} << 16; });
    check32(r, 38, "imul32x64 over its sources lo",
            [&](unsigned l) { return static_cast<u32>(wide(l)); });
    check32(r, 39, "imul32x64 over its sources hi",
            [&](unsigned l) { return static_cast<u32>(wide(l) >> 32); });
    check32(r, 40, "mov from u7", [](unsigned) { return 0x40400000u; });
    check32(r, 41, "iadd32 a, u7", [&](unsigned l) { return a[l] + 0x40400000u; });
    check32(r, 42, "fmul32 a, u7 (3.0)", [&](unsigned l) { return ref_fmul(a[l], 0x40400000u); });
    check32(r, 43, "imadd32 shift=4", [&](unsigned l) { return a[l] * b[l] + (c[l] << 4); });
    check32(r, 44, "iadd16 r44h neg=1 shift=4", [&](unsigned l) {
        return 0x2222u | (((a[l] >> 16) - (c[l] >> 16) * 16u) & 0xffffu) << 16;
    });
    // Hand-worked: (2^32 - 1) b + 0x0123456789abcdef on lane 0.
    CHECK(hex(u64{r(21, 0)} << 32 | r(20, 0)) ==
          hex(u64{0xffffffffu} * b[0] + 0x0123456789abcdefull));
}

TEST_CASE("kernel alu: lanes outside the execution mask keep their registers") {
    // Active: lanes whose flag is set (an irregular pattern, lane 0 off, 31 on).
    const Lanes flag = per_lane([](unsigned l) { return (l * 7u) % 5u < 2u && l != 0 ? 1u : 0u; });
    u32 mask = 0;
    for (unsigned l = 0; l < 32; ++l) mask |= flag[l] << l;
    REQUIRE(mask != 0);
    REQUIRE(mask != 0xffffffffu);
    const Lanes fx = per_lane([](unsigned l) { return bits(0.5f + static_cast<float>(l)); });
    const Lanes ix = per_lane([](unsigned l) { return 0xfffffff0u + l * 0x01010101u; });
    const Lanes hx = per_lane([](unsigned l) { return d2h(1.0 + l) | u32{d2h(0.25 * l)} << 16; });
    std::string body;
    for (unsigned reg = 20; reg <= 34; ++reg)
        body +=
            "    mov_imm r" + std::to_string(reg) + ", " + hex(0x5a000000u + reg * 0x10101u) + "\n";
    body +=
        "    if_icmp r10, 0 cc=ne\n"
        "    fadd32 r20, r11, r11\n"         // the vectorised fp32 loop, masked
        "    iadd32 r21, r12, 7\n"           // the 32-bit store, masked
        "    fmul16 r22h, r13l, r13h\n"      // a 16-bit half
        "    imul32x64 r24_r25, r12, r12\n"  // a 64-bit pair
        "    mov r26, r12\n"
        "    get_sr r27, sr58\n"  // index among the active lanes
        "    convert r28, r12 mode=u32_to_f\n"
        "    fmadd32 r29, r11, r11, r11\n"
        "    fmul32 r30, r11, 2.0\n"  // the fp32 loop with an immediate
        "    shl r31, r12, 1\n"
        "    get_sr r32, sr63\n"
        "    mov_imm r33l, 0x1234\n"
        "    get_sr r34, sr56\n"  // index among the quad's active lanes
        "    pop_exec 1\n";
    const auto r = run_alu(body, {flag, fx, ix, hx}, 34);
    auto old = [](unsigned reg) { return 0x5a000000u + reg * 0x10101u; };
    auto on = [&](unsigned l) { return (mask >> l & 1u) != 0; };
    check32(r, 20, "masked fadd32",
            [&](unsigned l) { return on(l) ? bits(f(fx[l]) + f(fx[l])) : old(20); });
    check32(r, 21, "masked iadd32", [&](unsigned l) { return on(l) ? ix[l] + 7 : old(21); });
    check32(r, 22, "masked fmul16 r22h", [&](unsigned l) {
        const u16 p = d2h(h2d(static_cast<u16>(hx[l])) * h2d(static_cast<u16>(hx[l] >> 16)));
        return on(l) ? (old(22) & 0xffffu) | u32{p} << 16 : old(22);
    });
    check32(r, 24, "masked imul32x64 lo",
            [&](unsigned l) { return on(l) ? ix[l] * ix[l] : old(24); });
    check32(r, 25, "masked imul32x64 hi", [&](unsigned l) {
        return on(l) ? static_cast<u32>((u64{ix[l]} * ix[l]) >> 32) : old(25);
    });
    check32(r, 23, "untouched", [&](unsigned) { return old(23); });
    check32(r, 26, "masked mov", [&](unsigned l) { return on(l) ? ix[l] : old(26); });
    check32(r, 27, "masked get_sr sr58", [&](unsigned l) {
        return on(l) ? static_cast<u32>(__builtin_popcount(mask & ((1u << l) - 1))) : old(27);
    });
    check32(r, 28, "masked convert",
            [&](unsigned l) { return on(l) ? bits(static_cast<float>(ix[l])) : old(28); });
    check32(r, 29, "masked fmadd32", [&](unsigned l) {
        return on(l) ? bits(std::fma(f(fx[l]), f(fx[l]), f(fx[l]))) : old(29);
    });
    check32(r, 30, "masked fmul32 imm",
            [&](unsigned l) { return on(l) ? bits(f(fx[l]) * 2.0f) : old(30); });
    check32(r, 31, "masked shl", [&](unsigned l) { return on(l) ? ix[l] << 1 : old(31); });
    check32(r, 32, "masked get_sr sr63", [&](unsigned l) { return on(l) ? 1u : old(32); });
    check32(r, 33, "masked mov_imm r33l",
            [&](unsigned l) { return on(l) ? (old(33) & 0xffff0000u) | 0x1234u : old(33); });
    check32(r, 34, "masked get_sr sr56", [&](unsigned l) {
        const u32 quad_below = mask & ((1u << l) - 1) & (0xfu << (l & ~3u));
        return on(l) ? static_cast<u32>(__builtin_popcount(quad_below)) : old(34);
    });
    // The instructions inside the if ran with exactly the flagged lanes.
    unsigned inside = 0;
    for (u32 m : r.masks)
        if (m == mask) ++inside;
    CHECK(inside == 14);  // 13 instructions and the pop_exec
}

TEST_CASE("kernel alu: fp32 arithmetic on random bit patterns matches C++ with flushing") {
    u64 state = 2024;
    auto next = [&] {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        const auto v = static_cast<u32>(state >> 32);
        switch (v % 8) {
            case 0:
                return v & 0x807fffffu;  // denormal or zero
            case 1:
                return (v & 0x80000000u) | 0x7f800000u;  // infinity
            case 2:
                return v | 0x7f800001u;  // NaN
            case 3:
                return (v & 0x80ffffffu) | 0x3f000000u;  // near 1, to make sums cancel
            default:
                return v;
        }
    };
    for (int round = 0; round < 8; ++round) {
        Lanes a{}, b{}, c{};
        for (unsigned l = 0; l < 32; ++l) {
            a[l] = next();
            b[l] = next();
            c[l] = next();
        }
        const auto r = run_alu(
            "    fadd32 r20, r10, r11\n"
            "    fmul32 r21, r10, r11\n"
            "    fmadd32 r22, r10, r11, r12\n"
            "    fmin32 r23, r10, r11\n"
            "    fmax32 r24, r10, r11\n"
            "    fcmpsel32 r25, r10, r11, r12, r10 cc=ge\n"
            "    rint r26, r10\n",
            {a, b, c}, 26);
        INFO("round " << round);
        check32(r, 20, "fadd32", [&](unsigned l) { return ref_fadd(a[l], b[l]); });
        check32(r, 21, "fmul32", [&](unsigned l) { return ref_fmul(a[l], b[l]); });
        check32(r, 22, "fmadd32", [&](unsigned l) { return ref_fmadd(a[l], b[l], c[l]); });
        check32(r, 23, "fmin32", [&](unsigned l) { return ref_fminmax(a[l], b[l], false); });
        check32(r, 24, "fmax32", [&](unsigned l) { return ref_fminmax(a[l], b[l], true); });
        check32(r, 25, "fcmpsel32 ge",
                [&](unsigned l) { return fin(a[l]) >= fin(b[l]) ? c[l] : a[l]; });
        check32(r, 26, "rint", [&](unsigned l) { return fout(std::nearbyint(fin(a[l]))); });
    }
}

TEST_CASE("kernel alu: quad_prefix_* are exclusive scans within each quad, lowest lane first") {
    const Lanes fx = per_lane([](unsigned l) { return bits(0.5f + static_cast<float>(l)); });
    const Lanes ix = per_lane([](unsigned l) { return 0xfffffff0u + l * 3u; });
    const auto r = run_alu(
        "    quad_prefix_fadd32 r20, r10\n"
        "    quad_prefix_fmul32 r21, r10\n"
        "    quad_prefix_iadd32 r22, r11\n",
        {fx, ix}, 22);
    for (unsigned l = 0; l < 32; ++l) {
        INFO("lane " << l);
        float sum = 0.0f, product = 1.0f;
        u32 isum = 0;
        for (unsigned k = l & ~3u; k < l; ++k) {  // each step rounded, in lane order
            sum = sum + (0.5f + static_cast<float>(k));
            product = product * (0.5f + static_cast<float>(k));
            isum += ix[k];
        }
        CHECK(r(20, l) == bits(sum));
        CHECK(r(21, l) == bits(product));
        CHECK(r(22, l) == isum);
    }
    CHECK(r(20, 4) == 0);           // a quad's first lane: the identity, +0
    CHECK(r(21, 8) == bits(1.0f));  // and 1.0 for the product
}

TEST_CASE("kernel alu: simd_prefix_* are exclusive scans across the simd, xor scans too") {
    const Lanes fx = per_lane([](unsigned l) { return bits(0.25f * static_cast<float>(l + 1)); });
    const Lanes ix = per_lane([](unsigned l) { return 0x9e3779b9u * (l + 1); });
    const auto r = run_alu(
        "    simd_prefix_fadd32 r20, r10\n"
        "    simd_prefix_fmul32 r21, r10\n"
        "    simd_prefix_iadd32 r22, r11\n"
        "    simd_prefix_ixor32 r23, r11\n"
        "    quad_prefix_ixor32 r24, r11\n",
        {fx, ix}, 24);
    for (unsigned l = 0; l < 32; ++l) {
        INFO("lane " << l);
        float sum = 0.0f, product = 1.0f;
        u32 isum = 0, ixor = 0, qxor = 0;
        for (unsigned k = 0; k < l; ++k) {  // each step rounded, in lane order
            sum = sum + 0.25f * static_cast<float>(k + 1);
            product = product * (0.25f * static_cast<float>(k + 1));
            isum += ix[k];
            ixor ^= ix[k];
            if (k >= (l & ~3u)) qxor ^= ix[k];
        }
        CHECK(r(20, l) == bits(sum));
        CHECK(r(21, l) == bits(product));
        CHECK(r(22, l) == isum);
        CHECK(r(23, l) == ixor);
        CHECK(r(24, l) == qxor);
    }
    CHECK(r(22, 0) == 0);  // the first lane gets the identity
}

TEST_CASE("kernel alu: simd_reduce_* and quad_reduce_* give every lane its group's total") {
    const Lanes fx = per_lane([](unsigned l) { return bits(0.5f * static_cast<float>(l + 1)); });
    const Lanes ix = per_lane([](unsigned l) { return 0x9e3779b9u * (l + 1); });
    const auto r = run_alu(
        "    simd_reduce_fadd32 r20, r10\n"
        "    simd_reduce_iadd32 r21, r11\n"
        "    simd_reduce_ixor32 r22, r11\n"
        "    quad_reduce_fmul32 r23, r10\n"
        "    quad_reduce_iadd32 r24, r11\n",
        {fx, ix}, 24);
    float sum = 0.0f;
    u32 isum = 0, ixor = 0;
    for (unsigned k = 0; k < 32; ++k) {  // lowest lane first, each step rounded
        sum = sum + 0.5f * static_cast<float>(k + 1);
        isum += ix[k];
        ixor ^= ix[k];
    }
    for (unsigned l = 0; l < 32; ++l) {
        INFO("lane " << l);
        float product = 1.0f;
        u32 qsum = 0;
        for (unsigned k = l & ~3u; k < (l & ~3u) + 4; ++k) {
            product = product * (0.5f * static_cast<float>(k + 1));
            qsum += ix[k];
        }
        CHECK(r(20, l) == bits(sum));
        CHECK(r(21, l) == isum);
        CHECK(r(22, l) == ixor);
        CHECK(r(23, l) == bits(product));
        CHECK(r(24, l) == qsum);
    }
}

TEST_CASE("kernel alu: the 16-bit reductions work in 16 bits and keep the other half") {
    // Low halves: 16-bit floats near 1 whose sums and products round at
    // every step (so the order and the width of each step show); high
    // halves: integers.
    const Lanes x = per_lane([](unsigned l) {
        return u32{d2h(1.01 + static_cast<double>(l % 8) / 32.0)} | (0x7001u * (l + 1)) << 16;
    });
    const auto r = run_alu(
        "    mov_imm r20, 0xa5a5a5a5\n"
        "    simd_reduce_fadd16 r20l, r10l\n"
        "    simd_reduce_iadd16 r20h, r10h\n"
        "    mov_imm r21, 0x5a5a5a5a\n"
        "    simd_reduce_ixor16 r21l, r10h\n"
        "    quad_reduce_fmul16 r22l, r10l\n"
        "    quad_reduce_iadd16 r22h, r10h\n"
        "    quad_reduce_fadd16 r23l, r10l\n"
        "    quad_reduce_ixor16 r23h, r10h\n"
        "    simd_reduce_fmul16 r24l, r10l\n"
        "    simd_reduce_fadd16 r25l, 1.5\n"  // a float immediate is made 16-bit
        "    quad_reduce_fmul16 r25h, 1.5\n",
        {x}, 25);
    u32 sum = 0, isum = 0, ixor = 0, product = 0x3c00;  // 1.0
    for (unsigned k = 0; k < 32; ++k) {                 // lowest lane first, each step rounded
        sum = d2h(h2d(sum) + h2d(x[k] & 0xffffu));
        product = d2h(h2d(product) * h2d(x[k] & 0xffffu));
        isum = (isum + (x[k] >> 16)) & 0xffffu;
        ixor ^= x[k] >> 16;
    }
    for (unsigned l = 0; l < 32; ++l) {
        INFO("lane " << l);
        u32 qprod = 0x3c00, qsum = 0, qisum = 0, qxor = 0;
        for (unsigned k = l & ~3u; k < (l & ~3u) + 4; ++k) {
            qprod = d2h(h2d(qprod) * h2d(x[k] & 0xffffu));
            qsum = d2h(h2d(qsum) + h2d(x[k] & 0xffffu));
            qisum = (qisum + (x[k] >> 16)) & 0xffffu;
            qxor ^= x[k] >> 16;
        }
        CHECK(hex(r.lo(20, l)) == hex(sum));
        CHECK(hex(r.hi(20, l)) == hex(isum));
        CHECK(hex(r.lo(21, l)) == hex(ixor));
        CHECK(hex(r.hi(21, l)) == hex(0x5a5a));  // the other half is kept
        CHECK(hex(r.lo(22, l)) == hex(qprod));
        CHECK(hex(r.hi(22, l)) == hex(qisum));
        CHECK(hex(r.lo(23, l)) == hex(qsum));
        CHECK(hex(r.hi(23, l)) == hex(qxor));
        CHECK(hex(r.lo(24, l)) == hex(product));
    }
    for (unsigned l = 0; l < 32; ++l) {
        CHECK(hex(r.lo(25, l)) == hex(d2h(48.0)));    // 32 x 1.5
        CHECK(hex(r.hi(25, l)) == hex(d2h(5.0625)));  // 1.5 to the 4th
    }
    // Rounding at each step: the sum is not the exact one rounded once.
    double exact = 0.0;
    for (unsigned k = 0; k < 32; ++k) exact += h2d(x[k] & 0xffffu);
    CHECK(hex(sum) != hex(d2h(exact)));
}
