// sgemm_simd_matrix: C = A B for n x n row-major 32-bit float matrices.
// Each simd computes a 16 x 16 block of C (a 2-D grid: x counts simds
// across, y block rows) with its lanes laid out as the 2 x 2 8 x 8 fragments
// of traces/kernels/sgemm_simd_matrix.agxk hold it: lane l owns rows
// row0 + m and row0 + 8 + m, columns col0 + n', n'+1 and col0 + 8 + n', n'+9
// (m = 4 (l / 16) + (l / 2) mod 4, n' = 4 ((l / 8) mod 2) + 2 (l mod 2)).
// OpenCL C twin of that kernel. OpenCL C has no simdgroup-matrix builtin,
// so instead of simd_matrix_fmadd32 on fragments each thread computes its 8
// elements of C itself: per step of 8 along k it reads its two rows of A
// (8 floats each) and the 8 rows of B at its columns (64-bit pairs) straight
// from device memory, and accumulates with fma() in k order. Every element
// of C is therefore the same chain of fused multiply-adds as the matrix
// unit's (and the test's std::fma reference): bit-identical results.
// n must be a multiple of 16.
#pragma OPENCL FP_CONTRACT OFF
#pragma OPENCL EXTENSION cl_khr_subgroups : enable

kernel __attribute__((reqd_work_group_size(128, 1, 1)))
void sgemm_simd_matrix(global const float *A, global const float *B, global float *C, uint n)
{
    uint lane = get_sub_group_local_id();
    uint m = 4 * (lane / 16) + (lane / 2) % 4;
    uint np = 4 * ((lane / 8) % 2) + 2 * (lane % 2);
    uint col0 = 16 * ((uint)get_global_id(0) / 32);  // one simd per block column
    uint row0 = 16 * (uint)get_global_id(1);         // block row
    uint ia0 = (row0 + m) * n;       // A row row0 + m
    uint ia1 = ia0 + 8 * n;          // A row row0 + 8 + m
    uint c0 = col0 + np;             // columns c0, c0 + 1
    uint c1 = c0 + 8;                // columns c1, c1 + 1

    float2 acc00 = 0, acc01 = 0, acc10 = 0, acc11 = 0;
    for (uint k = 0; k < n; k += 8) {
        // A[row0 + m][k .. k + 7] and A[row0 + 8 + m][k .. k + 7]: 128-bit loads
        float4 a0l = vload4(0, A + (ia0 + k)), a0h = vload4(0, A + (ia0 + k + 4));
        float4 a1l = vload4(0, A + (ia1 + k)), a1h = vload4(0, A + (ia1 + k + 4));
        float av0[8] = {a0l.x, a0l.y, a0l.z, a0l.w, a0h.x, a0h.y, a0h.z, a0h.w};
        float av1[8] = {a1l.x, a1l.y, a1l.z, a1l.w, a1h.x, a1h.y, a1h.z, a1h.w};
#pragma unroll
        for (uint j = 0; j < 8; j++) {
            uint ib = (k + j) * n;  // B[k + j][c0, c0 + 1] and [c1, c1 + 1]: 64-bit loads
            float2 b0 = vload2(0, B + (ib + c0));
            float2 b1 = vload2(0, B + (ib + c1));
            acc00 = fma((float2)(av0[j]), b0, acc00);
            acc01 = fma((float2)(av0[j]), b1, acc01);
            acc10 = fma((float2)(av1[j]), b0, acc10);
            acc11 = fma((float2)(av1[j]), b1, acc11);
        }
    }
    vstore2(acc00, 0, C + (ia0 + c0));
    vstore2(acc01, 0, C + (ia0 + c1));
    vstore2(acc10, 0, C + (ia1 + c0));
    vstore2(acc11, 0, C + (ia1 + c1));
}
