#include "sim/config/config_validate.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>

#include "isa/catalogue.hpp"
#include "sim/config/config_error.hpp"
#include "sim/config/config_loader.hpp"

namespace agx::config_detail {

namespace {

using u32 = std::uint32_t;
using u64 = std::uint64_t;

// Families a model knows (policies are checked as they are read: policies.hpp).
const char* const kFamilies[] = {"apple7", "apple8"};

bool is_pow2(u64 v) {
    return v != 0 && (v & (v - 1)) == 0;
}
std::string str(u64 v) {
    return std::to_string(v);
}
// A double as written: 1e-12, not 0.000000.
std::string number(double v) {
    std::ostringstream s;
    s << v;
    return s.str();
}

// Collects the first problem; later checks are skipped once one is found.
class Checker {
  public:
    std::optional<ConfigProblem> problem;

    bool ok() const { return !problem; }
    void fail(const std::string& key, const std::string& reason,
              std::vector<std::string> also = {}) {
        if (!problem) problem = ConfigProblem{key, reason, std::move(also)};
    }
    void at_least(const std::string& key, u64 v, u64 min) {
        if (v < min) fail(key, "out of range: " + str(v) + " (must be at least " + str(min) + ")");
    }
    // A finite real within [min, max], for figures in time.
    void within_real(const std::string& key, double v, double min, double max, const char* unit) {
        if (!(std::isfinite(v) && v >= min && v <= max))
            fail(key, "out of range: " + number(v) + " (must be " + number(min) + " to " +
                          number(max) + " " + unit + ")");
    }
    void within(const std::string& key, u64 v, u64 min, u64 max) {
        if (v < min || v > max)
            fail(key,
                 "out of range: " + str(v) + " (must be " + str(min) + " to " + str(max) + ")");
    }
    void pow2(const std::string& key, u64 v) {
        if (!is_pow2(v)) fail(key, str(v) + " is not a power of two");
    }
    template <std::size_t N>
    void one_of(const std::string& key, const std::string& v, const char* const (&names)[N]) {
        std::string list;
        for (const char* n : names) {
            if (v == n) return;
            list += (list.empty() ? "" : ", ") + std::string(n);
        }
        fail(key, "unknown name '" + v + "' (expected one of: " + list + ")");
    }
};

void check_cache(Checker& c, const std::string& at, const CacheConfig& k, bool takes_misses) {
    c.at_least(at + ".line_bytes", k.line_bytes, 4);
    c.pow2(at + ".line_bytes", k.line_bytes);
    c.at_least(at + ".size_bytes", k.size_bytes, 1);
    c.at_least(at + ".associativity", k.associativity, 1);
    if (!c.ok()) return;
    if (k.line_bytes > k.size_bytes)
        return c.fail(
            at + ".line_bytes",
            "line_bytes " + str(k.line_bytes) + " is larger than size_bytes " + str(k.size_bytes),
            {at + ".size_bytes"});
    // The set index is address bits, so the set count must be a power of two;
    // the size itself need not be (a 12-way 768 KB L2 has 512 sets).
    const u64 way_bytes = u64(k.line_bytes) * k.associativity;
    const std::vector<std::string> shape = {at + ".associativity", at + ".line_bytes"};
    if (k.size_bytes % way_bytes != 0)
        return c.fail(at + ".size_bytes",
                      "size_bytes " + str(k.size_bytes) +
                          " is not divisible into sets of associativity x line_bytes (" +
                          str(k.associativity) + " x " + str(k.line_bytes) + " bytes)",
                      shape);
    const u64 sets = k.size_bytes / way_bytes;
    if (!is_pow2(sets))
        return c.fail(at + ".size_bytes",
                      "size_bytes " + str(k.size_bytes) + " gives " + str(sets) + " sets of " +
                          str(k.associativity) + " x " + str(k.line_bytes) +
                          " bytes; the set count must be a power of two (with a power-of-two " +
                          "associativity, so must the size)",
                      shape);
    // IPOLY divides by a polynomial of the index's degree: the model has them
    // to 24 bits (16 M sets).
    if (k.set_index == AddressHash::Ipoly && sets > (1ull << 24))
        return c.fail(at + ".set_index",
                      "ipoly indexes at most 2^24 sets; size_bytes " + str(k.size_bytes) +
                          " gives " + str(sets),
                      {at + ".size_bytes"});
    // Latencies and rates: what a cache can physically take or move in a
    // cycle, far beyond any real one, never zero.
    // A shared level keeps its own time (ns, GB/s); a core's cache, core cycles.
    if (at.rfind("memory.", 0) == 0) {
        c.within_real(at + ".hit_latency_ns", k.hit_latency_ns, 0.1, 50000, "ns");
        c.within_real(at + ".bytes_per_ns", k.bytes_per_ns, 0.1, 10000, "bytes per ns");
    } else {
        c.within(at + ".hit_latency_cycles", k.hit_latency_cycles, 1, 65536);
        c.within(at + ".bytes_per_cycle", k.bytes_per_cycle, 1, 4096);
    }
    c.within(at + ".mshrs", k.mshrs, takes_misses ? 1 : 0, 4096);
    // Bits folded into the set index: beyond 48 they are past any address.
    c.within(at + ".set_hash_bits", k.set_hash_bits, 0, 48);
    if (at.rfind("core.", 0) == 0) c.within(at + ".prefetch_lines", k.prefetch_lines, 0, 64);
}

void check_register_file(Checker& c, const CoreConfig& k) {
    const RegisterFileConfig& r = k.register_file;
    const std::string at = "core.register_file";
    c.at_least(at + ".size_bytes", r.size_bytes, 1);
    // The ISA addresses r0..r127: 256 16-bit halves.
    c.within(at + ".max_halves_per_thread", r.max_halves_per_thread, 1, 256);
    c.at_least(at + ".allocation_granule_halves", r.allocation_granule_halves, 1);
    if (!c.ok()) return;
    if (r.max_halves_per_thread % r.allocation_granule_halves != 0)
        return c.fail(at + ".allocation_granule_halves",
                      str(r.allocation_granule_halves) + " does not divide max_halves_per_thread " +
                          str(r.max_halves_per_thread),
                      {at + ".max_halves_per_thread"});

    const std::string occ = at + ".occupancy";
    if (r.occupancy.empty()) return c.fail(occ, "empty (needs at least one step)");
    const u64 max_threads = u64(k.max_resident_simds) * k.simd_width;
    for (std::size_t i = 0; i < r.occupancy.size(); ++i) {
        const OccupancyStep& s = r.occupancy[i];
        const std::string step = "step " + str(i + 1) + " (" + str(s.halves) + " halves -> " +
                                 str(s.threads) + " threads): ";
        if (s.halves == 0 || s.halves % r.allocation_granule_halves != 0)
            return c.fail(occ,
                          step +
                              "halves must be a positive multiple of allocation_granule_halves " +
                              str(r.allocation_granule_halves),
                          {at + ".allocation_granule_halves"});
        if (i > 0 && s.halves <= r.occupancy[i - 1].halves)
            return c.fail(occ, step + "steps must be in ascending order of halves");
        if (i > 0 && s.threads > r.occupancy[i - 1].threads)
            return c.fail(
                occ,
                step + "more threads than the step before (more registers cannot raise occupancy)");
        if (s.threads == 0 || s.threads % k.simd_width != 0)
            return c.fail(occ,
                          step + "threads must be a positive multiple of core.simd_width " +
                              str(k.simd_width),
                          {"core.simd_width"});
        if (s.threads > max_threads)
            return c.fail(occ,
                          step + "more threads than core.max_resident_simds x core.simd_width (" +
                              str(max_threads) + ")",
                          {"core.max_resident_simds", "core.simd_width"});
        if (u64(s.threads) * s.halves * 2 > r.size_bytes)
            return c.fail(occ,
                          step + "needs " + str(u64(s.threads) * s.halves * 2) +
                              " bytes of registers, more than size_bytes " + str(r.size_bytes),
                          {at + ".size_bytes"});
    }
    if (r.occupancy.back().halves != r.max_halves_per_thread)
        return c.fail(occ,
                      "the last step must be at max_halves_per_thread (" +
                          str(r.max_halves_per_thread) + "), got " + str(r.occupancy.back().halves),
                      {at + ".max_halves_per_thread"});

    // Even the smallest allocation must let every resident simd hold registers.
    const u64 smallest = max_threads * r.allocation_granule_halves * 2;
    if (smallest > r.size_bytes)
        c.fail("core.max_resident_simds",
               str(k.max_resident_simds) + " simds x " + str(k.simd_width) + " threads x " +
                   str(r.allocation_granule_halves) + " halves (the smallest allocation) need " +
                   str(smallest) + " bytes of registers, more than core.register_file.size_bytes " +
                   str(r.size_bytes),
               {at + ".size_bytes", at + ".allocation_granule_halves", "core.simd_width"});
}

void check_core(Checker& c, const CoreConfig& k) {
    c.within("core.schedulers", k.schedulers, 1, 64);
    // The execution mask is 32 bits (applegpu's docs).
    c.within("core.simd_width", k.simd_width, 1, 32);
    c.pow2("core.simd_width", k.simd_width);
    c.within("core.max_resident_simds", k.max_resident_simds, k.schedulers, 4096);
    if (!c.ok()) return;
    const u64 max_threads = u64(k.max_resident_simds) * k.simd_width;
    c.within("core.max_threads_per_threadgroup", k.max_threads_per_threadgroup, k.simd_width,
             max_threads);
    if (c.ok() && k.max_threads_per_threadgroup % k.simd_width != 0)
        c.fail("core.max_threads_per_threadgroup",
               str(k.max_threads_per_threadgroup) + " is not a multiple of core.simd_width " +
                   str(k.simd_width),
               {"core.simd_width"});
    c.at_least("core.threadgroup_memory_bytes", k.threadgroup_memory_bytes, 1);
    c.within("core.threadgroup_memory_banks", k.threadgroup_memory_banks, 1, 1024);
    c.pow2("core.threadgroup_memory_banks", k.threadgroup_memory_banks);
    c.within("core.threadgroup_memory_bank_bytes", k.threadgroup_memory_bank_bytes, 1, 128);
    c.pow2("core.threadgroup_memory_bank_bytes", k.threadgroup_memory_bank_bytes);
    c.at_least("core.deadlock_cycles", k.deadlock_cycles, 1000);
    c.at_least("core.max_outstanding_per_slot", k.max_outstanding_per_slot, 1);
    c.at_least("core.sfu_lanes", k.sfu_lanes, 1);
    if (!c.ok()) return;
    check_register_file(c, k);
    // A simd's partition never needs more entries than a thread has
    // registers, nor a scheduler's cache more than its simds have; the model
    // numbers a scheduler's entries in 16 bits.
    {
        const u64 simds = k.max_resident_simds / std::max<std::uint32_t>(1, k.schedulers);
        const u64 per_simd = k.register_file.max_halves_per_thread;
        const bool partitioned = k.register_cache.sharing == RegisterCacheSharing::Simd;
        c.within("core.register_cache.entries", k.register_cache.entries, 1,
                 std::min<u64>(partitioned ? per_simd : per_simd * simds, 0xfffe));
        if (partitioned && u64(k.register_cache.entries) * simds >= 0xffff)
            c.fail(
                "core.register_cache.entries",
                str(k.register_cache.entries) + " entries x " + str(simds) +
                    " simds per scheduler is more than the 65534 a scheduler's cache can number");
    }
    c.within("core.register_cache.file_read_latency", k.register_cache.file_read_latency, 0, 64);
    c.within("core.register_cache.file_read_latency_16bit",
             k.register_cache.file_read_latency_16bit, 0, 64);
    c.at_least("core.register_cache.file_read_ports", k.register_cache.file_read_ports, 1);
    c.within("core.register_cache.write_latency", k.register_cache.write_latency, 0, 64);
    c.within("core.register_cache.file_third_source_delay",
             k.register_cache.file_third_source_delay, 0, 64);
    // At most a scheduler's share of the resident simds (0: no pool).
    c.within("core.active_simds", k.active_simds, 0,
             k.max_resident_simds / std::max<std::uint32_t>(1, k.schedulers));
    check_cache(c, "core.l1d", k.l1d, true);
    check_cache(c, "core.icache", k.icache, false);
    // Exactly the catalogue's timing classes: an instruction without timing
    // cannot issue, and an extra class is a misspelt one.
    for (std::string_view cls : isa::Catalogue::instance().timing_classes())
        if (!k.timing.count(std::string(cls)))
            return c.fail("core.timing." + std::string(cls), "missing timing class");
    if (k.timing.size() != isa::Catalogue::instance().timing_classes().size())
        for (const auto& [cls, t] : k.timing) {
            const auto& all = isa::Catalogue::instance().timing_classes();
            if (std::find(all.begin(), all.end(), cls) == all.end())
                return c.fail("core.timing." + cls,
                              "unknown timing class (not in the instruction catalogue)");
        }
    for (const auto& [cls, t] : k.timing) {
        c.within("core.timing." + cls + ".issue_interval", t.issue_interval, 1, 4096);
        c.within("core.timing." + cls + ".latency", t.latency, 1, 65536);
        c.within("core.timing." + cls + ".dispatch_cycles", t.dispatch_cycles, 1, 64);
    }
}

void check_memory(Checker& c, const MachineConfig& m) {
    check_cache(c, "memory.l2", m.memory.l2, true);
    check_cache(c, "memory.slc", m.memory.slc, true);
    if (!c.ok()) return;
    // A request for one upper-level line must stay within one lower-level line.
    if (m.memory.l2.line_bytes < m.core.l1d.line_bytes ||
        m.memory.l2.line_bytes < m.core.icache.line_bytes)
        return c.fail("memory.l2.line_bytes",
                      str(m.memory.l2.line_bytes) +
                          " is smaller than the core's L1 data or instruction cache line",
                      {"core.l1d.line_bytes", "core.icache.line_bytes"});
    if (m.memory.slc.line_bytes < m.memory.l2.line_bytes)
        return c.fail("memory.slc.line_bytes",
                      str(m.memory.slc.line_bytes) + " is smaller than memory.l2.line_bytes",
                      {"memory.l2.line_bytes"});

    const DramConfig& d = m.memory.dram;
    c.within("memory.dram.channels", d.channels, 1, 1024);
    c.within("memory.dram.bus_width_bits", d.bus_width_bits, 8, 16384);
    if (c.ok() && (d.bus_width_bits % (8 * d.channels)) != 0)
        c.fail("memory.dram.bus_width_bits",
               "bus_width_bits " + str(d.bus_width_bits) + " does not split into " +
                   str(d.channels) + " channels of whole bytes",
               {"memory.dram.channels"});
    c.within("memory.dram.data_rate_mtps", d.data_rate_mtps, 100, 100000);
    c.within("memory.dram.latency_ns", d.latency_ns, 1, 10000);
    c.within("memory.dram.banks_per_channel", d.banks_per_channel, 1, 256);
    c.at_least("memory.dram.row_bytes", d.row_bytes, m.memory.slc.line_bytes);
    c.pow2("memory.dram.row_bytes", d.row_bytes);
    if (c.ok() && d.row_miss_ns >= d.latency_ns)
        c.fail("memory.dram.row_miss_ns",
               str(d.row_miss_ns) + " ns is not below latency_ns " + str(d.latency_ns) +
                   " (a row hit must take some time)",
               {"memory.dram.latency_ns"});
    // The hash folds address bits into the channel and bank numbers, so both
    // counts must be powers of two; the plain mapping divides.
    c.within("memory.dram.hash_bits", d.hash_bits, 0, 48);
    if (d.address_mapping != AddressHash::LowBits) {
        if (c.ok() && !is_pow2(d.channels))
            c.fail("memory.dram.channels",
                   str(d.channels) + " is not a power of two, which address_mapping " +
                       std::string(policy_name(d.address_mapping)) + " needs",
                   {"memory.dram.address_mapping"});
        if (c.ok() && !is_pow2(d.banks_per_channel))
            c.fail("memory.dram.banks_per_channel",
                   str(d.banks_per_channel) + " is not a power of two, which address_mapping " +
                       std::string(policy_name(d.address_mapping)) + " needs",
                   {"memory.dram.address_mapping"});
    }
    // A sustained fraction of the peak: real controllers keep 50-90%; below
    // 1% a path is not a DRAM any more.
    if (!(std::isfinite(d.efficiency) && d.efficiency >= 0.01 && d.efficiency <= 1.0))
        c.fail("memory.dram.efficiency",
               "out of range: " + number(d.efficiency) + " (must be 0.01 to 1)");
}

}  // namespace

std::optional<ConfigProblem> find_problem(const MachineConfig& m) {
    Checker c;
    if (m.name.empty()) c.fail("name", "must not be empty");
    c.one_of("family", m.family, kFamilies);
    if (!(std::isfinite(m.clock_ghz) && m.clock_ghz >= 0.1 && m.clock_ghz <= 10.0))
        c.fail("clock_ghz", "out of range: " + number(m.clock_ghz) + " (must be 0.1 to 10)");
    c.within("cores", m.cores, 1, 1024);
    if (c.ok()) check_core(c, m.core);
    if (c.ok()) check_memory(c, m);
    return c.problem;
}

}  // namespace agx::config_detail

namespace agx {

void validate_config(const MachineConfig& config) {
    if (auto p = config_detail::find_problem(config))
        throw config_detail::config_error(config.name.empty() ? "config" : config.name, p->key,
                                          p->reason);
}

}  // namespace agx
