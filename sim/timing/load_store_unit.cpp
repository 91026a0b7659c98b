#include "sim/timing/load_store_unit.hpp"

#include <algorithm>
#include <array>

namespace agx {

LoadStoreUnit::LoadStoreUnit(const CoreConfig& core, MemoryPort& l1)
    : l1_(l1),
      line_bytes_(std::max<std::uint32_t>(1, core.l1d.line_bytes)),
      cycles_per_line_(std::max<std::uint32_t>(
          1, (line_bytes_ + std::max<std::uint32_t>(1, core.l1d.bytes_per_cycle) - 1) /
                 std::max<std::uint32_t>(1, core.l1d.bytes_per_cycle))) {}

MemoryIssue LoadStoreUnit::issue(const Instruction& inst, bool write, Cycle now) {
    // Distinct lines in first-touch order; at most one per lane, and a lane's
    // access (up to 16 bytes, aligned) never straddles two lines.
    std::array<std::uint64_t, 32> lines{};
    std::uint32_t n = 0;
    for (unsigned lane = 0; lane < 32; ++lane) {
        if (!(inst.active_mask >> lane & 1u)) continue;
        const std::uint64_t line = inst.mem.address(lane) / line_bytes_;
        bool seen = false;
        for (std::uint32_t i = 0; i < n; ++i)
            if (lines[i] == line) {
                seen = true;
                break;
            }
        if (!seen) lines[n++] = line;
    }
    MemoryIssue r;
    r.lines = n;
    r.complete = now;
    for (std::uint32_t i = 0; i < n; ++i) {
        // Lines leave the unit one after another at the data path's rate.
        const Cycle start = now + static_cast<Cycle>(i) * cycles_per_line_;
        r.complete = std::max(r.complete, l1_.access(lines[i] * line_bytes_, line_bytes_, write, start));
    }
    r.busy_cycles = n * cycles_per_line_;
    ++requests_;
    lines_ += n;
    bytes_ += static_cast<std::uint64_t>(n) * line_bytes_;
    return r;
}

}  // namespace agx
