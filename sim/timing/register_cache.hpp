// A scheduler's operand reuse cache in front of the register file.
//
// metal-benchmarks (philipturner/metal-benchmarks, "ALU Bottlenecks"): operand
// fetch, not ALU count, is the usual bottleneck at low occupancy or ILP; and
// the compiler marks each source `cache` (keep it) or `discard` (drop it after
// this read), as applegpu's docs describe the operand hints.
// The model: a small fully associative cache of registers tagged by (simd,
// register), replacement from the config; an entry holds a 32-bit register
// or a 16-bit one (half_registers "own_entry"), or a 32-bit register with
// both its halves ("share_entry"), either shared by the
// scheduler's simds or (sharing "simd") partitioned, `entries` per simd, as
// the register-file cache of Gebhart et al. (ISCA 2011) keeps entries per
// warp; sources that miss are read from the register file through
// `file_read_ports` 32-bit ports (a 16-bit operand takes half a port-cycle)
// and arrive `file_read_latency` cycles after their read
// (`file_read_latency_16bit` when all of them are 16-bit); results are written
// into the cache. The ports work as a queue: an instruction may issue while
// at most one cycle of reads is still queued ahead of it, and its result is
// late by however long its own reads wait plus the read latency (the engine
// holds the simd's next instruction as long: one operand collector per simd).
#pragma once

#include <cstdint>
#include <vector>

#include "sim/common/divisor.hpp"
#include "sim/config/machine_config.hpp"
#include "sim/timing/replacement.hpp"
#include "sim/trace/instruction.hpp"

namespace agx {

class RegisterCache {
  public:
    explicit RegisterCache(const RegisterCacheConfig& cfg);

    // The first cycle at which the read ports can take another instruction.
    std::uint64_t ports_free_at() const { return ports_free_at_; }
    // Looks up the instruction's register sources for `simd`, issued at
    // `now`, queues its misses on the read ports, updates the cache, and
    // returns how many cycles late its operands are (0 when its reads finish
    // within the issue cycle).
    std::uint32_t fetch_operands(std::uint32_t simd, const Instruction& inst, std::uint64_t now);

    // Drops every entry of a simd that has finished.
    void evict_simd(std::uint32_t simd);

    std::uint64_t hits() const { return hits_; }
    std::uint64_t misses() const { return misses_; }
    std::uint64_t file_read_halves() const { return file_read_halves_; }

  private:
    // Entries hold packed keys (simd << 9 | tag: a 32-bit register's number
    // in halves, that of its low half, or 256 + a 16-bit register's own
    // number when halves take entries of their own), with their stamps in a
    // parallel array (0: empty); LRU stamps on every use, FIFO on fills and
    // writes. A fill takes an empty entry (the lowest) first, else the oldest
    // stamp. Nearly every lookup of a busy core misses (imad_fadd: all of its
    // sources), so neither a lookup nor a fill scans the entries:
    //  - entry_of_ says which entry holds a key: a row of 512 slots per simd
    //    (made as simds appear), the key's low byte its column;
    //  - uses_ logs the stamps in the order they were given: the first one
    //    that is still its entry's stamp is the oldest.
    static constexpr std::uint32_t kEmpty = 0xffffffffu;
    static constexpr std::uint16_t kNone = 0xffff;  // no entry (entry_of_), no row (row_of_)
    static constexpr unsigned kTagBits = 9;
    static constexpr std::uint32_t kTagMask = (1u << kTagBits) - 1;
    static std::uint32_t key(std::uint32_t simd, std::uint16_t tag) {
        return simd << kTagBits | tag;
    }
    // Where in entry_of_ the row of the keys k with k >> kTagBits == hi
    // begins (made if need be); key k's slot is that plus k & kTagMask.
    std::size_t row(std::uint32_t hi) {
        return hi < row_of_.size() && row_of_[hi] != kNone ? std::size_t{row_of_[hi]} << kTagBits
                                                           : add_row(hi);
    }
    std::size_t add_row(std::uint32_t hi);
    void stamp(std::uint32_t e) {
        stamps_[e] = ++tick_;
        if (per_simd_) return;  // a partition's victim is found by a scan of its few entries
        if (uses_.size() == uses_.capacity()) drop_stale_uses();
        uses_.push_back({tick_, e});
    }
    void drop_stale_uses();
    // The full entry with the oldest stamp (when every entry is full).
    std::uint32_t oldest() {
        while (stamps_[uses_[first_use_].entry] != uses_[first_use_].stamp) ++first_use_;
        return uses_[first_use_].entry;
    }
    template <class SlotOf>
    std::uint16_t holder_entry(std::uint32_t simd, std::uint16_t tag, SlotOf& slot_of);
    // Puts key k, whose slot in entry_of_ is `slot`, in the entry a fill takes.
    void fill(std::uint32_t k, std::size_t slot);
    // The entry a fill takes in the partition of row `row` (sharing "simd").
    std::uint32_t partition_victim(std::size_t row);
    void empty(std::uint32_t e);

    struct Use {
        std::uint64_t stamp;
        std::uint32_t entry;
    };
    std::vector<std::uint32_t> keys_;
    std::vector<std::uint64_t> stamps_;
    std::vector<std::uint32_t> slots_;  // each entry's key's slot in entry_of_
    std::uint32_t empties_;             // entries without a key
    std::uint64_t tick_ = 0;
    std::vector<Use> uses_;  // stamps given, oldest first; before first_use_ all stale
    std::size_t first_use_ = 0;
    // By key: the entry holding it, or kNone (512 bytes per simd the scheduler
    // has seen, of which a lookup touches one line).
    std::vector<std::uint16_t> row_of_;  // by key >> kTagBits (the simd): its row
    std::vector<std::uint16_t> entry_of_;
    VictimPicker victims_;
    bool per_simd_;
    std::uint32_t partition_entries_;  // entries per simd (sharing "simd")
    bool half_own_entry_;              // a 16-bit register takes an entry of its own
    std::uint32_t read_latency_;       // cycles from a miss's read to its operand
    std::uint32_t read_latency_16_;    // the same when only 16-bit operands missed
    Divisor read_halves_per_cycle_;
    std::uint64_t ports_busy_until_ = 0;  // in half-register reads: cycle x read_halves_per_cycle_
    std::uint64_t ports_free_at_ = 0;     // in cycles, from ports_busy_until_
    std::uint64_t hits_ = 0, misses_ = 0, file_read_halves_ = 0;
};

}  // namespace agx
