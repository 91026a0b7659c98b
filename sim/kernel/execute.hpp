// Executing one instruction of a kernel on the active lanes of a simd: the
// arithmetic, SFU, shuffle and matrix instructions here; memory and control
// flow where the stream runs them (they need the launch's memories and the
// program).
#pragma once

#include "sim/kernel/kernel_program.hpp"
#include "sim/kernel/simd_state.hpp"

namespace agx::kernel {

// Whether `sem` is executed by execute_alu (everything but memory, control
// flow and synchronisation).
bool is_alu(Sem sem);

// Runs an ALU instruction: reads its sources on the lanes of `s.exec` and
// writes its destination there. Cross-lane operations (shuffles, ballots,
// matrices) may read every lane, active or not, as the hardware can.
void execute_alu(const KernelInstruction& k, SimdState& s, const Uniforms& u);

// The value get_sr writes for `lane`.
std::uint32_t special_register(std::uint32_t sr, const SimdState& s, unsigned lane);

}  // namespace agx::kernel
