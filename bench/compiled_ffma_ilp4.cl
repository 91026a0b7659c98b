// The bench's compiled ALU-bound kernel (docs/performance.md, the
// compiled_ffma_ilp4 row): ffma_ilp4 written in OpenCL C, four independent
// FFMA32 chains, 16 per pass, in a loop of `passes` passes; the sum is
// stored so that the compiler keeps every chain. bench/compiled_ffma_ilp4.agxk
// is what `agxsim kernel compile` makes of it (a test holds the two equal).
kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void compiled_ffma_ilp4(global float *out, uint passes, float m, float c)
{
    const uint i = (uint)get_global_id(0);
    float a0 = (float)i, a1 = a0 + 1.0f, a2 = a0 + 2.0f, a3 = a0 + 3.0f;
    for (uint p = 0; p < passes; ++p) {
        a0 = fma(a0, m, c); a1 = fma(a1, m, c); a2 = fma(a2, m, c); a3 = fma(a3, m, c);
        a0 = fma(a0, m, c); a1 = fma(a1, m, c); a2 = fma(a2, m, c); a3 = fma(a3, m, c);
        a0 = fma(a0, m, c); a1 = fma(a1, m, c); a2 = fma(a2, m, c); a3 = fma(a3, m, c);
        a0 = fma(a0, m, c); a1 = fma(a1, m, c); a2 = fma(a2, m, c); a3 = fma(a3, m, c);
    }
    out[i] = a0 + a1 + a2 + a3;
}
