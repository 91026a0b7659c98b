#pragma once

#include <systemc>

#include <nlohmann/json.hpp>

namespace agx {

// Statistics of `root` and everything below it, one JSON object per module,
// keyed by the module's basename.
nlohmann::json collect_stats(const sc_core::sc_object& root);

}  // namespace agx
