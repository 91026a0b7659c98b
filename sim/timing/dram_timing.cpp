#include "sim/timing/dram_timing.hpp"

#include <algorithm>
#include <cmath>

namespace agx {

DramTiming::DramTiming(const DramConfig& cfg, double clock_ghz, std::uint32_t line_bytes)
    : line_bytes_(std::max<std::uint32_t>(1, line_bytes)),
      channels_(std::max<std::uint32_t>(1, cfg.channels)),
      banks_(std::max<std::uint32_t>(1, cfg.banks_per_channel)),
      lines_per_row_(std::max<std::uint64_t>(1, cfg.row_bytes / line_bytes_)),
      // bytes/s of the whole bus = width/8 x transfers/s; per core cycle.
      peak_(static_cast<double>(cfg.bus_width_bits) / 8.0 * cfg.data_rate_mtps * 1e6 /
            (clock_ghz * 1e9)),
      sustained_(peak_ * (cfg.efficiency > 0 ? cfg.efficiency : 1.0)),
      pow2_channels_(is_pow2(channels_)),
      pow2_banks_(is_pow2(banks_)),
      channel_hash_(cfg.address_mapping, log2_of(channels_), cfg.hash_bits),
      bank_hash_(cfg.address_mapping, log2_of(banks_), cfg.hash_bits),
      bank_state_(static_cast<std::size_t>(channels_) * banks_) {
    const double per_channel = sustained_ / channels_;
    const double transfer = line_bytes_ / per_channel;
    const double latency = cfg.latency_ns * clock_ghz;
    row_miss_ = cfg.row_miss_ns * clock_ghz;
    access_miss_ = std::max(0.0, latency - transfer);
    access_hit_ = std::max(0.0, access_miss_ - row_miss_);
    idle_latency_ = static_cast<Cycle>(std::ceil(access_miss_ + transfer - 1e-9));
    bus_.reserve(channels_);
    for (std::uint32_t c = 0; c < channels_; ++c) bus_.emplace_back(per_channel);
}

DramTiming::Place DramTiming::place_of(std::uint64_t address) const {
    const std::uint64_t line = address / line_bytes_;
    Place p;
    p.channel =
        static_cast<std::uint32_t>(pow2_channels_ ? channel_hash_.index(line) : line % channels_);
    const std::uint64_t in_channel = pow2_channels_ ? channel_hash_.upper(line) : line / channels_;
    const std::uint64_t row_index = in_channel / lines_per_row_;
    p.bank =
        static_cast<std::uint32_t>(pow2_banks_ ? bank_hash_.index(row_index) : row_index % banks_);
    p.row = pow2_banks_ ? bank_hash_.upper(row_index) : row_index / banks_;
    return p;
}

std::uint32_t DramTiming::channel_of(std::uint64_t address) const {
    return place_of(address).channel;
}

std::uint32_t DramTiming::bank_of(std::uint64_t address) const {
    return place_of(address).bank;
}

Cycle DramTiming::access(std::uint64_t address, std::uint32_t bytes, bool write, Cycle arrival) {
    const Place p = place_of(address);
    const std::uint32_t channel = p.channel;
    const std::uint64_t row = p.row;
    Bank& bank = bank_state_[static_cast<std::size_t>(channel) * banks_ + p.bank];

    const Cycle start = std::max(arrival, bank.ready);
    bank_wait_cycles_ += static_cast<double>(start - arrival);
    const bool hit = bank.open_row == row;
    (hit ? row_hits_ : row_misses_) += 1;
    const double access = hit ? access_hit_ : access_miss_;
    const Cycle data_at = start + static_cast<Cycle>(std::ceil(access - 1e-9));
    const Cycle done = bus_[channel].reserve(data_at, bytes);
    // A row hit's column command pipelines; opening a row holds the bank.
    if (!hit) bank.ready = start + static_cast<Cycle>(std::ceil(row_miss_ - 1e-9));
    bank.open_row = row;
    (void)write;  // reads and writes share the bus; turnarounds are in the efficiency
    return done;
}

double DramTiming::queue_cycles() const {
    double q = bank_wait_cycles_;
    for (const auto& b : bus_) q += b.queue_cycles();
    return q;
}

Cycle DramTiming::first_arrival() const {
    Cycle t = kNever;
    for (const auto& b : bus_) t = std::min(t, b.first_arrival());
    return t;
}

Cycle DramTiming::last_done() const {
    Cycle t = 0;
    for (const auto& b : bus_) t = std::max(t, b.last_done());
    return t;
}

}  // namespace agx
