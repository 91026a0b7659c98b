// The resolved, validated machine description.
//
// A JSON config is read into these plain structs once (config_loader), checked
// and then handed to every block by const reference. Nothing here knows about
// files or JSON. Units are in the member names; cycles are core-clock cycles.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "sim/config/policies.hpp"

namespace agx {

// One row of the occupancy rule: with up to `halves` 16-bit half-registers per
// thread, at most `threads` threads may be resident on a core.
struct OccupancyStep {
    std::uint32_t halves = 0;
    std::uint32_t threads = 0;
};

struct RegisterFileConfig {
    std::uint32_t size_bytes = 0;  // per core
    std::uint32_t max_halves_per_thread = 0;
    std::uint32_t allocation_granule_halves = 0;
    std::vector<OccupancyStep> occupancy;  // ascending by halves
};

// The scheduler's operand cache in front of the register file (shared by its
// simds, or a partition per simd).
struct RegisterCacheConfig {
    RegisterCacheSharing sharing = RegisterCacheSharing::Scheduler;
    std::uint32_t entries = 0;                  // 32-bit registers held, per scheduler or per simd
    std::uint32_t file_read_ports = 0;          // register-file reads (32-bit) per cycle
    std::uint32_t file_read_latency = 0;        // cycles from a miss's read to its operand
    std::uint32_t file_read_latency_16bit = 0;  // the same when every missed operand is 16-bit
    HalfRegisters half_registers = HalfRegisters::OwnEntry;
    Replacement replacement = Replacement::Lru;
    // Consumers that do not get a result forwarded read it from the cache
    // `write_latency` cycles after it is ready (sim/timing/forwarding.hpp).
    ForwardingPolicy forwarding = ForwardingPolicy::Always;
    std::uint32_t write_latency = 0;
    // An instruction of the FP32/integer pipeline that reads the register
    // file takes a 32-bit third source from there too: `file_third_source_delay` cycles after that
    // source's producer made it ready (0: no such wait).
    std::uint32_t file_third_source_delay = 0;
};

struct CacheConfig {
    std::uint32_t size_bytes = 0;
    std::uint32_t line_bytes = 0;
    std::uint32_t associativity = 0;
    // The core's caches count in core cycles; the shared levels (L2, SLC),
    // in their own clock domain, in time: a GPU clock change leaves them be.
    std::uint32_t hit_latency_cycles = 0;  // core caches
    std::uint32_t bytes_per_cycle = 0;     // core caches: port bandwidth
    std::uint32_t mshrs = 0;               // outstanding misses (0 where unused)
    std::uint32_t prefetch_lines = 0;      // core caches only: next lines requested ahead (0: none)
    Replacement replacement = Replacement::Lru;
    WritePolicy write_policy = WritePolicy::WriteThrough;  // core.l1d only
    double hit_latency_ns = 0;                             // shared levels
    double bytes_per_ns = 0;  // shared levels: port bandwidth, per core (GB/s)
    // Which set a line goes to: its low line-address bits, or those XOR a hash
    // (xor, ipoly) of the `set_hash_bits` line-address bits above them.
    AddressHash set_index = AddressHash::LowBits;
    std::uint32_t set_hash_bits = 0;
};

// How one class of instructions times on its pipeline.
struct TimingClassConfig {
    std::uint32_t issue_interval = 1;   // cycles a scheduler's pipe stays busy
    std::uint32_t dispatch_cycles = 1;  // cycles the scheduler's issue port stays busy
    std::uint32_t latency = 1;          // issue to result usable by a dependant
};

struct CoreConfig {
    std::uint32_t schedulers = 0;
    std::uint32_t simd_width = 0;
    std::uint32_t max_resident_simds = 0;  // per core
    std::uint32_t max_threads_per_threadgroup = 0;
    std::uint32_t threadgroup_memory_bytes = 0;       // per core
    std::uint32_t threadgroup_memory_banks = 32;      // banks serving one access per cycle each
    std::uint32_t threadgroup_memory_bank_bytes = 4;  // width of one bank
    std::uint32_t max_outstanding_per_slot = 0;
    std::uint32_t sfu_lanes = 0;  // shared by the core's schedulers
    SchedulerPolicy scheduler_policy = SchedulerPolicy::Greedy;
    SimdPlacement simd_placement = SimdPlacement::Fill;
    // Simds per scheduler in a two-level scheduler's active pool, the only
    // ones it issues from (0: every resident simd).
    std::uint32_t active_simds = 0;
    RegisterFileConfig register_file;
    RegisterCacheConfig register_cache;
    CacheConfig l1d;
    CacheConfig icache;
    std::map<std::string, TimingClassConfig> timing;  // by timing-class name
    // A run that issues no instruction for this many cycles is stopped as a
    // deadlock (the engine names what every simd waits on).
    std::uint32_t deadlock_cycles = 1000000;
};

struct DramConfig {
    std::uint32_t channels = 0;
    std::uint32_t bus_width_bits = 0;  // whole chip
    std::uint32_t data_rate_mtps = 0;  // mega-transfers per second
    std::uint32_t latency_ns = 0;  // idle load-to-use beyond the SLC of an access that opens a row
    std::uint32_t banks_per_channel = 8;
    std::uint32_t row_bytes = 2048;  // per bank and channel
    std::uint32_t row_miss_ns = 0;   // extra time of an access whose row is not open
    double efficiency = 1.0;         // sustained fraction of the peak data rate
    // Which channel a line and which bank a row goes to: the low bits, or those
    // XOR a hash (xor, ipoly) of the `hash_bits` bits above them.
    AddressHash address_mapping = AddressHash::LowBits;
    std::uint32_t hash_bits = 0;
};

struct MemoryConfig {
    CacheConfig l2;   // shared by the chip's cores
    CacheConfig slc;  // system-level cache
    DramConfig dram;
};

struct MachineConfig {
    std::string name;    // "m1", "m1-max", ...
    std::string family;  // "apple7", "apple8"
    double clock_ghz = 0.0;
    std::uint32_t cores = 0;
    CoreConfig core;
    MemoryConfig memory;

    // Where each value came from, by dotted key path ("core.l1d.size_bytes").
    std::map<std::string, std::string> sources;
};

}  // namespace agx
