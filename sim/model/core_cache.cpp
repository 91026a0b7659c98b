#include "sim/model/core_cache.hpp"

namespace agx {

CoreCache::CoreCache(sc_core::sc_module_name name, const CacheConfig& cfg, const CoreClock& clock)
    : sc_module(name), downstream("downstream"), cfg_(cfg), clock_(clock), tags_(cfg), line_(cfg.line_bytes) {}

Cycle CoreCache::access(std::uint64_t address, std::uint32_t bytes, bool write, Cycle now) {
    (write ? writes_ : reads_) += 1;
    const Cycle lookup_done = now + cfg_.hit_latency_cycles;
    if (tags_.access(address)) return lookup_done;

    // Miss: fetch the line from below. The annotated delay carries the
    // request's own time (it may be ahead of the kernel's time).
    trans_.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
    trans_.set_address(address / cfg_.line_bytes * cfg_.line_bytes);
    trans_.set_data_ptr(line_.data());
    trans_.set_data_length(cfg_.line_bytes);
    trans_.set_streaming_width(cfg_.line_bytes);
    trans_.set_byte_enable_ptr(nullptr);
    trans_.set_dmi_allowed(false);
    trans_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    const Cycle kernel_now = clock_.now();
    sc_core::sc_time delay = clock_.time(lookup_done - kernel_now);
    downstream->b_transport(trans_, delay);
    if (trans_.is_response_error())
        SC_REPORT_ERROR(name(), "memory request failed below the core");
    const Cycle done = kernel_now + clock_.cycles(delay);
    miss_cycles_ += done - lookup_done;
    return done;
}

void CoreCache::report_stats(nlohmann::json& out) const {
    out["size_bytes"] = cfg_.size_bytes;
    out["reads"] = reads_;
    out["writes"] = writes_;
    out["hits"] = tags_.hits();
    out["misses"] = tags_.misses();
    const auto total = tags_.hits() + tags_.misses();
    out["hit_rate"] = total ? static_cast<double>(tags_.hits()) / static_cast<double>(total) : 0.0;
    out["miss_latency_cycles_total"] = miss_cycles_;
}

}  // namespace agx
