// The measurement method of the reference tables as benchmark parameters
// (validation/suite/method.json): what ILP, occupancy and repetitions each
// kind of figure was measured at, and the kernel's fixed cost.
#pragma once

#include <cstdint>
#include <string>

#include "validation/lib/benchmark.hpp"

namespace agx::validation {

struct KindParameters {
    std::uint32_t ilp = 1;
    std::uint32_t simds_per_core = 4;
    std::uint32_t repetitions = 1440;
    BenchmarkDefinition::Method method = BenchmarkDefinition::Method::Total;
    OperandShape operand_shape = OperandShape::Distinct;
    // The measuring kernel's launch (BenchmarkDefinition): threadgroups per
    // core (0: as few as hold the simds) and how many times they are relaunched.
    std::uint32_t resident_threadgroups = 0;
    std::uint32_t waves = 1;
    // This kind's own kernel's fixed cost, where it is not the control
    // group's (negative: the control group's).
    double overhead_16 = -1, overhead_32 = -1;
};

struct Method {
    KindParameters throughput, latency, ilp_occupancy;
    double overhead_16 = 0, overhead_32 = 0;
    double overhead(std::uint32_t register_bits) const {
        return register_bits == 16 ? overhead_16 : overhead_32;
    }
    // The fixed cost of the kernel that measured figures of kind `k`.
    double overhead(const KindParameters& k, std::uint32_t register_bits) const {
        const double own = register_bits == 16 ? k.overhead_16 : k.overhead_32;
        return own >= 0 ? own : overhead(register_bits);
    }
};

// The project's method file; `path` empty means validation/suite/method.json
// ($AGXSIM_VALIDATION_DIR/suite/method.json if set).
const Method& method(const std::string& path = "");
std::string validation_dir();

}  // namespace agx::validation
