#!/usr/bin/env python3
"""Writes traces/kernels/sgemm_tiled.agxk: its inner K step is unrolled 16
times, as the compiler unrolls it, which is too long to keep by hand.
Run from the project root: python3 scripts/gen_sgemm_kernels.py"""

HEADER = """\
# sgemm_tiled: C = A B for n x n row-major 32-bit float matrices, tiled
# through threadgroup memory as a hand-written Metal SGEMM is. A threadgroup
# of 16 x 16 threads computes a 64 x 64 tile of C, each thread a 4 x 4 block
# in 16 registers. Per K step of 16 it stages a 64 x 16 tile of A
# (transposed, so a thread's 4 rows are one 128-bit read) and a 16 x 64
# tile of B in threadgroup memory with 128-bit device loads, a barrier,
# then 16 unrolled steps of two 128-bit threadgroup loads and 16 fmadd32,
# and a barrier. Every element of C accumulates in k order with fused
# multiply-adds. n must be a multiple of 64.
# (Written by scripts/gen_sgemm_kernels.py.)
agxsim-kernel 1
kernel name=sgemm_tiled

param n=256
launch grid=n/4,n/4 threadgroup=16,16 registers=96 threadgroup_memory=8192
buffer A size=4*n*n fill=random type=f32 seed=21 low=-1 high=1
buffer B size=4*n*n fill=random type=f32 seed=22 low=-1 high=1
buffer C size=4*n*n fill=zero type=f32
uniform u0_u1 buffer=A
uniform u2_u3 buffer=B
uniform u4_u5 buffer=C
uniform u6 value=n

    mov_imm           r0l, 0
    get_sr            r1, sr48              # tx
    get_sr            r2, sr49              # ty
    get_sr            r3, sr51              # tid = 16 ty + tx
    get_sr            r4, sr0
    shl               r4, r4, 6             # col0 = 64 * tile column
    get_sr            r5, sr1
    shl               r5, r5, 6             # row0 = 64 * tile row
    shr               r6, r3, 2             # r = tid / 4: the A-tile row this thread loads
    bitop32           r7, r3, 3 op=and
    shl               r7, r7, 2             # kq = 4 (tid mod 4): its 4 columns of the A tile
    iadd32            r40, r5, r6
    imadd32           r40, r40, u6, r7      # A offset of (row0 + r, kq)
    imadd32           r41, r2, u6, r4
    iadd32            r41, r41, r1 shift=2  # B offset of (ty, col0 + 4 tx)
    shl               r44, r7, 6
    iadd32            r44, r44, r6          # A tile (transposed): [kq][r]
    shl               r45, r2, 6
    iadd32            r45, r45, r1 shift=2  # B tile: [ty][4 tx]
    shl               r46, r2, 2            # a thread's 4 rows: [k][4 ty]
    shl               r47, r1, 2            # a thread's 4 columns: [k][4 tx]
    mov_imm           r42, 0                # k0
"""

def body():
    out = []
    for i in range(16):
        out.append(f"    mov_imm           r{16 + i}, 0")
    out.append("k_step:")
    out += [
        "    iadd32            r43, r40, r42",
        "    device_load       r32_r33_r34_r35, u0_u1, r43 slot=0   # A[row0 + r][k0 + kq ..]",
        "    imadd32           r43, r42, u6, r41",
        "    device_load       r36_r37_r38_r39, u2_u3, r43 slot=0   # B[k0 + ty][col0 + 4 tx ..]",
        "    wait              0",
        "    threadgroup_store r32, 0, r44",
        "    threadgroup_store r33, 256, r44",
        "    threadgroup_store r34, 512, r44",
        "    threadgroup_store r35, 768, r44",
        "    threadgroup_store r36_r37_r38_r39, 4096, r45",
        "    threadgroup_barrier",
    ]
    for kk in range(16):
        out.append(f"    threadgroup_load  r8_r9_r10_r11, {kk * 256}, r46       # A[4 ty ..][k0 + {kk}]")
        out.append(f"    threadgroup_load  r12_r13_r14_r15, {4096 + kk * 256}, r47   # B[k0 + {kk}][4 tx ..]")
        for i in range(4):
            for j in range(4):
                out.append(f"    fmadd32           r{16 + 4 * i + j}, r{8 + i}, r{12 + j}, r{16 + 4 * i + j}")
    out += [
        "    threadgroup_barrier",
        "    iadd32            r42, r42, 16",
        "    while_icmp        r42, u6 cc=ult n=1",
        "    jmp_exec_any      k_step",
        "    pop_exec          1",
        "    iadd32            r43, r5, r2 shift=2",
        "    imadd32           r43, r43, u6, r4",
        "    iadd32            r43, r43, r1 shift=2  # C offset of (row0 + 4 ty, col0 + 4 tx)",
    ]
    for i in range(4):
        out.append(f"    device_store      r{16 + 4 * i}_r{17 + 4 * i}_r{18 + 4 * i}_r{19 + 4 * i}, u4_u5, r43 slot=1")
        if i < 3:
            out.append("    iadd32            r43, r43, u6")
    out.append("    stop")
    return "\n".join(out) + "\n"

with open("traces/kernels/sgemm_tiled.agxk", "w") as f:
    f.write(HEADER + body())
