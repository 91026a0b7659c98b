// The binary32 add, multiply and fused multiply-add over the 32 lanes of a
// simd, as straight loops the compiler vectorises: the executor's hottest
// operations. Same results as isa/semantics.hpp's fadd32 / fmul32 / fmadd32
// lane by lane (tests/unit/test_kernel_exec.cpp compares them).
#pragma once

#include <cstdint>

namespace agx::kernel {

enum class Fp32Op : std::uint8_t { Add, Mul, Madd };

// out[l] = op(a[l], b[l], c[l]) for every lane l whose bit is set in `mask`;
// other lanes of `out` keep their value. `c` is read only for Madd. `out`
// may alias a source.
void fp32_lanes(Fp32Op op, std::uint32_t* out, const std::uint32_t* a, const std::uint32_t* b,
                const std::uint32_t* c, std::uint32_t mask);

// The 8 x 8 binary32 matrix product d = a b + c, row-major, each element
// accumulated from c in k order with fused multiply-adds (fmadd32's rules
// at every step): simd_matrix_fmadd32's arithmetic.
void fp32_matrix_fmadd8x8(std::uint32_t* d, const std::uint32_t* a, const std::uint32_t* b,
                          const std::uint32_t* c);

}  // namespace agx::kernel
