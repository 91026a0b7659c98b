// scan: out[i] = in[0] + ... + in[i-1], an exclusive prefix sum of n 32-bit
// integers (wrapping), in one pass with a chained look-back between
// threadgroups. Each threadgroup of 256 threads scans its block: a simd
// scan (sub_group_scan_inclusive_add), simd 0 scans the 8 simd totals from
// threadgroup memory, and its lane 0 waits until the previous block has
// published its inclusive prefix (flags[g-1], read with atomic adds of 0,
// the top bit marking it published), then publishes its own with an atomic
// exchange. Threadgroups start in order, so the one a block waits on is
// always running or done. n must be a multiple of 256 and every prefix below
// 2^31. OpenCL C twin of traces/kernels/scan.agxk (which scans with
// simd_shuffle_up steps; the integer sums are the same).
#pragma OPENCL EXTENSION cl_khr_subgroups : enable

kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void scan(global const uint *in, global uint *out, global uint *flags)
{
    local uint totals[9];  // 36 bytes: [0..7] per simd, [8] the carry in
    uint i = (uint)get_global_id(0);
    uint lane = get_sub_group_local_id();
    uint simd = get_sub_group_id();
    uint g = (uint)get_group_id(0);

    uint v = in[i];
    uint incl = sub_group_scan_inclusive_add(v);   // inclusive scan in the simd
    uint simd_total = sub_group_broadcast(incl, 31u);
    if (lane == 0)
        totals[simd] = simd_total;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (simd == 0) {
        uint t = lane < 8 ? totals[lane] : 0;
        uint tincl = sub_group_scan_inclusive_add(t);  // scan of the 8 totals
        uint offset = tincl - t;                       // simd s's offset in the block
        uint block_total = sub_group_broadcast(tincl, 7u);
        if (lane == 0) {
            uint carry = 0;                            // 0 for block 0
            if (g != 0) {                              // wait for block g-1
                do
                    carry = atomic_add(&flags[g - 1], 0u);
                while (carry == 0);
            }
            carry &= 0x7fffffffu;                      // its inclusive prefix
            atomic_xchg(&flags[g], (carry + block_total) | 0x80000000u);  // publish
            totals[8] = carry;
        }
        if (lane < 8)
            totals[lane] = offset;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    out[i] = incl + totals[simd] + totals[8] - v;     // exclusive = inclusive - v
}
