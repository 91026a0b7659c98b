#include "sim/model/dram.hpp"

#include "sim/model/cache_stats.hpp"

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

void Dram::report_stats(StatsWriter& out) const {
    out.add("reads", StatUnit::Count, "read requests", reads_);
    out.add("writes", StatUnit::Count, "write requests", writes_);
    out.add("bytes", StatUnit::Bytes, "bytes requested", bytes_);
    out.add("channels", StatUnit::Count, "memory channels (config)", cfg_.channels);
    out.add("idle_row_miss_latency_cycles", StatUnit::Cycles,
            "latency of an access to an idle channel that opens a row",
            timing_.idle_row_miss_cycles());
    out.add("peak_bytes_per_cycle", StatUnit::BytesPerCycle, "the channels' peak data rate",
            timing_.peak_bytes_per_cycle());
    out.add("sustained_bytes_per_cycle", StatUnit::BytesPerCycle,
            "the peak times the config's efficiency", timing_.sustained_bytes_per_cycle());
    out.add("row_hits", StatUnit::Count, "accesses to an open row", timing_.row_hits());
    out.add("row_misses", StatUnit::Count, "accesses that opened a row", timing_.row_misses());
    const auto requests = reads_ + writes_;
    out.add("latency_cycles_mean", StatUnit::Cycles, "mean latency of a request, queueing included",
            ratio(latency_total_, requests));
    out.add("queue_cycles_total", StatUnit::Cycles, "cycles requests waited for a bank or the bus",
            timing_.queue_cycles());
    out.add("queue_cycles_mean", StatUnit::Cycles, "queue_cycles_total / requests",
            ratio(timing_.queue_cycles(), requests));
    const double per_cycle =
        bytes_per_cycle_over(bytes_, timing_.first_arrival(), timing_.last_done());
    out.add("bytes_per_cycle_used", StatUnit::BytesPerCycle,
            "bytes over the span from the first request to the last byte", per_cycle);
    out.add("gb_per_s_used", StatUnit::GigabytesPerSecond, "bytes_per_cycle_used at the core clock",
            per_cycle * clock_ghz_);
}

}  // namespace agx
