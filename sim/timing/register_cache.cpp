#include "sim/timing/register_cache.hpp"

#include <algorithm>

namespace agx {

RegisterCache::RegisterCache(const RegisterCacheConfig& cfg)
    : entries_(cfg.entries),
      victims_(replacement_from_name(cfg.replacement.empty() ? "lru" : cfg.replacement)),
      read_halves_per_cycle_(std::max<std::uint32_t>(1, cfg.file_read_ports * 2)) {}

RegisterCache::Entry* RegisterCache::find(std::uint32_t simd, std::uint16_t reg) {
    for (auto& e : entries_)
        if (e.valid && e.simd == simd && e.reg == reg) return &e;
    return nullptr;
}

void RegisterCache::insert(std::uint32_t simd, std::uint16_t reg) {
    if (entries_.empty()) return;
    Entry* victim = nullptr;
    for (auto& e : entries_)
        if (!e.valid) {
            victim = &e;
            break;
        }
    if (!victim)
        victim = &entries_[victims_.pick(static_cast<std::uint32_t>(entries_.size()),
                                         [this](std::uint32_t i) { return entries_[i].last_use; })];
    *victim = Entry{simd, reg, true, ++tick_};
}

std::uint64_t RegisterCache::ports_free_at() const {
    // Issue may proceed while at most one cycle of reads is queued.
    const std::uint64_t queued_until = (ports_busy_until_ + read_halves_per_cycle_ - 1) / read_halves_per_cycle_;
    return queued_until > 0 ? queued_until - 1 : 0;
}

std::uint32_t RegisterCache::fetch_operands(std::uint32_t simd, const Instruction& inst, std::uint64_t now) {
    std::uint32_t missed_halves = 0;
    for (unsigned i = 0; i < inst.num_src; ++i) {
        const Operand& op = inst.src[i];
        if (op.kind != OperandKind::Reg) continue;
        // A 64-bit or vector operand spans several 32-bit registers.
        const std::uint16_t first = op.first_half / 2;
        const std::uint16_t last = (op.first_half + op.halves - 1) / 2;
        for (std::uint16_t reg = first; reg <= last; ++reg) {
            Entry* e = find(simd, reg);
            if (e) {
                ++hits_;
                if (victims_.stamp_on_hit()) e->last_use = ++tick_;
                if (op.hint == CacheHint::Discard) e->valid = false;
                continue;
            }
            ++misses_;
            missed_halves += std::min<std::uint32_t>(op.halves, 2);
            if (op.hint != CacheHint::Discard) insert(simd, reg);
        }
    }
    for (unsigned i = 0; i < inst.num_dst; ++i) {
        const Operand& op = inst.dst[i];
        if (op.kind != OperandKind::Reg) continue;
        const std::uint16_t first = op.first_half / 2;
        const std::uint16_t last = (op.first_half + op.halves - 1) / 2;
        for (std::uint16_t reg = first; reg <= last; ++reg) {
            if (Entry* e = find(simd, reg))
                e->last_use = ++tick_;  // a new value: stamped as a fill
            else
                insert(simd, reg);
        }
    }
    file_read_halves_ += missed_halves;
    if (missed_halves == 0) return 0;
    const std::uint64_t start = std::max<std::uint64_t>(ports_busy_until_, now * read_halves_per_cycle_);
    ports_busy_until_ = start + missed_halves;
    // Reads ending within the issue cycle cost nothing; later ones delay the result.
    const std::uint64_t done = (ports_busy_until_ + read_halves_per_cycle_ - 1) / read_halves_per_cycle_;
    return done > now + 1 ? static_cast<std::uint32_t>(done - now - 1) : 0;
}

void RegisterCache::evict_simd(std::uint32_t simd) {
    for (auto& e : entries_)
        if (e.simd == simd) e.valid = false;
}

}  // namespace agx
