// stream_triad: a[i] = b[i] + s * c[i] (one fused multiply-add per element),
// STREAM's triad on 32-bit floats; each thread moves 4 elements with 128-bit
// loads and a 128-bit store (float4). OpenCL C twin of
// traces/kernels/stream_triad.agxk (grid n/4, thread i: elements 4i..4i+3).
#pragma OPENCL FP_CONTRACT OFF

kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void stream_triad(global float4 *a, global const float4 *b, global const float4 *c, float s)
{
    uint i = (uint)get_global_id(0);
    a[i] = fma(c[i], (float4)(s), b[i]);
}
