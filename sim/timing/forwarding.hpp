// A scheduler's result forwarding, and what its instructions pay without it.
//
// A result is usable by a dependent instruction as soon as it is ready when
// the forwarding path brings it there. With `forwarding: same_simd` the path
// only serves back-to-back issue from one simd: once the scheduler has issued
// an instruction of another simd after the producer, the consumer must read
// the value from the register cache, which holds it `write_latency` cycles
// after it is ready. A simd running alone, or issuing its independent work
// back to back (quadruple dispatch from one simd, metal-benchmarks), never
// pays; dependent chains that take turns with other simds do. The evidence
// (metal-benchmarks ilp_occupancy.csv, docs/validation.md item 4): a 16-bit
// chain costs 3.1 cycles per operation alone, 3.5 beside one other simd and
// more beside two, where a 32-bit chain, whose 3-cycle register-file read
// already covers the wait, hardly slows down.
//
// Bookkeeping: the scheduler counts its issues; a simd counts its own. Their
// difference grows only when another simd issues, so a result stamped with
// it at issue is still on the path while the consumer's difference is the
// same. A simd whose stamp has not changed since its last issue has every
// result on the path or in the cache, which spares the per-source check.
#pragma once

#include <algorithm>
#include <cstdint>

#include "sim/common/cycle.hpp"
#include "sim/timing/scoreboard.hpp"
#include "sim/trace/instruction.hpp"

namespace agx {

// A simd's side of the bookkeeping (kept in its SimdContext).
struct ForwardingState {
    std::uint32_t issued = 0;      // instructions it has issued
    std::uint32_t last_stamp = 0;  // its stamp at its last issue
    // Until when a result of it may be off the path and not yet in the
    // register cache (another simd has issued since it was issued).
    Cycle off_path_until = 0;
};

class Forwarding {
  public:
    // same_simd_only false: every result is forwarded (the wait never applies).
    Forwarding(bool same_simd_only, std::uint32_t write_latency)
        : same_simd_only_(same_simd_only), write_latency_(write_latency) {}

    // Whether results can ever miss the path (off: nothing is ever late).
    bool enabled() const { return same_simd_only_ && write_latency_ > 0; }

    // The stamp of what the simd issues now, having issued `own_issues` before.
    std::uint32_t stamp(std::uint32_t own_issues) const { return issues_ - own_issues; }
    void count_issue() { ++issues_; }

    struct Issued {
        std::uint32_t late;   // as late_sources
        std::uint32_t stamp;  // for the instruction's results
    };
    // The simd issues `in` now; `last_result` is when its latest result so
    // far is ready. Counts the issue.
    Issued issue(ForwardingState& f, const Scoreboard& sb, const Instruction& in, Cycle now,
                 Cycle last_result) {
        const std::uint32_t mine = stamp(f.issued);
        if (enabled() && mine != f.last_stamp) {  // another simd issued since its last issue
            f.off_path_until = last_result + write_latency_;
            f.last_stamp = mine;
        }
        const std::uint32_t late = now < f.off_path_until ? late_sources(sb, f.issued, in, now) : 0;
        count_issue();
        ++f.issued;
        return {late, mine};
    }

    // Cycles after `now` at which the last of the instruction's register
    // sources reaches it (0: all in time): a source off the forwarding path
    // and not yet in the register cache arrives write_latency cycles after
    // it was ready.
    std::uint32_t late_sources(const Scoreboard& sb, std::uint32_t own_issues,
                               const Instruction& in, Cycle now) const {
        if (!enabled()) return 0;
        const std::uint32_t mine = stamp(own_issues);
        std::uint32_t late = 0;
        for (unsigned i = 0; i < in.num_src; ++i) {
            const Operand& op = in.src[i];
            if (op.kind != OperandKind::Reg) continue;
            const Cycle off_path = sb.ready_off_path(op, mine);
            if (off_path == 0) continue;
            const Cycle in_cache = off_path + write_latency_;
            if (in_cache <= now) continue;
            late = std::max(late, static_cast<std::uint32_t>(in_cache - now));
        }
        return late;
    }

  private:
    bool same_simd_only_;
    std::uint32_t write_latency_;
    std::uint32_t issues_ = 0;
};

}  // namespace agx
