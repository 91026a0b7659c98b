#include "sim/timing/threadgroup_memory.hpp"

#include <algorithm>
#include <array>
#include <string>

#include "sim/trace/memory_fault.hpp"

namespace agx {

ThreadgroupMemory::ThreadgroupMemory(std::uint32_t banks, std::uint32_t bank_bytes)
    : banks_(std::max<std::uint32_t>(1, banks)),
      bank_bytes_(std::max<std::uint32_t>(1, bank_bytes)),
      bank_count_(banks_.value(), 0) {
    seen_stamp_.fill(0);
}

std::uint32_t ThreadgroupMemory::passes(const Instruction& in, bool atomic) const {
    const unsigned size = std::max<unsigned>(1, in.mem.bytes_per_lane);
    const std::uint64_t align_mask = natural_alignment(size) - 1;
    // Per bank, the distinct words the lanes touch (plain accesses) or every
    // lane's word (atomics), counted as the words arrive: a set of the words
    // seen in this access (open addressing, emptied by a new stamp) and a
    // count per bank, so that no access sorts its up to 32 x 16 words.
    if (++stamp_ == 0) {  // the stamps wrapped: no slot may look taken
        seen_stamp_.fill(0);
        stamp_ = 1;
    }
    std::array<std::uint32_t, 32 * 16> counted;  // banks whose count this access raised
    std::size_t banks_counted = 0;
    auto clear_counts = [&] {
        for (std::size_t i = 0; i < banks_counted; ++i) bank_count_[counted[i]] = 0;
    };
    std::uint32_t worst = 0;
    for (unsigned lane = 0; lane < 32; ++lane) {
        if (!(in.active_mask >> lane & 1u)) continue;
        const std::uint64_t a = in.mem.address(lane);
        if ((a & align_mask) != 0) {
            clear_counts();
            throw MemoryFault("lane " + std::to_string(lane) + " address " + std::to_string(a) +
                              " is not aligned to its " + std::to_string(size) + "-byte access");
        }
        const std::uint64_t last = bank_bytes_.divide(a + size - 1);
        for (std::uint64_t w = bank_bytes_.divide(a); w <= last; ++w) {
            if (!atomic && !first_sight(w)) continue;  // a word already counted: broadcast
            const auto bank = static_cast<std::uint32_t>(banks_.remainder(w));
            if (bank_count_[bank]++ == 0) counted[banks_counted++] = bank;
            worst = std::max(worst, bank_count_[bank]);
        }
    }
    clear_counts();
    return std::max<std::uint32_t>(1, worst);
}

bool ThreadgroupMemory::first_sight(std::uint64_t word) const {
    // Fibonacci hashing into the table; linear probing (at most 512 words
    // in 1024 slots).
    for (std::size_t i = (word * 0x9E3779B97F4A7C15ull) >> (64 - kSeenBits);;
         i = (i + 1) & (kSeenSlots - 1)) {
        if (seen_stamp_[i] != stamp_) {
            seen_stamp_[i] = stamp_;
            seen_word_[i] = word;
            return true;
        }
        if (seen_word_[i] == word) return false;
    }
}

Cycle ThreadgroupMemory::access(const Instruction& in, bool atomic, Cycle now) {
    const std::uint32_t p = passes(in, atomic);
    const Cycle start = std::max(now, free_at_);
    free_at_ = start + p;
    ++accesses_;
    passes_ += p;
    return start + p - 1;
}

}  // namespace agx
