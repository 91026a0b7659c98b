#include "sim/timing/register_cache.hpp"

#include <algorithm>
#include <stdexcept>

namespace agx {

RegisterCache::RegisterCache(const RegisterCacheConfig& cfg)
    : victims_(cfg.replacement),
      per_simd_(cfg.sharing == RegisterCacheSharing::Simd),
      partition_entries_(cfg.entries),
      half_own_entry_(cfg.half_registers == HalfRegisters::OwnEntry),
      read_latency_(cfg.file_read_latency),
      read_latency_16_(cfg.file_read_latency_16bit),
      read_halves_per_cycle_(std::max<std::uint32_t>(1, cfg.file_read_ports * 2)) {
    if (cfg.entries >= kNone) throw std::invalid_argument("register cache: too many entries");
    // Shared: the entries now. Per simd: a partition each as simds appear (add_row).
    const std::uint32_t n = per_simd_ ? 0 : cfg.entries;
    keys_.assign(n, kEmpty);
    stamps_.assign(n, 0);
    slots_.assign(n, 0);
    empties_ = n;
    if (!per_simd_) uses_.reserve(4 * std::size_t{cfg.entries} + 64);  // the shared LRU's log
}

// Out of line: it runs once per simd slot, at its first instruction.
[[gnu::noinline]] std::size_t RegisterCache::add_row(std::uint32_t hi) {
    const std::size_t rows = entry_of_.size() >> kTagBits;
    if (rows >= kNone) throw std::logic_error("register cache: too many simds");
    if (hi >= row_of_.size()) row_of_.resize(std::size_t{hi} + 1, kNone);
    row_of_[hi] = static_cast<std::uint16_t>(rows);
    entry_of_.resize((rows + 1) << kTagBits, kNone);
    if (per_simd_) {  // the row's partition: entries rows * partition_entries_ on
        const std::size_t n = (rows + 1) * std::size_t{partition_entries_};
        if (n >= kNone) throw std::logic_error("register cache: too many simds");
        keys_.resize(n, kEmpty);
        stamps_.resize(n, 0);
        slots_.resize(n, 0);
    }
    return rows << kTagBits;
}

// When the log is full: keeps only the stamps still current (at most one per
// entry), in order, so the log never grows.
[[gnu::noinline]] void RegisterCache::drop_stale_uses() {
    std::size_t kept = 0;
    for (std::size_t i = first_use_; i < uses_.size(); ++i)
        if (stamps_[uses_[i].entry] == uses_[i].stamp) uses_[kept++] = uses_[i];
    uses_.resize(kept);
    first_use_ = 0;
}

std::uint32_t RegisterCache::partition_victim(std::size_t row) {
    const auto first = static_cast<std::uint32_t>(row * partition_entries_);
    for (std::uint32_t e = first; e < first + partition_entries_; ++e)
        if (keys_[e] == kEmpty) return e;
    const std::uint32_t victim = first + victims_.pick(partition_entries_, [&](std::uint32_t i) {
        return stamps_[first + i];
    });
    entry_of_[slots_[victim]] = kNone;
    return victim;
}

inline void RegisterCache::fill(std::uint32_t k, std::size_t slot) {
    std::uint32_t victim = 0;
    if (per_simd_) {
        victim = partition_victim(slot >> kTagBits);
    } else if (keys_.empty()) {
        return;
    } else if (empties_ > 0) {
        while (keys_[victim] != kEmpty) ++victim;
        --empties_;
    } else {
        // Random replacement only picks among full entries; an empty one goes first.
        victim = victims_.policy() == Replacement::Random
                     ? victims_.pick(static_cast<std::uint32_t>(keys_.size()),
                                     [](std::uint32_t) { return 0; })
                     : oldest();
        entry_of_[slots_[victim]] = kNone;
    }
    entry_of_[slot] = static_cast<std::uint16_t>(victim);
    keys_[victim] = k;
    slots_[victim] = static_cast<std::uint32_t>(slot);
    stamp(victim);
}

void RegisterCache::empty(std::uint32_t e) {
    entry_of_[slots_[e]] = kNone;
    keys_[e] = kEmpty;
    stamps_[e] = 0;
    if (!per_simd_) ++empties_;  // (a partition finds its empty entries by its scan)
}

namespace {
// Calls f(tag) for each entry a register operand needs: the number, in
// halves, of each 32-bit register it spans (a 64-bit or vector operand spans
// several), or 256 + a 16-bit register's own number when halves take entries
// of their own, so that a 16-bit register and the 32-bit one holding it are
// different entries. Tags stay below 512, a row of entry_of_.
template <class F>
void for_each_register(const Operand& op, bool half_own_entry, F&& f) {
    if (op.kind != OperandKind::Reg) return;
    if (half_own_entry && op.halves == 1) return f(static_cast<std::uint16_t>(256 + op.first_half));
    const auto last = static_cast<std::uint16_t>((op.first_half + op.halves - 1) & ~1u);
    for (auto tag = static_cast<std::uint16_t>(op.first_half & ~1u); tag <= last; tag += 2) f(tag);
}
}  // namespace

// The entry of the 32-bit register holding 16-bit register tag `tag` (a tag
// of 256 and up), or kNone (also for a 32-bit tag).
template <class SlotOf>
std::uint16_t RegisterCache::holder_entry(std::uint32_t simd, std::uint16_t tag, SlotOf& slot_of) {
    if (tag < 256) return kNone;
    const auto wide = static_cast<std::uint16_t>((tag - 256) & ~1u);
    return entry_of_[slot_of(key(simd, wide), wide)];
}

std::uint32_t RegisterCache::fetch_operands(std::uint32_t simd, const Instruction& inst,
                                            std::uint64_t now) {
    const std::size_t simd_row = row(simd);
    // Key k's slot in entry_of_: in the simd's row, unless the register
    // number spills into the simd bits of the key (>= 512, never in a trace).
    auto slot_of = [&](std::uint32_t k, std::uint16_t reg) {
        return reg <= kTagMask ? simd_row + reg : row(k >> kTagBits) + (k & kTagMask);
    };
    std::uint32_t missed_halves = 0;
    bool missed_32bit = false;
    for (unsigned i = 0; i < inst.num_src; ++i) {
        const Operand& op = inst.src[i];
        for_each_register(op, half_own_entry_, [&](std::uint16_t reg) {
            const std::uint32_t k = key(simd, reg);
            const std::size_t slot = slot_of(k, reg);
            const std::uint16_t e = entry_of_[slot];
            if (e != kNone) {
                ++hits_;
                if (op.hint == CacheHint::Discard)
                    empty(e);
                else if (victims_.stamp_on_hit())
                    stamp(e);
                return;
            }
            // A 16-bit register is also read from the 32-bit register holding
            // it, when that is cached (its entry holds both halves).
            if (const std::uint16_t wide = holder_entry(simd, reg, slot_of); wide != kNone) {
                ++hits_;
                if (victims_.stamp_on_hit()) stamp(wide);
                return;
            }
            ++misses_;
            missed_halves += std::min<std::uint32_t>(op.halves, 2);
            missed_32bit |= op.halves > 1;
            if (op.hint != CacheHint::Discard) fill(k, slot);
        });
    }
    for (unsigned i = 0; i < inst.num_dst; ++i)
        for_each_register(inst.dst[i], half_own_entry_, [&](std::uint16_t reg) {
            const std::uint32_t k = key(simd, reg);
            const std::size_t slot = slot_of(k, reg);
            std::uint16_t e = entry_of_[slot];
            // A 16-bit result goes into the 32-bit register holding it if that is cached.
            if (e == kNone) e = holder_entry(simd, reg, slot_of);
            if (e != kNone)
                stamp(e);  // a new value: stamped as a fill
            else
                fill(k, slot);
        });
    file_read_halves_ += missed_halves;
    if (missed_halves == 0) return 0;
    // The operands arrive file_read_latency cycles after the reads have had their turn.
    const std::uint64_t per_cycle = read_halves_per_cycle_.value();
    const std::uint64_t start = std::max<std::uint64_t>(ports_busy_until_, now * per_cycle);
    ports_busy_until_ = start + missed_halves;
    const std::uint64_t done = read_halves_per_cycle_.divide(ports_busy_until_ + per_cycle - 1);
    // Issue may proceed while at most one cycle of reads is queued.
    ports_free_at_ = done > 0 ? done - 1 : 0;
    // Reads ending within the issue cycle cost nothing; later ones delay the result.
    return (done > now + 1 ? static_cast<std::uint32_t>(done - now - 1) : 0) +
           (missed_32bit ? read_latency_ : read_latency_16_);
}

void RegisterCache::evict_simd(std::uint32_t simd) {
    if (per_simd_) {  // its partition only (keys spilling into another row never occur)
        if (simd >= row_of_.size() || row_of_[simd] == kNone) return;
        const std::uint32_t first = std::uint32_t{row_of_[simd]} * partition_entries_;
        for (std::uint32_t e = first; e < first + partition_entries_; ++e)
            if (keys_[e] != kEmpty) empty(e);
        return;
    }
    for (std::uint32_t i = 0; i < keys_.size(); ++i)
        if (keys_[i] != kEmpty && keys_[i] >> kTagBits == simd) empty(i);
}

}  // namespace agx
