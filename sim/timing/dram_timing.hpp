// DRAM as channels of banks with one open row each, behind per-channel data
// buses. Plain C++ (the SystemC Dram module wraps it), so that its timing can
// be tested on its own.
//
// Address mapping (`address_mapping`): consecutive lines interleave over the
// channels; within a channel, `row_bytes` of consecutive channel lines share
// a row, and consecutive rows rotate over the banks, so a stream keeps rows
// open and overlaps activations in other banks. With a hash (`xor`, `ipoly`)
// the channel is the line's low bits XOR a hash of the `hash_bits` bits above
// them, and the bank the row's low bits XOR a hash of the row bits above
// (permutation-based interleaving): a power-of-two stride then spreads over
// every channel and bank instead of landing on a few
// (sim/timing/index_hash.hpp).
//
// Timing of one request, in core cycles:
//   start   = max(arrival, the bank's ready time)
//   data    = start + (row hit ? access_hit : access_miss), then the line
//             crosses the channel's bus at its sustained rate (queueing there)
//   access_miss = latency - transfer of one line (so an idle access that
//             opens a row, as a pointer chase's does, takes exactly `latency`)
//   access_hit  = access_miss - row_miss
// A row miss keeps the bank busy for `row_miss` (the activation; rows stay
// open until another row of their bank is needed).
// The sustained rate is the peak rate x `efficiency`: refresh, activations the
// banks cannot hide, bus turnarounds and scheduling, not modelled one by one.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/common/cycle.hpp"
#include "sim/config/machine_config.hpp"
#include "sim/timing/bandwidth_timeline.hpp"
#include "sim/timing/index_hash.hpp"

namespace agx {

class DramTiming {
  public:
    DramTiming(const DramConfig& cfg, double clock_ghz, std::uint32_t line_bytes);

    // One request of `bytes` (within one line) arriving at `arrival`;
    // returns the cycle its data is back at the SLC (or written).
    Cycle access(std::uint64_t address, std::uint32_t bytes, bool write, Cycle arrival);

    // Where `address` goes (the config's address mapping).
    std::uint32_t channel_of(std::uint64_t address) const;
    std::uint32_t bank_of(std::uint64_t address) const;

    double peak_bytes_per_cycle() const { return peak_; }
    double sustained_bytes_per_cycle() const { return sustained_; }
    Cycle idle_row_miss_cycles() const { return idle_latency_; }
    std::uint64_t row_hits() const { return row_hits_; }
    std::uint64_t row_misses() const { return row_misses_; }
    double queue_cycles() const;
    Cycle first_arrival() const;
    Cycle last_done() const;

  private:
    struct Place {
        std::uint32_t channel, bank;
        std::uint64_t row;
    };
    Place place_of(std::uint64_t address) const;
    struct Bank {
        std::uint64_t open_row = ~0ull;
        Cycle ready = 0;
    };
    std::uint32_t line_bytes_;
    std::uint32_t channels_;
    std::uint32_t banks_;
    std::uint64_t lines_per_row_;
    double peak_, sustained_;          // whole chip, bytes per core cycle
    double access_miss_, access_hit_;  // command to first data, cycles
    double row_miss_;
    Cycle idle_latency_;
    // Power-of-two channel and bank counts map by address bits (hashed or
    // not); other counts, only with low_bits, by division.
    bool pow2_channels_, pow2_banks_;
    IndexHash channel_hash_, bank_hash_;
    std::vector<Bank> bank_state_;        // channels x banks
    std::vector<BandwidthTimeline> bus_;  // one per channel
    std::uint64_t row_hits_ = 0, row_misses_ = 0;
    double bank_wait_cycles_ = 0;
};

}  // namespace agx
