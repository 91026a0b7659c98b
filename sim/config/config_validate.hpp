// Range and consistency checks on a resolved MachineConfig: what a value
// must satisfy to describe a machine the simulator can build. Internal to
// sim/config (the public entry point is validate_config).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sim/config/machine_config.hpp"

namespace agx::config_detail {

struct ConfigProblem {
    std::string key;                // dotted path of the value to fix
    std::string reason;             // one line
    std::vector<std::string> also;  // other keys involved: the fix may be in any of them
};

// The first problem found, in file order, or nothing.
std::optional<ConfigProblem> find_problem(const MachineConfig& config);

}  // namespace agx::config_detail
