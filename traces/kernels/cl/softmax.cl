// softmax: out[r][j] = exp(in[r][j] - max_r) / sum_j exp(in[r][j] - max_r)
// for a rows x cols matrix of 32-bit floats, one simd per row. Three passes
// over the row, each lane taking every 32nd element: the maximum (fmax, then
// the simd's maximum), exp2((x - max) log2 e) on the special-function unit
// (native_exp2 of fma(x, log2 e, -max log2 e)) written to out while summing,
// then out times the reciprocal (native_recip) of the simd's sum. cols must
// be a multiple of 32. OpenCL C twin of traces/kernels/softmax.agxk; the
// hand-written kernel combines the lanes with simd_shuffle_xor butterflies,
// this one with sub_group_reduce_max/add, so the row's float sum may be
// associated differently (a few ulps; the test allows 1e-5 relative).
#pragma OPENCL FP_CONTRACT OFF
#pragma OPENCL EXTENSION cl_khr_subgroups : enable

kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void softmax(global const float *in, global float *out, uint cols)
{
    uint lane = get_sub_group_local_id();
    uint row = (uint)get_global_id(0) >> 5;
    uint first = row * cols;       // the row's first element
    uint end = first + cols;       // the row's end

    float m = -INFINITY;
    for (uint j = first + lane; j < end; j += 32)
        m = fmax(m, in[j]);
    m = sub_group_reduce_max(m);   // the row's maximum in every lane

    float nm = m * -M_LOG2E_F;     // -max log2 e
    float sum = 0.0f;
    for (uint j = first + lane; j < end; j += 32) {
        float e = native_exp2(fma(in[j], M_LOG2E_F, nm));
        sum += e;
        out[j] = e;
    }
    sum = sub_group_reduce_add(sum);  // the row's sum in every lane

    float r = native_recip(sum);
    for (uint j = first + lane; j < end; j += 32)
        out[j] = out[j] * r;
}
