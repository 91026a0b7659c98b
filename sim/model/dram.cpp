#include "sim/model/dram.hpp"

namespace agx {

Dram::Dram(sc_core::sc_module_name name, const DramConfig& cfg, double clock_ghz,
           const CoreClock& clock, std::uint32_t line_bytes)
    : sc_module(name),
      upstream("upstream"),
      cfg_(cfg),
      clock_(clock),
      clock_ghz_(clock_ghz),
      timing_(cfg, clock_ghz, line_bytes) {
    upstream.register_b_transport(this, &Dram::b_transport);
}

void Dram::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
    const bool write = trans.get_command() == tlm::TLM_WRITE_COMMAND;
    (write ? writes_ : reads_) += 1;
    bytes_ += trans.get_data_length();
    const Cycle kernel_now = clock_.now();
    const Cycle arrival = clock_.cycles(sc_core::sc_time_stamp() + delay);
    const Cycle done = timing_.access(trans.get_address(), trans.get_data_length(), write, arrival);
    latency_total_ += done - arrival;
    if (memory_observer_)
        memory_observer_->memory_request(name(), trans.get_address(), write, arrival, done, true);
    delay = clock_.time(done - kernel_now);  // the kernel's time is on a whole cycle
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

void Dram::report_stats(nlohmann::json& out) const {
    out["reads"] = reads_;
    out["writes"] = writes_;
    out["bytes"] = bytes_;
    out["channels"] = cfg_.channels;
    // The first keys of this block (docs/statistics.md), kept.
    out["latency_cycles"] = timing_.idle_row_miss_cycles();
    out["bytes_per_cycle"] = timing_.peak_bytes_per_cycle();
    out["queue_cycles"] = timing_.queue_cycles();
    out["idle_row_miss_latency_cycles"] = timing_.idle_row_miss_cycles();
    out["peak_bytes_per_cycle"] = timing_.peak_bytes_per_cycle();
    out["sustained_bytes_per_cycle"] = timing_.sustained_bytes_per_cycle();
    out["row_hits"] = timing_.row_hits();
    out["row_misses"] = timing_.row_misses();
    const auto requests = reads_ + writes_;
    out["latency_cycles_mean"] =
        requests ? static_cast<double>(latency_total_) / static_cast<double>(requests) : 0.0;
    out["queue_cycles_total"] = timing_.queue_cycles();
    out["queue_cycles_mean"] =
        requests ? timing_.queue_cycles() / static_cast<double>(requests) : 0.0;
    const Cycle first = timing_.first_arrival(), last = timing_.last_done();
    const double per_cycle = last > first && first != kNever
                                 ? static_cast<double>(bytes_) / static_cast<double>(last - first)
                                 : 0.0;
    out["bytes_per_cycle_used"] = per_cycle;
    out["gb_per_s_used"] = per_cycle * clock_ghz_;
}

}  // namespace agx
