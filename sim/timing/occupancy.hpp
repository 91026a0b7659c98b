// Residency: how many threadgroups of a launch one core holds at once.
//
// Three limits (metal-benchmarks, the Asahi Mesa compiler): registers per thread set a
// thread limit through the occupancy table; threadgroup memory per threadgroup
// against the core's total; and the resident-simd limit. A threadgroup is
// resident whole or not at all.
#pragma once

#include <cstdint>
#include <string>

#include "sim/config/machine_config.hpp"
#include "sim/trace/workload.hpp"

namespace agx {

struct Residency {
    std::uint32_t threadgroups_per_core = 0;
    std::uint32_t simds_per_threadgroup = 0;
    std::uint32_t thread_limit = 0;  // threads per threadgroup the occupancy rule allows
    std::string limited_by;          // "registers", "threadgroup_memory", "simds", "launch"
};

// Half-registers per thread the core allocates for `halves` used: rounded up
// to the allocation granule, at least one granule.
std::uint32_t allocated_halves(const CoreConfig& core, std::uint32_t halves);
// Simds the register file holds at an allocation of `allocated` halves per
// thread (208 KB / (2 B x halves x 32 lanes)), before the resident-simd limit.
std::uint32_t simds_by_registers(const CoreConfig& core, std::uint32_t allocated);

// Throws InputError (where = `where`) if not even one threadgroup fits.
Residency compute_residency(const CoreConfig& core, const Launch& launch, const std::string& where);

}  // namespace agx
