// histogram256: bins[v] += 1 for each 32-bit input v = in[i] in [0, 255].
// Each threadgroup of 256 zeroes a private histogram of 256 bins in
// threadgroup memory, adds its 256 inputs to it with threadgroup atomics,
// and after a barrier adds its nonzero bins to the global histogram with
// one device atomic per bin. OpenCL C twin of
// traces/kernels/histogram256.agxk.

kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void histogram256(global const uint *in, global uint *bins)
{
    local uint hist[256];  // 1024 bytes
    uint i = (uint)get_global_id(0);
    uint t = (uint)get_local_id(0);
    uint v = in[i];
    hist[t] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_add(&hist[v], 1u);
    barrier(CLK_LOCAL_MEM_FENCE);
    uint count = hist[t];
    if (count != 0)
        atomic_add(&bins[t], count);
}
