#include "sim/timing/register_cache.hpp"

#include <algorithm>

namespace agx {

RegisterCache::RegisterCache(const RegisterCacheConfig& cfg)
    : keys_(cfg.entries, 0),
      victims_(replacement_from_name(cfg.replacement.empty() ? "lru" : cfg.replacement)),
      read_halves_per_cycle_(std::max<std::uint32_t>(1, cfg.file_read_ports * 2)) {}

int RegisterCache::find(std::uint32_t k) const {
    const std::uint32_t* keys = keys_.data();
    for (std::uint32_t i = 0; i < valid_; ++i)
        if (keys[i] == k) return static_cast<int>(i);
    return -1;
}

void RegisterCache::to_front(std::uint32_t e) {
    const std::uint32_t k = keys_[e];
    for (std::uint32_t i = e; i > 0; --i)
        keys_[i] = keys_[i - 1];  // a few entries: no memmove call
    keys_[0] = k;
}

void RegisterCache::erase(std::uint32_t e) {
    for (std::uint32_t i = e + 1; i < valid_; ++i) keys_[i - 1] = keys_[i];
    --valid_;
}

void RegisterCache::insert(std::uint32_t k) {
    const std::uint32_t n = static_cast<std::uint32_t>(keys_.size());
    if (n == 0) return;
    if (valid_ == n) {
        // Full: LRU and FIFO evict the oldest stamp, the last entry; random
        // evicts any.
        erase(victims_.policy() == Replacement::Random
                  ? victims_.pick(n, [](std::uint32_t) { return 0; })
                  : n - 1);
    }
    keys_[valid_++] = k;
    to_front(valid_ - 1);
}

namespace {
// Calls f(reg) for each 32-bit register a register operand spans (a 64-bit or
// vector operand spans several).
template <class F>
void for_each_register(const Operand& op, F&& f) {
    if (op.kind != OperandKind::Reg) return;
    const std::uint16_t last = (op.first_half + op.halves - 1) / 2;
    for (std::uint16_t reg = op.first_half / 2; reg <= last; ++reg) f(reg);
}
}  // namespace

std::uint32_t RegisterCache::fetch_operands(std::uint32_t simd, const Instruction& inst,
                                            std::uint64_t now) {
    std::uint32_t missed_halves = 0;
    for (unsigned i = 0; i < inst.num_src; ++i) {
        const Operand& op = inst.src[i];
        for_each_register(op, [&](std::uint16_t reg) {
            const std::uint32_t k = key(simd, reg);
            const int e = find(k);
            if (e >= 0) {
                ++hits_;
                if (op.hint == CacheHint::Discard)
                    erase(static_cast<std::uint32_t>(e));
                else if (victims_.stamp_on_hit())
                    to_front(static_cast<std::uint32_t>(e));
                return;
            }
            ++misses_;
            missed_halves += std::min<std::uint32_t>(op.halves, 2);
            if (op.hint != CacheHint::Discard) insert(k);
        });
    }
    for (unsigned i = 0; i < inst.num_dst; ++i)
        for_each_register(inst.dst[i], [&](std::uint16_t reg) {
            const std::uint32_t k = key(simd, reg);
            const int e = find(k);
            if (e >= 0)
                to_front(static_cast<std::uint32_t>(e));  // a new value: stamped as a fill
            else
                insert(k);
        });
    file_read_halves_ += missed_halves;
    if (missed_halves == 0) return 0;
    const std::uint64_t start =
        std::max<std::uint64_t>(ports_busy_until_, now * read_halves_per_cycle_);
    ports_busy_until_ = start + missed_halves;
    const std::uint64_t done =
        (ports_busy_until_ + read_halves_per_cycle_ - 1) / read_halves_per_cycle_;
    // Issue may proceed while at most one cycle of reads is queued.
    ports_free_at_ = done > 0 ? done - 1 : 0;
    // Reads ending within the issue cycle cost nothing; later ones delay the result.
    return done > now + 1 ? static_cast<std::uint32_t>(done - now - 1) : 0;
}

void RegisterCache::evict_simd(std::uint32_t simd) {
    std::uint32_t kept = 0;
    for (std::uint32_t i = 0; i < valid_; ++i)
        if (keys_[i] >> 8 != simd) keys_[kept++] = keys_[i];
    valid_ = kept;
}

}  // namespace agx
