// The one list of a MachineConfig's leaves and their dotted key paths.
//
// Reading, writing and key checking all walk this list, so a field added to
// machine_config.hpp needs one line here and nowhere else. Internal to
// sim/config.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "sim/config/machine_config.hpp"

namespace agx::config_detail {

// A key's dotted path: "memory.l2" and "latency" give "memory.l2.latency".
inline std::string key_path(const std::string& prefix, const std::string& key) {
    return prefix.empty() ? key : prefix + "." + key;
}

// A core's cache counts in core cycles; a shared level (L2, SLC) keeps its
// own time, so that a GPU clock change leaves it be.
template <class Cache, class Visit>
void visit_cache(const std::string& at, Cache& c, Visit& v, bool shared) {
    v(at + ".size_bytes", c.size_bytes);
    v(at + ".line_bytes", c.line_bytes);
    v(at + ".associativity", c.associativity);
    if (shared) {
        v(at + ".hit_latency_ns", c.hit_latency_ns);
        v(at + ".bytes_per_ns", c.bytes_per_ns);
    } else {
        v(at + ".hit_latency_cycles", c.hit_latency_cycles);
        v(at + ".bytes_per_cycle", c.bytes_per_cycle);
    }
    v(at + ".mshrs", c.mshrs);
    v(at + ".replacement", c.replacement);
    v(at + ".set_index", c.set_index);
    v(at + ".set_hash_bits", c.set_hash_bits);
    // Only the core's caches prefetch: the shared levels have no prefetcher.
    if (!shared) v(at + ".prefetch_lines", c.prefetch_lines);
}

// Calls v(path, member) for every leaf, in file order. `Config` is
// MachineConfig or const MachineConfig. core.timing is visited by the entries
// the map already holds: the reader fills it with the catalogue's classes
// first.
template <class Config, class Visit>
void visit_fields(Config& c, Visit&& v) {
    v("name", c.name);
    v("family", c.family);
    v("clock_ghz", c.clock_ghz);
    v("cores", c.cores);

    auto& k = c.core;
    v("core.schedulers", k.schedulers);
    v("core.simd_width", k.simd_width);
    v("core.max_resident_simds", k.max_resident_simds);
    v("core.max_threads_per_threadgroup", k.max_threads_per_threadgroup);
    v("core.threadgroup_memory_bytes", k.threadgroup_memory_bytes);
    v("core.threadgroup_memory_banks", k.threadgroup_memory_banks);
    v("core.threadgroup_memory_bank_bytes", k.threadgroup_memory_bank_bytes);
    v("core.max_outstanding_per_slot", k.max_outstanding_per_slot);
    v("core.sfu_lanes", k.sfu_lanes);
    v("core.scheduler_policy", k.scheduler_policy);
    v("core.simd_placement", k.simd_placement);
    v("core.active_simds", k.active_simds);
    v("core.deadlock_cycles", k.deadlock_cycles);
    v("core.register_file.size_bytes", k.register_file.size_bytes);
    v("core.register_file.max_halves_per_thread", k.register_file.max_halves_per_thread);
    v("core.register_file.allocation_granule_halves", k.register_file.allocation_granule_halves);
    v("core.register_file.occupancy", k.register_file.occupancy);
    v("core.register_cache.sharing", k.register_cache.sharing);
    v("core.register_cache.entries", k.register_cache.entries);
    v("core.register_cache.file_read_ports", k.register_cache.file_read_ports);
    v("core.register_cache.file_read_latency", k.register_cache.file_read_latency);
    v("core.register_cache.file_read_latency_16bit", k.register_cache.file_read_latency_16bit);
    v("core.register_cache.half_registers", k.register_cache.half_registers);
    v("core.register_cache.replacement", k.register_cache.replacement);
    v("core.register_cache.forwarding", k.register_cache.forwarding);
    v("core.register_cache.write_latency", k.register_cache.write_latency);
    v("core.register_cache.file_third_source_delay", k.register_cache.file_third_source_delay);
    visit_cache("core.l1d", k.l1d, v, false);
    v("core.l1d.write_policy", k.l1d.write_policy);
    visit_cache("core.icache", k.icache, v, false);
    for (auto& [cls, t] : k.timing) {
        v("core.timing." + cls + ".issue_interval", t.issue_interval);
        v("core.timing." + cls + ".dispatch_cycles", t.dispatch_cycles);
        v("core.timing." + cls + ".latency", t.latency);
    }

    auto& m = c.memory;
    visit_cache("memory.l2", m.l2, v, true);
    visit_cache("memory.slc", m.slc, v, true);
    v("memory.dram.channels", m.dram.channels);
    v("memory.dram.bus_width_bits", m.dram.bus_width_bits);
    v("memory.dram.data_rate_mtps", m.dram.data_rate_mtps);
    v("memory.dram.latency_ns", m.dram.latency_ns);
    v("memory.dram.banks_per_channel", m.dram.banks_per_channel);
    v("memory.dram.row_bytes", m.dram.row_bytes);
    v("memory.dram.row_miss_ns", m.dram.row_miss_ns);
    v("memory.dram.efficiency", m.dram.efficiency);
    v("memory.dram.address_mapping", m.dram.address_mapping);
    v("memory.dram.hash_bits", m.dram.hash_bits);
}

// A MachineConfig whose timing table holds every catalogue class (zeroed), so
// visit_fields walks exactly the leaves a config must have.
MachineConfig config_skeleton();

// Every leaf path of a config, and every group path above them.
struct KeySet {
    std::set<std::string> leaves;
    std::set<std::string> groups;  // "core", "core.l1d", "core.timing", ...
};
const KeySet& known_keys();

// The known key nearest to `path` by spelling among its siblings, or "" if
// none is close: for "did you mean" hints.
std::string nearest_key(const std::string& path);

}  // namespace agx::config_detail
