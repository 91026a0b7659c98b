// The measurement method on a Backend: for each benchmark, generate its
// kernel (and the 2N kernel of the steady method), compile, plan the launch,
// warm the GPU up to its top clock, run several trials keeping the best, and
// turn GPU time into the validation figure at the chip's clock. The result is
// a measurement file `agxsim validate` reads as it is.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "validation/lib/measurement.hpp"
#include "validation/probe/backend.hpp"
#include "validation/probe/suite_source.hpp"

namespace agx::probe {

constexpr const char* kProbeVersion = "0.1.0";

struct RunOptions {
    unsigned trials = 5;
    double warmup_seconds =
        0.5;               // GPU time spent before the first benchmark, to reach the top clock
    unsigned warmup = 3;   // runs of each kernel before its trials, at least
    unsigned waves = 250;  // times the dispatch fills every core
    std::optional<double> clock_ghz;  // overrides the chip table
    std::string chip;                 // overrides the chip derived from the device name
    std::uint32_t cores = 0;          // overrides the device's core count
    std::uint32_t threadgroup_memory_per_core = 0;  // overrides the assumed per-core capacity
    double max_spread = 0.05;     // a figure whose trials spread more is marked approximate ("~")
    std::string archive_dir;      // write each pipeline's binary archive here
    std::string suite_source;     // where the benchmarks came from, for the file's record
    std::ostream* log = nullptr;  // one line per benchmark
};

// What a run assumes about the device, resolved once.
struct RunContext {
    DeviceInfo device;
    std::string chip;
    std::uint32_t cores = 0;
    double clock_ghz = 0;
    std::string clock_source;  // "chip table" or "--clock-ghz"
};

// Throws InputError when the chip's clock or the core count is unknown and
// no option gives it.
RunContext resolve_context(const DeviceInfo& device, const RunOptions& options);

validation::MeasurementFile run_suite(Backend& backend, const std::vector<SuiteEntry>& entries,
                                      const RunOptions& options);

}  // namespace agx::probe
