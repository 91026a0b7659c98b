// The storage each configured structure implies, so that a value fitted to a
// measurement can be checked for plausible size (`agxsim config storage`).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/config/machine_config.hpp"

namespace agx {

struct StructureStorage {
    std::string structure;            // "register cache"
    std::string derivation;           // how the bytes follow from the config
    std::uint64_t per_scheduler = 0;  // 0: not a per-scheduler structure
    std::uint64_t per_core = 0;       // 0: shared by the chip's cores
    std::uint64_t per_chip = 0;
};

std::vector<StructureStorage> structure_storage(const MachineConfig& cfg);

}  // namespace agx
