#include "sim/timing/register_cache.hpp"

#include <algorithm>

namespace agx {

RegisterCache::RegisterCache(const RegisterCacheConfig& cfg)
    : keys_(cfg.entries, kEmpty),
      stamps_(cfg.entries, 0),
      victims_(replacement_from_name(cfg.replacement.empty() ? "lru" : cfg.replacement)),
      read_halves_per_cycle_(std::max<std::uint32_t>(1, cfg.file_read_ports * 2)) {}

// One pass finds the key or, failing that, the entry a fill would take: an
// empty one (stamp 0) first, else the oldest stamp.
int RegisterCache::find(std::uint32_t k, std::uint32_t& victim) const {
    const std::uint32_t* keys = keys_.data();
    const std::uint64_t* stamps = stamps_.data();
    // The oldest stamp is tracked without branches: the order of stamps is
    // what a predictor cannot learn.
    const auto n = static_cast<std::uint32_t>(keys_.size());
    std::uint32_t v = 0;
    std::uint64_t oldest = ~0ull;
    for (std::uint32_t i = 0; i < n; ++i) {
        if (keys[i] == k) return static_cast<int>(i);
        const bool older = stamps[i] < oldest;
        oldest = older ? stamps[i] : oldest;
        v = older ? i : v;
    }
    victim = v;
    return -1;
}

void RegisterCache::fill(std::uint32_t victim, std::uint32_t k) {
    const auto n = static_cast<std::uint32_t>(keys_.size());
    if (n == 0) return;
    // Random replacement only picks among full entries; an empty one goes first.
    if (victims_.policy() == Replacement::Random && keys_[victim] != kEmpty)
        victim = victims_.pick(n, [](std::uint32_t) { return 0; });
    keys_[victim] = k;
    stamps_[victim] = ++tick_;
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
            std::uint32_t victim = 0;
            const int e = find(k, victim);
            if (e >= 0) {
                ++hits_;
                if (op.hint == CacheHint::Discard) {
                    keys_[e] = kEmpty;
                    stamps_[e] = 0;
                } else if (victims_.stamp_on_hit()) {
                    stamps_[e] = ++tick_;
                }
                return;
            }
            ++misses_;
            missed_halves += std::min<std::uint32_t>(op.halves, 2);
            if (op.hint != CacheHint::Discard) fill(victim, k);
        });
    }
    for (unsigned i = 0; i < inst.num_dst; ++i)
        for_each_register(inst.dst[i], [&](std::uint16_t reg) {
            const std::uint32_t k = key(simd, reg);
            std::uint32_t victim = 0;
            const int e = find(k, victim);
            if (e >= 0)
                stamps_[e] = ++tick_;  // a new value: stamped as a fill
            else
                fill(victim, k);
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
    for (std::size_t i = 0; i < keys_.size(); ++i)
        if (keys_[i] != kEmpty && keys_[i] >> 8 == simd) {
            keys_[i] = kEmpty;
            stamps_[i] = 0;
        }
}

}  // namespace agx
