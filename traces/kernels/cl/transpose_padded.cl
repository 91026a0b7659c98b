// transpose_padded: out = in transposed, for an n x n matrix of 32-bit floats, through
// threadgroup memory in 32 x 32 tiles, with a row stride of 33 words in threadgroup memory (one word of padding per row): the column reads of the second phase hit 32 different banks.
// A threadgroup of 32 x 8 threads moves one tile: each thread loads 4 rows
// of its column (coalesced), writes them into the tile, and after a barrier
// reads 4 of the tile's columns and stores them as rows of out (coalesced).
// n must be a multiple of 32. OpenCL C twin of traces/kernels/transpose_padded.agxk; the
// tile's row stride (the hand-written kernel's param/uniform stride) is a
// compile-time constant here, STRIDE = 33, since a local array's size must be.

#define STRIDE 33

kernel __attribute__((reqd_work_group_size(32, 8, 1)))
void transpose_padded(global const float *in, global float *out, uint n)
{
    local float tile[32 * STRIDE];  // 4 * 32 * STRIDE bytes
    uint tx = (uint)get_local_id(0);
    uint ty = (uint)get_local_id(1);
    uint x0 = 32 * (uint)get_group_id(0);  // the tile's first column of in
    uint y0 = 32 * (uint)get_group_id(1);  // the tile's first row of in

    for (uint k = 0; k < 32; k += 8)
        tile[(ty + k) * STRIDE + tx] = in[(y0 + ty + k) * n + x0 + tx];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 0; k < 32; k += 8)
        out[(x0 + ty + k) * n + y0 + tx] = tile[tx * STRIDE + ty + k];
}
