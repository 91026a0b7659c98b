#include "sim/model/core_cache.hpp"

namespace agx {

CoreCache::CoreCache(sc_core::sc_module_name name, const CacheConfig& cfg, const CoreClock& clock)
    : sc_module(name), downstream("downstream"), cfg_(cfg), clock_(clock), tags_(cfg), line_(cfg.line_bytes) {}

Cycle CoreCache::fetch(std::uint64_t line, bool write, Cycle now) {
    // The annotated delay carries the request's own time, which may be ahead
    // of the kernel's time.
    trans_.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
    trans_.set_address(line * cfg_.line_bytes);
    trans_.set_data_ptr(line_.data());
    trans_.set_data_length(cfg_.line_bytes);
    trans_.set_streaming_width(cfg_.line_bytes);
    trans_.set_byte_enable_ptr(nullptr);
    trans_.set_dmi_allowed(false);
    trans_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    const Cycle kernel_now = clock_.now();
    sc_core::sc_time delay = clock_.time(now - kernel_now);
    downstream->b_transport(trans_, delay);
    if (trans_.is_response_error()) SC_REPORT_ERROR(name(), "memory request failed below the core");
    const Cycle done = kernel_now + clock_.cycles(delay);
    if (filling_.size() > 4 * cfg_.mshrs + 16)  // forget fills that have long returned
        for (auto it = filling_.begin(); it != filling_.end();)
            it = it->second <= now ? filling_.erase(it) : std::next(it);
    filling_[line] = done;
    return done;
}

void CoreCache::prefetch(std::uint64_t line, Cycle now) {
    if (tags_.contains(line * cfg_.line_bytes)) return;
    tags_.fill(line * cfg_.line_bytes);
    ++prefetches_;
    fetch(line, false, now);
}

Cycle CoreCache::access(std::uint64_t address, std::uint32_t bytes, bool write, Cycle now) {
    (write ? writes_ : reads_) += 1;
    const std::uint64_t line = address / cfg_.line_bytes;
    const Cycle lookup_done = now + cfg_.hit_latency_cycles;
    Cycle ready;
    if (tags_.access(address)) {
        ready = lookup_done;
        const auto it = filling_.find(line);
        if (it != filling_.end() && it->second > lookup_done) {  // present, still on its way
            ready = it->second;
            ++merged_;
        }
    } else {
        ready = fetch(line, write, lookup_done);
        miss_cycles_ += ready - lookup_done;
    }
    for (std::uint32_t k = 1; k <= cfg_.prefetch_lines; ++k) prefetch(line + k, lookup_done);
    return ready;
}

void CoreCache::report_stats(nlohmann::json& out) const {
    out["size_bytes"] = cfg_.size_bytes;
    out["reads"] = reads_;
    out["writes"] = writes_;
    out["hits"] = tags_.hits();
    out["misses"] = tags_.misses();
    const auto total = tags_.hits() + tags_.misses();
    out["hit_rate"] = total ? static_cast<double>(tags_.hits()) / static_cast<double>(total) : 0.0;
    out["hits_on_lines_in_flight"] = merged_;
    out["prefetches"] = prefetches_;
    out["miss_latency_cycles_total"] = miss_cycles_;
}

}  // namespace agx
