#include "sim/timing/load_store_unit.hpp"

#include <algorithm>
#include <array>
#include <bitset>
#include <cstdio>
#include <string>

#include "sim/trace/memory_fault.hpp"

namespace agx {

namespace {

constexpr std::uint32_t kMaxLines = 64;  // 32 lanes, each in at most two lines

std::string hex(std::uint64_t v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
    return buf;
}

// Bytes [from, to) of a 64-bit word's worth of byte positions as a mask.
std::uint64_t byte_range(std::uint32_t from, std::uint32_t to) {
    const std::uint64_t high = to >= 64 ? ~0ull : (1ull << to) - 1;
    return high & ~((1ull << from) - 1);
}

// Bytes of one line the lanes touch, as a byte mask when the line is at most
// 128 bytes (the union is exact), else as a capped sum.
struct LineBytes {
    std::uint64_t line;
    std::uint64_t mask[2];
    std::uint32_t sum;

    void reset(std::uint64_t l) {
        line = l;
        mask[0] = mask[1] = 0;
        sum = 0;
    }
    void add(std::uint32_t offset, std::uint32_t bytes, bool use_mask) {
        if (!use_mask) {
            sum += bytes;
            return;
        }
        const std::uint32_t end = offset + bytes;
        if (offset < 64) mask[0] |= byte_range(offset, std::min(end, 64u));
        if (end > 64) mask[1] |= byte_range(offset > 64 ? offset - 64 : 0, end - 64);
    }
    std::uint32_t bytes(std::uint32_t line_bytes, bool use_mask) const {
        if (!use_mask) return std::min(sum, line_bytes);
        return static_cast<std::uint32_t>(std::bitset<64>(mask[0]).count() +
                                          std::bitset<64>(mask[1]).count());
    }
};

}  // namespace

LoadStoreUnit::LoadStoreUnit(const CoreConfig& core, MemoryPort& l1)
    : l1_(l1),
      line_bytes_(std::max<std::uint32_t>(1, core.l1d.line_bytes)),
      path_bytes_(std::max<std::uint32_t>(1, core.l1d.bytes_per_cycle)) {}

std::uint32_t LoadStoreUnit::coalesce(const Instruction& inst, bool atomic, LineUse* out,
                                      std::uint32_t& atomic_depth) const {
    const std::uint32_t size = std::max<std::uint32_t>(1, inst.mem.bytes_per_lane);
    const std::uint32_t align = natural_alignment(size);
    atomic_depth = 1;
    // The common case, every lane on the next `size` bytes: whole lines, no
    // per-lane work.
    if (!inst.mem.explicit_lanes && inst.active_mask == kFullMask &&
        inst.mem.stride == static_cast<std::int64_t>(size) && !atomic) {
        const std::uint64_t start = inst.mem.base, end = start + 32ull * size;
        if (start % align != 0) return coalesce_lanes(inst, atomic, out, atomic_depth);
        std::uint32_t n = 0;
        for (std::uint64_t line = start / line_bytes_; line * line_bytes_ < end; ++line) {
            const std::uint64_t from = std::max(start, line * line_bytes_);
            const std::uint64_t to = std::min(end, (line + 1) * line_bytes_);
            out[n++] = {line, static_cast<std::uint32_t>(to - from)};
        }
        return n;
    }
    return coalesce_lanes(inst, atomic, out, atomic_depth);
}

std::uint32_t LoadStoreUnit::coalesce_lanes(const Instruction& inst, bool atomic, LineUse* out,
                                            std::uint32_t& atomic_depth) const {
    const std::uint32_t size = std::max<std::uint32_t>(1, inst.mem.bytes_per_lane);
    const std::uint32_t align = natural_alignment(size);
    const bool use_mask = line_bytes_ <= 128;
    LineBytes seen[kMaxLines];
    std::uint32_t n = 0;
    for (unsigned lane = 0; lane < 32; ++lane) {
        if (!(inst.active_mask >> lane & 1u)) continue;
        const std::uint64_t a = inst.mem.address(lane);
        if (a % align != 0)
            throw MemoryFault("lane " + std::to_string(lane) + " address " + hex(a) +
                              " is not aligned to its " + std::to_string(size) + "-byte access");
        for (std::uint64_t line = a / line_bytes_; line <= (a + size - 1) / line_bytes_; ++line) {
            const std::uint64_t line_start = line * line_bytes_;
            const std::uint64_t from = std::max(a, line_start);
            const std::uint64_t to = std::min(a + size, line_start + line_bytes_);
            // Coalesced lanes continue the line of the lane before: look back first.
            std::uint32_t i = n;
            while (i > 0 && seen[i - 1].line != line) --i;
            if (i == 0) {
                seen[n].reset(line);
                i = ++n;
            }
            seen[i - 1].add(static_cast<std::uint32_t>(from - line_start),
                            static_cast<std::uint32_t>(to - from), use_mask);
        }
    }
    for (std::uint32_t i = 0; i < n; ++i)
        out[i] = {seen[i].line, seen[i].bytes(line_bytes_, use_mask)};

    atomic_depth = 1;
    if (atomic) {
        // Lanes on one address serialise: the deepest pile decides.
        for (unsigned lane = 0; lane < 32; ++lane) {
            if (!(inst.active_mask >> lane & 1u)) continue;
            std::uint32_t same = 0;
            for (unsigned other = 0; other < 32; ++other)
                if ((inst.active_mask >> other & 1u) &&
                    inst.mem.address(other) == inst.mem.address(lane))
                    ++same;
            atomic_depth = std::max(atomic_depth, same);
        }
    }
    return n;
}

MemoryIssue LoadStoreUnit::issue(const Instruction& inst, AccessKind kind, Cycle arrival) {
    std::array<LineUse, kMaxLines> lines;
    std::uint32_t depth = 1;
    const std::uint32_t n = coalesce(inst, kind == AccessKind::Atomic, lines.data(), depth);

    MemoryIssue r;
    r.lines = n;
    r.complete = arrival;
    Cycle t = std::max(arrival, path_free_);
    for (std::uint32_t i = 0; i < n; ++i) {
        const std::uint64_t address = lines[i].line * line_bytes_;
        const Cycle done = kind == AccessKind::Atomic
                               ? l1_.atomic(address, lines[i].bytes, t)
                               : l1_.access(address, lines[i].bytes, kind == AccessKind::Store, t);
        // A miss that waited for an MSHR holds the path until it got one.
        const Cycle accepted = std::max(t, l1_.last_accepted());
        mshr_wait_ += accepted - t;
        const std::uint32_t cycles =
            std::max<std::uint32_t>(1, (lines[i].bytes + path_bytes_ - 1) / path_bytes_);
        t = accepted + cycles;
        r.busy_cycles += cycles;
        r.complete = std::max(r.complete, done);
        bytes_ += lines[i].bytes;
    }
    if (kind == AccessKind::Atomic) r.complete += depth - 1;
    path_free_ = t;
    busy_ += r.busy_cycles;
    ++requests_;
    lines_ += n;
    return r;
}

}  // namespace agx
