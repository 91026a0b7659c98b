// stencil5: a 5-point stencil on an n x n grid of 32-bit floats,
//   out[y][x] = c0 in[y][x] + c1 (in[y][x-1] + in[y][x+1] + in[y-1][x] + in[y+1][x])
// for interior points, summed in that order (c0 in[y][x] is rounded, then a
// fused multiply-add); boundary points are copied. One thread per point on
// a 2-D grid. OpenCL C twin of traces/kernels/stencil5.agxk (there n-1 is a
// uniform of its own; here the kernel computes it).
#pragma OPENCL FP_CONTRACT OFF

kernel __attribute__((reqd_work_group_size(32, 8, 1)))
void stencil5(global const float *in, global float *out, uint n, float c0, float c1)
{
    uint x = (uint)get_global_id(0);
    uint y = (uint)get_global_id(1);
    uint i = y * n + x;
    float v = in[i];
    if (x > 0 && x < n - 1 && y > 0 && y < n - 1) {
        float s = ((in[i - 1] + in[i + 1]) + in[i - n]) + in[i + n];
        v = fma(s, c1, v * c0);
    }
    out[i] = v;
}
