#include "sim/model/dram.hpp"

#include <algorithm>
#include <cmath>

namespace agx {

Dram::Dram(sc_core::sc_module_name name, const DramConfig& cfg, double clock_ghz, const CoreClock& clock)
    : sc_module(name),
      upstream("upstream"),
      cfg_(cfg),
      clock_(clock),
      latency_cycles_(static_cast<Cycle>(std::ceil(cfg.latency_ns * clock_ghz))),
      // bytes/s of the whole bus = width/8 * transfers/s; per core-cycle and channel.
      bytes_per_cycle_per_channel_(static_cast<double>(cfg.bus_width_bits) / 8.0 * cfg.data_rate_mtps * 1e6 /
                                   (clock_ghz * 1e9) / std::max<std::uint32_t>(1, cfg.channels)),
      channel_free_(std::max<std::uint32_t>(1, cfg.channels), 0.0) {
    upstream.register_b_transport(this, &Dram::b_transport);
}

void Dram::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
    const bool write = trans.get_command() == tlm::TLM_WRITE_COMMAND;
    (write ? writes_ : reads_) += 1;
    const std::uint32_t bytes = trans.get_data_length();
    bytes_ += bytes;
    const double arrival = static_cast<double>(clock_.cycles(sc_core::sc_time_stamp() + delay));
    const std::size_t ch = (trans.get_address() / 128) % channel_free_.size();
    const double start = std::max(arrival, channel_free_[ch]);
    const double transfer = bytes / bytes_per_cycle_per_channel_;
    channel_free_[ch] = start + transfer;
    queue_cycles_ += start - arrival;
    const double done = start + transfer + static_cast<double>(latency_cycles_);
    delay += clock_.time(static_cast<Cycle>(std::ceil(done - arrival)));
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

void Dram::report_stats(nlohmann::json& out) const {
    out["reads"] = reads_;
    out["writes"] = writes_;
    out["bytes"] = bytes_;
    out["latency_cycles"] = latency_cycles_;
    out["bytes_per_cycle"] = bytes_per_cycle_per_channel_ * channel_free_.size();
    out["queue_cycles"] = queue_cycles_;
}

}  // namespace agx
