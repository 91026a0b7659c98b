// saxpy: y[i] = a * x[i] + y[i] (one fused multiply-add) for every i of the
// grid, one thread per element. OpenCL C twin of traces/kernels/saxpy.agxk:
// the same arguments in the same order (x, y, a: the hand-written kernel's
// uniforms u0_u1, u2_u3, u4), no bounds check (the grid is exactly n).
#pragma OPENCL FP_CONTRACT OFF

kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void saxpy(global const float *x, global float *y, float a)
{
    uint i = (uint)get_global_id(0);
    y[i] = fma(x[i], a, y[i]);
}
