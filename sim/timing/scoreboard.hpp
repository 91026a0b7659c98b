// Per-simd register scoreboard: the cycle at which each 16-bit half-register
// holds its newest value, and the forwarding stamp of the instruction that
// wrote it (forwarding.hpp). Working in halves lets 16-bit, 32-bit and 64-bit
// operands share one index space (r5 = halves 10..11).
#pragma once

#include <algorithm>
#include <array>

#include "sim/common/cycle.hpp"
#include "sim/trace/instruction.hpp"

namespace agx {

class Scoreboard {
  public:
    static constexpr unsigned kHalves = 256;

    void reset() {
        ready_.fill(0);
        stamp_.fill(0);
    }

    Cycle ready_at(const Operand& op) const {
        if (op.kind != OperandKind::Reg) return 0;
        // 16- and 32-bit operands, nearly all of them, without a loop.
        if (op.first_half + 2u <= kHalves) {
            const Cycle* r = &ready_[op.first_half];
            if (op.halves == 1) return r[0];
            if (op.halves == 2) return r[0] > r[1] ? r[0] : r[1];
        }
        Cycle t = 0;
        const unsigned end = std::min<unsigned>(op.first_half + op.halves, kHalves);
        for (unsigned h = op.first_half; h < end; ++h) t = std::max(t, ready_[h]);
        return t;
    }

    // When the latest of the operand's halves whose writer's stamp is not
    // `stamp` became ready (0: none): the halves of a 32-bit operand may come
    // from two 16-bit writes, one forwarded and one not.
    Cycle ready_off_path(const Operand& op, std::uint32_t stamp) const {
        if (op.kind != OperandKind::Reg) return 0;
        Cycle t = 0;
        const unsigned end = std::min<unsigned>(op.first_half + op.halves, kHalves);
        for (unsigned h = op.first_half; h < end; ++h)
            if (stamp_[h] != stamp) t = std::max(t, ready_[h]);
        return t;
    }

    void write(const Operand& op, Cycle when, std::uint32_t stamp = 0) {
        if (op.kind != OperandKind::Reg) return;
        const unsigned end = std::min<unsigned>(op.first_half + op.halves, kHalves);
        for (unsigned h = op.first_half; h < end; ++h) {
            ready_[h] = when;
            stamp_[h] = stamp;
        }
    }

  private:
    std::array<Cycle, kHalves> ready_{};
    std::array<std::uint32_t, kHalves> stamp_{};
};

}  // namespace agx
