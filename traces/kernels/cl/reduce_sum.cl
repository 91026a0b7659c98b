// reduce_sum: total += the sum of the grid's 32-bit integers in[i]
// (wrapping). Each simd adds its 32 values (sub_group_reduce_add), lane 0 of
// each simd puts its sum in threadgroup memory, a barrier, then simd 0 adds
// the 8 partial sums the same way and its lane 0 adds the threadgroup's sum
// to total with one atomic. OpenCL C twin of traces/kernels/reduce_sum.agxk
// (which adds with simd_shuffle_xor butterflies; integer sums are the same
// in any order).
#pragma OPENCL EXTENSION cl_khr_subgroups : enable

kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void reduce_sum(global const uint *in, global uint *total)
{
    local uint partial[8];  // 32 bytes: one sum per simd
    uint i = (uint)get_global_id(0);
    uint lane = get_sub_group_local_id();
    uint simd = get_sub_group_id();

    uint sum = sub_group_reduce_add(in[i]);
    if (lane == 0)
        partial[simd] = sum;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (simd == 0) {
        uint p = lane < 8 ? partial[lane] : 0;
        p = sub_group_reduce_add(p);
        if (lane == 0)
            atomic_add(total, p);
    }
}
