// From a merged config document to a typed, validated MachineConfig.
// Internal to sim/config.
#pragma once

#include "sim/config/json_source.hpp"
#include "sim/config/machine_config.hpp"

namespace agx::config_detail {

// Checks the keys (unknown, misplaced, malformed leaves), reads every leaf
// with its type (missing, wrong type) and validates the values. Throws
// InputError naming the file or --set that holds the bad key.
MachineConfig read_config(const ConfigDocument& doc);

}  // namespace agx::config_detail
