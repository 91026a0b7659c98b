#include "sim/timing/threadgroup_memory.hpp"

#include <algorithm>
#include <array>
#include <string>

#include "sim/trace/memory_fault.hpp"

namespace agx {

ThreadgroupMemory::ThreadgroupMemory(std::uint32_t banks, std::uint32_t bank_bytes)
    : banks_(std::max<std::uint32_t>(1, banks)),
      bank_bytes_(std::max<std::uint32_t>(1, bank_bytes)) {}

std::uint32_t ThreadgroupMemory::passes(const Instruction& in, bool atomic) const {
    const unsigned size = std::max<unsigned>(1, in.mem.bytes_per_lane);
    const unsigned align = natural_alignment(size);
    // (bank, word) of every word every active lane touches: at most 32 lanes
    // x 16 bytes / 1-byte banks.
    std::array<std::uint64_t, 32 * 16> touched;
    std::size_t n = 0;
    for (unsigned lane = 0; lane < 32; ++lane) {
        if (!(in.active_mask >> lane & 1u)) continue;
        const std::uint64_t a = in.mem.address(lane);
        if (a % align != 0)
            throw MemoryFault("lane " + std::to_string(lane) + " address " + std::to_string(a) +
                              " is not aligned to its " + std::to_string(size) + "-byte access");
        for (std::uint64_t w = a / bank_bytes_; w <= (a + size - 1) / bank_bytes_; ++w)
            touched[n++] = (w % banks_) << 48 | (w & ((1ull << 48) - 1));
    }
    if (n == 0) return 1;
    std::sort(touched.begin(), touched.begin() + n);
    // Per bank: distinct words (plain accesses) or every lane's word (atomics).
    std::uint32_t worst = 0, run = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const bool same_bank = i > 0 && (touched[i] >> 48) == (touched[i - 1] >> 48);
        if (!same_bank)
            run = 1;
        else if (atomic || touched[i] != touched[i - 1])
            ++run;
        worst = std::max(worst, run);
    }
    return std::max<std::uint32_t>(1, worst);
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
