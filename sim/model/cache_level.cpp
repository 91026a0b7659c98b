#include "sim/model/cache_level.hpp"

namespace agx {

CacheLevel::CacheLevel(sc_core::sc_module_name name, const CacheConfig& cfg, const CoreClock& clock)
    : sc_module(name), upstream("upstream"), downstream("downstream"), cfg_(cfg), clock_(clock), tags_(cfg) {
    upstream.register_b_transport(this, &CacheLevel::b_transport);
}

void CacheLevel::b_transport(int, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
    const bool write = trans.get_command() == tlm::TLM_WRITE_COMMAND;
    (write ? writes_ : reads_) += 1;
    bytes_ += trans.get_data_length();
    delay += clock_.time(cfg_.hit_latency_cycles);
    // Write-allocate, like the loads: an assumption until writes are measured.
    if (!tags_.access(trans.get_address())) {
        downstream->b_transport(trans, delay);
        if (!trans.is_response_ok()) return;
    }
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

void CacheLevel::preload(std::uint64_t address, std::uint64_t bytes) {
    for (std::uint64_t a = address / cfg_.line_bytes * cfg_.line_bytes; a < address + bytes; a += cfg_.line_bytes)
        tags_.fill(a);
}

void CacheLevel::report_stats(nlohmann::json& out) const {
    out["size_bytes"] = cfg_.size_bytes;
    out["reads"] = reads_;
    out["writes"] = writes_;
    out["bytes"] = bytes_;
    out["hits"] = tags_.hits();
    out["misses"] = tags_.misses();
    const auto total = tags_.hits() + tags_.misses();
    out["hit_rate"] = total ? static_cast<double>(tags_.hits()) / static_cast<double>(total) : 0.0;
}

}  // namespace agx
