#include "sim/kernel/fp32_lanes.hpp"

#include <cmath>
#include <cstring>

#include "isa/semantics.hpp"
#include "sim/kernel/simd_state.hpp"

namespace agx::kernel {

namespace {

// The flush-to-zero and canonical-NaN rules of isa/semantics.hpp, inline
// and branch-free there, so that the loops below vectorise.
using isa::sem::detail::in32;
using isa::sem::detail::out32;

// Compiled twice: for x86-64-v3 (AVX2 and FMA; chosen at load time where
// the host has them, so fmaf is one instruction and the loop is vector
// code) and for the baseline, where fmaf is the C library's.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define AGX_FP32_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define AGX_FP32_CLONES
#endif

AGX_FP32_CLONES
void compute(Fp32Op op, std::uint32_t* r, const std::uint32_t* a, const std::uint32_t* b,
             const std::uint32_t* c) {
    switch (op) {
        case Fp32Op::Add:
            for (unsigned l = 0; l < kLanes; ++l) r[l] = out32(in32(a[l]) + in32(b[l]));
            break;
        case Fp32Op::Mul:
            for (unsigned l = 0; l < kLanes; ++l) r[l] = out32(in32(a[l]) * in32(b[l]));
            break;
        case Fp32Op::Madd:
            for (unsigned l = 0; l < kLanes; ++l)
                r[l] = out32(std::fma(in32(a[l]), in32(b[l]), in32(c[l])));
            break;
    }
}

AGX_FP32_CLONES
void matrix_product(std::uint32_t* d, const std::uint32_t* a, const std::uint32_t* b,
                    const std::uint32_t* c) {
    // Each element takes its 8 steps in order (k = 0..7), as the definition
    // does; the rows advance together, step by step, so that the 8 rows'
    // chains of dependent fmas overlap instead of waiting on each other (a
    // row is one vector of its 8 columns). Between steps a sum is only
    // flushed: the canonical NaN that out32 writes matters only at the end,
    // since a NaN sum stays NaN through every later step.
    float acc[8][8];
    for (unsigned m = 0; m < 8; ++m)
        for (unsigned n = 0; n < 8; ++n) acc[m][n] = in32(c[8 * m + n]);
    for (unsigned i = 0; i < 8; ++i) {
        float bi[8];
        for (unsigned n = 0; n < 8; ++n) bi[n] = in32(b[8 * i + n]);
        for (unsigned m = 0; m < 8; ++m) {
            const float am = in32(a[8 * m + i]);
            for (unsigned n = 0; n < 8; ++n)
                acc[m][n] = in32(isa::sem::bits(std::fma(am, bi[n], acc[m][n])));
        }
    }
    for (unsigned m = 0; m < 8; ++m)
        for (unsigned n = 0; n < 8; ++n) d[8 * m + n] = out32(acc[m][n]);
}

}  // namespace

void fp32_matrix_fmadd8x8(std::uint32_t* d, const std::uint32_t* a, const std::uint32_t* b,
                          const std::uint32_t* c) {
    matrix_product(d, a, b, c);
}

void fp32_lanes(Fp32Op op, std::uint32_t* out, const std::uint32_t* a, const std::uint32_t* b,
                const std::uint32_t* c, std::uint32_t mask) {
    alignas(32) std::uint32_t r[kLanes];
    compute(op, r, a, b, op == Fp32Op::Madd ? c : a);
    if (mask == 0xffffffffu) {
        std::memcpy(out, r, sizeof r);
        return;
    }
    for (unsigned l = 0; l < kLanes; ++l)
        if (mask >> l & 1u) out[l] = r[l];
}

}  // namespace agx::kernel
