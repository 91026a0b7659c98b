#pragma once

#include <string>
#include <vector>

#include <systemc>

#include <nlohmann/json.hpp>

#include "sim/model/stats.hpp"

namespace agx {

// Statistics of `root` and everything below it, one JSON object per module,
// keyed by the module's basename; `path` is root's place in the stats JSON.
// With `declarations`, every statistic's declaration is appended there too.
nlohmann::json collect_stats(const sc_core::sc_object& root, const std::string& path,
                             std::vector<StatDeclaration>* declarations = nullptr);

}  // namespace agx
