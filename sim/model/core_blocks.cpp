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
    out["data_path_busy_cycles"] = unit.busy_cycles();
    out["mshr_wait_cycles"] = unit.mshr_wait_cycles();
}

void ThreadgroupMemoryBlock::report_stats(nlohmann::json& out) const {
    out["size_bytes"] = size_bytes_;
    out["banks"] = banks.banks();
    out["bank_bytes"] = banks.bank_bytes();
    out["issued"] = pipe.issued_total();
    out["accesses"] = banks.accesses();
    out["bank_passes"] = banks.passes_total();
    out["conflict_cycles"] = banks.conflict_cycles();
}

}  // namespace agx
