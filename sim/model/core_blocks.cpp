#include "sim/model/core_blocks.hpp"

namespace agx {

void RegisterCacheBlock::report_stats(nlohmann::json& out) const {
    out["hits"] = cache.hits();
    out["misses"] = cache.misses();
    out["file_read_halves"] = cache.file_read_halves();
}

void PipelineBlock::report_stats(nlohmann::json& out) const {
    out["issued"] = pipe.issued_total();
    out["busy_scheduler_cycles"] = pipe.busy_cycles();
}

void SfuBlock::report_stats(nlohmann::json& out) const {
    out["lanes"] = lanes_;
    out["issued"] = sfu.issued();
    out["busy_cycles"] = sfu.busy_cycles();
}

void LoadStoreBlock::report_stats(nlohmann::json& out) const {
    out["issued"] = pipe.issued_total();
    out["requests"] = unit.requests();
    out["lines"] = unit.lines();
    out["bytes"] = unit.bytes();
}

}  // namespace agx
