// sgemm_simd_matrix_tiled: C = A B for n x n row-major 32-bit float
// matrices from threadgroup-memory tiles. A threadgroup of 4 simds computes
// a 64 x 64 tile of C, simd s = 2 sy + sx a 32 x 32 block; per K step of 16
// the threadgroup stages A's 64 x 16 and B's 16 x 64 tiles with 128-bit
// device loads (rows padded to 20 and 68 words against bank conflicts: 5120
// + 4352 = 9472 bytes), a barrier, the multiply-adds, and a barrier.
// OpenCL C twin of traces/kernels/sgemm_simd_matrix_tiled.agxk. OpenCL C has
// no simdgroup-matrix builtin, so instead of 16 simd_matrix_fmadd32 per k8
// step on 4 x 4 fragments of 8 x 8, each lane computes the 32 elements of C
// its fragments hold (rows 32 sy + 8 i + m, columns 32 sx + 8 j + n', n'+1
// for i, j in 0..3; m = 4 (l / 16) + (l / 2) mod 4, n' = 4 ((l / 8) mod 2)
// + 2 (l mod 2) for lane l) with fma() in k order, reading A four k at a
// time (128-bit) and B as 64-bit pairs from the tiles. Every element of C is
// the same chain of fused multiply-adds as the matrix unit's (and the test's
// std::fma reference): bit-identical results. n must be a multiple of 64.
#pragma OPENCL FP_CONTRACT OFF
#pragma OPENCL EXTENSION cl_khr_subgroups : enable

#define AS 20  // A tile row stride in words (16 + 4 padding)
#define BS 68  // B tile row stride in words (64 + 4 padding)

// One k: b[j] = B tile (k, columns of fragment j); acc[i][j] += a_i b[j].
#define K1(kq, kk, comp)                                                     \
    {                                                                        \
        const uint k = 4 * (kq) + (kk);                                      \
        float2 b[4];                                                         \
        _Pragma("unroll") for (uint j = 0; j < 4; j++)                       \
            b[j] = B2[(k * BS) / 2 + cb + 4 * j];                            \
        _Pragma("unroll") for (uint i = 0; i < 4; i++)                       \
            _Pragma("unroll") for (uint j = 0; j < 4; j++)                   \
                acc[i][j] = fma((float2)(a[i].comp), b[j], acc[i][j]);       \
    }
// Four k: a[i] = A tile (row of fragment i, k = 4 kq .. 4 kq + 3), 128 bits.
#define K4(kq)                                                               \
    {                                                                        \
        float4 a[4];                                                         \
        _Pragma("unroll") for (uint i = 0; i < 4; i++)                       \
            a[i] = At[ra + i * (8 * AS / 4) + (kq)];                         \
        K1(kq, 0, x) K1(kq, 1, y) K1(kq, 2, z) K1(kq, 3, w)                  \
    }

kernel __attribute__((reqd_work_group_size(128, 1, 1)))
void sgemm_simd_matrix_tiled(global const float *A, global const float *B, global float *C,
                             uint n)
{
    local float4 At[64 * AS / 4];  // A tile: 64 rows x 16 (+4), 5120 bytes
    local float4 Bt[16 * BS / 4];  // B tile: 16 rows x 64 (+4), 4352 bytes
    local float2 *B2 = (local float2 *)Bt;

    uint lane = get_sub_group_local_id();
    uint s = get_sub_group_id();
    uint sy = s / 2, sx = s % 2;
    uint m = 4 * (lane / 16) + (lane / 2) % 4;
    uint np = 4 * ((lane / 8) % 2) + 2 * (lane % 2);
    uint col0 = 64 * (uint)get_group_id(0);
    uint row0 = 64 * (uint)get_group_id(1);
    uint tid = (uint)get_local_id(0);

    // Staging: A row tid / 2, columns 8 (tid % 2) ..; B row tid / 8, columns 8 (tid % 8) ..
    uint ar = tid / 2, ac = 8 * (tid % 2);
    uint br = tid / 8, bc = 8 * (tid % 8);
    uint ia = (row0 + ar) * n + ac;            // + k0
    uint ib = br * n + col0 + bc;              // + k0 n
    uint ta = (ar * AS + ac) / 4;              // float4 index in At
    uint tb = (br * BS + bc) / 4;              // float4 index in Bt
    // This lane's rows of the A tile (float4 index of k = 0) and columns of
    // the B tile (float2 index of k = 0).
    uint ra = ((32 * sy + m) * AS) / 4;        // row 32 sy + 8 i + m: + 8 i AS / 4
    uint cb = (32 * sx + np) / 2;              // column 32 sx + 8 j + n': + 4 j

    float2 acc[4][4];
#pragma unroll
    for (uint i = 0; i < 4; i++)
#pragma unroll
        for (uint j = 0; j < 4; j++)
            acc[i][j] = 0;

    for (uint k0 = 0; k0 < n; k0 += 16) {
        uint ka = ia + k0, kb = ib + k0 * n;
        At[ta] = vload4(0, A + ka);
        At[ta + 1] = vload4(0, A + (ka + 4));
        Bt[tb] = vload4(0, B + kb);
        Bt[tb + 1] = vload4(0, B + (kb + 4));
        barrier(CLK_LOCAL_MEM_FENCE);
        // k = 4 kq .. 4 kq + 3 (written out: Mesa leaves a loop over kq rolled)
        K4(0)
        K4(1)
        K4(2)
        K4(3)
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    uint c = (row0 + 32 * sy + m) * n + col0 + 32 * sx + np;
#pragma unroll
    for (uint i = 0; i < 4; i++) {
#pragma unroll
        for (uint j = 0; j < 4; j++)
            vstore2(acc[i][j], 0, C + (c + 8 * j));
        c += 8 * n;
    }
}
