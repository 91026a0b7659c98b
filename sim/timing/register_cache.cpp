#include "sim/timing/register_cache.hpp"

#include <algorithm>

namespace agx {

RegisterCache::RegisterCache(const RegisterCacheConfig& cfg)
    : keys_(cfg.entries, kEmpty),
      stamps_(cfg.entries, 0),
      victims_(replacement_from_name(cfg.replacement.empty() ? "lru" : cfg.replacement)),
      read_halves_per_cycle_(std::max<std::uint32_t>(1, cfg.file_read_ports * 2)) {}

int RegisterCache::find(std::uint32_t k) const {
    const std::uint32_t* keys = keys_.data();
    for (std::size_t i = 0, n = keys_.size(); i < n; ++i)
        if (keys[i] == k) return static_cast<int>(i);
    return -1;
}

void RegisterCache::insert(std::uint32_t k) {
    const std::size_t n = keys_.size();
    if (n == 0) return;
    std::uint32_t victim = 0;
    if (victims_.policy() == Replacement::Random) {
        const int empty = find(kEmpty);
        victim = empty >= 0 ? static_cast<std::uint32_t>(empty)
                            : victims_.pick(static_cast<std::uint32_t>(n),
                                            [](std::uint32_t) { return 0; });
    } else {
        // LRU and FIFO both evict the oldest stamp; an empty entry (stamp 0
        // from the start, or kept at 0 when emptied) goes first.
        for (std::uint32_t i = 1; i < n; ++i) {
            if (keys_[victim] == kEmpty) break;
            if (keys_[i] == kEmpty || stamps_[i] < stamps_[victim]) victim = i;
        }
    }
    keys_[victim] = k;
    stamps_[victim] = ++tick_;
}

std::uint64_t RegisterCache::ports_free_at() const {
    // Issue may proceed while at most one cycle of reads is queued.
    const std::uint64_t queued_until =
        (ports_busy_until_ + read_halves_per_cycle_ - 1) / read_halves_per_cycle_;
    return queued_until > 0 ? queued_until - 1 : 0;
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
                if (victims_.stamp_on_hit()) stamps_[e] = ++tick_;
                if (op.hint == CacheHint::Discard) keys_[e] = kEmpty;
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
                stamps_[e] = ++tick_;  // a new value: stamped as a fill
            else
                insert(k);
        });
    file_read_halves_ += missed_halves;
    if (missed_halves == 0) return 0;
    const std::uint64_t start =
        std::max<std::uint64_t>(ports_busy_until_, now * read_halves_per_cycle_);
    ports_busy_until_ = start + missed_halves;
    // Reads ending within the issue cycle cost nothing; later ones delay the result.
    const std::uint64_t done =
        (ports_busy_until_ + read_halves_per_cycle_ - 1) / read_halves_per_cycle_;
    return done > now + 1 ? static_cast<std::uint32_t>(done - now - 1) : 0;
}

void RegisterCache::evict_simd(std::uint32_t simd) {
    for (auto& k : keys_)
        if (k != kEmpty && k >> 8 == simd) k = kEmpty;
}

}  // namespace agx
