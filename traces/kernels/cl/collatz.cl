// collatz: steps[i] = the number of Collatz steps (x even: x / 2, else
// 3x + 1, wrapping at 32 bits) that take start[i] to 1. A loop whose trip
// count differs from lane to lane with an if/else nested in it. OpenCL C
// twin of traces/kernels/collatz.agxk.

kernel __attribute__((reqd_work_group_size(128, 1, 1)))
void collatz(global const uint *start, global uint *steps)
{
    uint i = (uint)get_global_id(0);
    uint x = start[i];
    uint n = 0;
    while (x != 1) {
        if ((x & 1) == 0)
            x = x >> 1;
        else
            x = 3 * x + 1;
        n++;
    }
    steps[i] = n;
}
