#include "sim/config/storage.hpp"

#include <algorithm>

namespace agx {

std::vector<StructureStorage> structure_storage(const MachineConfig& cfg) {
    const CoreConfig& k = cfg.core;
    const std::uint64_t schedulers = std::max(1u, k.schedulers);
    const std::uint64_t cores = cfg.cores;
    std::vector<StructureStorage> out;
    auto per_core = [&](std::string name, std::string how, std::uint64_t bytes) {
        out.push_back({std::move(name), std::move(how), 0, bytes, bytes * cores});
    };

    // Each scheduler's simds hold their registers: a scheduler's share.
    const std::uint64_t file = k.register_file.size_bytes;
    out.push_back(
        {"register file", "core.register_file.size_bytes", file / schedulers, file, file * cores});

    // A 32-bit entry holds a register for every lane of its simd. Partitioned
    // per simd, a scheduler holds a partition for each simd that may issue:
    // its active pool, or every resident simd without one.
    const std::uint64_t entry_bytes = 4ull * k.simd_width;
    const std::uint64_t resident = (k.max_resident_simds + schedulers - 1) / schedulers;
    const std::uint64_t partitions = k.active_simds ? k.active_simds : resident;
    const bool per_simd = k.register_cache.sharing == RegisterCacheSharing::Simd;
    const std::uint64_t cache =
        k.register_cache.entries * entry_bytes * (per_simd ? partitions : 1);
    out.push_back(
        {"register cache",
         per_simd ? std::to_string(k.register_cache.entries) + " entries x 4 B x " +
                        std::to_string(k.simd_width) + " lanes x " + std::to_string(partitions) +
                        (k.active_simds ? " active simds" : " resident simds") + " per scheduler"
                  : std::to_string(k.register_cache.entries) + " entries x 4 B x " +
                        std::to_string(k.simd_width) + " lanes per scheduler",
         cache, cache * schedulers, cache * schedulers * cores});

    per_core("L1 data cache", "core.l1d.size_bytes", k.l1d.size_bytes);
    per_core("instruction cache", "core.icache.size_bytes", k.icache.size_bytes);
    per_core("threadgroup memory", "core.threadgroup_memory_bytes", k.threadgroup_memory_bytes);
    out.push_back(
        {"L2", "memory.l2.size_bytes, shared by the cores", 0, 0, cfg.memory.l2.size_bytes});
    out.push_back({"system-level cache", "memory.slc.size_bytes, shared by the cores", 0, 0,
                   cfg.memory.slc.size_bytes});
    return out;
}

}  // namespace agx
