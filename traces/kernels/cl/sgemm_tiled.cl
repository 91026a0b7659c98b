// sgemm_tiled: C = A B for n x n row-major 32-bit float matrices, tiled
// through threadgroup memory. A threadgroup of 16 x 16 threads computes a
// 64 x 64 tile of C, each thread a 4 x 4 block. Per K step of 16 it stages a
// 64 x 16 tile of A (transposed, so a thread's 4 rows are one 128-bit read)
// and a 16 x 64 tile of B in threadgroup memory with 128-bit device loads,
// a barrier, then 16 steps of two 128-bit threadgroup reads and 16 fused
// multiply-adds, and a barrier. Every element of C accumulates in k order
// with fma(), so C is bit-identical to the test's std::fma reference.
// n must be a multiple of 64. OpenCL C twin of traces/kernels/sgemm_tiled.agxk.
#pragma OPENCL FP_CONTRACT OFF

kernel __attribute__((reqd_work_group_size(16, 16, 1)))
void sgemm_tiled(global const float *A, global const float *B, global float *C, uint n)
{
    local float4 At[16 * 16];  // A tile transposed: [k][64 rows], 4096 bytes
    local float4 Bt[16 * 16];  // B tile: [k][64 columns], 4096 bytes
    uint tx = (uint)get_local_id(0);
    uint ty = (uint)get_local_id(1);
    uint tid = 16 * ty + tx;
    uint col0 = 64 * (uint)get_group_id(0);
    uint row0 = 64 * (uint)get_group_id(1);
    uint r = tid / 4;          // the A-tile row this thread loads
    uint kq = 4 * (tid % 4);   // its 4 columns of the A tile

    float4 acc0 = 0, acc1 = 0, acc2 = 0, acc3 = 0;  // rows 4 ty + 0..3
    local float *Atf = (local float *)At;
    for (uint k0 = 0; k0 < n; k0 += 16) {
        uint ia = (row0 + r) * n + k0 + kq;         // A[row0 + r][k0 + kq ..]
        uint ib = (k0 + ty) * n + col0 + 4 * tx;    // B[k0 + ty][col0 + 4 tx ..]
        float4 a = vload4(0, A + ia);
        float4 b = vload4(0, B + ib);
        Atf[(kq + 0) * 64 + r] = a.x;
        Atf[(kq + 1) * 64 + r] = a.y;
        Atf[(kq + 2) * 64 + r] = a.z;
        Atf[(kq + 3) * 64 + r] = a.w;
        Bt[ty * 16 + tx] = b;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint k = 0; k < 16; k++) {
            float4 av = At[k * 16 + ty];  // A[4 ty + 0..3][k0 + k]
            float4 bv = Bt[k * 16 + tx];  // B[k0 + k][4 tx + 0..3]
            acc0 = fma((float4)(av.x), bv, acc0);
            acc1 = fma((float4)(av.y), bv, acc1);
            acc2 = fma((float4)(av.z), bv, acc2);
            acc3 = fma((float4)(av.w), bv, acc3);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    uint c = (row0 + 4 * ty) * n + col0 + 4 * tx;
    vstore4(acc0, 0, C + c);
    c += n;
    vstore4(acc1, 0, C + c);
    c += n;
    vstore4(acc2, 0, C + c);
    c += n;
    vstore4(acc3, 0, C + c);
}
