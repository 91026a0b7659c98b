// The measurement method on a Backend, in the order a run takes:
//
//   1. compile every kernel of the selection (and the 2N kernel of the
//      steady method) before timing anything: a kernel that does not compile
//      costs its benchmark, recorded with the compiler's message;
//   2. warm the GPU with a long ALU-bound kernel (FADD32 at ILP 4 and 88
//      simds per core), submitted back to back with several command buffers
//      in flight, until its rate settles by GPU time;
//   3. choose the timing source once for the whole run, on the clock
//      kernel's dispatches: the stage-boundary counters when every sample
//      holds timestamps that agree with its command buffer's time (within
//      elapsed.hpp's tolerance), else the command buffer's GPU start and end,
//      and why (probe.timing); a benchmark whose own dispatches have no
//      counter time, or one that disagrees, is timed by its command buffer;
//   4. check the clock: that kernel's throughput must be 1.0 cycle within 3%
//      at the assumed clock, and its instructions / (schedulers x cores x
//      time) give the clock the GPU ran at (a chip the table does not know
//      runs at that measured clock);
//   5. measure the control group: for each launch shape (occupancy,
//      threadgroups per core, waves) and register width of the selection's
//      Total benchmarks, an empty-body kernel, whose best trial's cycles per
//      wave are the probe kernel's own fixed cost; each Total record carries
//      it as its overhead_cycles (the suite's is the reference kernel's), or
//      keeps the suite's and says why the control could not be measured;
//   6. measure each benchmark: a few warm-up runs, then trials keeping the
//      best, turned into the validation figure at the clock. A failure costs
//      that benchmark only, and its record says why. The record's body is
//      the kernel's: each operation with the companion instructions its
//      expression adds (msl_ops.hpp);
//   7. check the clock again, to show it held.
//
// Every timed dispatch (steps 2 to 7) is queued back to back through
// Backend::run_batch, RunOptions::in_flight command buffers at once, so the
// GPU does not idle between them; the two kernels of the steady method
// alternate within a batch, so that a drift touches both.
//
// The result is a measurement file `agxsim validate` reads as it is; it is
// written (through RunOptions::checkpoint) after every benchmark too.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "validation/lib/measurement.hpp"
#include "validation/probe/backend.hpp"
#include "validation/probe/suite_source.hpp"

namespace agx::probe {

constexpr const char* kProbeVersion = "0.3.0";

struct RunOptions {
    unsigned trials = 5;
    // GPU time the warm-up kernel runs at least before anything is measured,
    // and at most, settled or not.
    double warmup_seconds = 0.5;
    double warmup_max_seconds = 20;
    // Command buffers queued at once: every measured dispatch (warm-up,
    // clock checks, each benchmark's warm-up runs and trials) is submitted
    // back to back through Backend::run_batch.
    unsigned in_flight = 4;
    unsigned warmup = 3;              // runs of each kernel before its trials, at least
    unsigned waves = 250;             // times the dispatch fills every core
    std::optional<double> clock_ghz;  // overrides the chip table
    std::string chip;                 // overrides the chip derived from the device name
    std::uint32_t cores = 0;          // overrides the device's core count
    std::uint32_t threadgroup_memory_per_core = 0;  // overrides the assumed per-core capacity
    double max_spread = 0.05;       // a figure whose trials spread more is marked approximate ("~")
    double clock_tolerance = 0.03;  // the clock check's allowance around 1.0 cycle
    std::string archive_dir;        // write each pipeline's binary archive here
    std::string suite_source;       // where the benchmarks came from, for the file's record
    std::ostream* log = nullptr;    // progress, one line per benchmark
    // Called with the file as it stands after the compile phase and after
    // every benchmark: a run that stops early leaves what it measured.
    std::function<void(const validation::MeasurementFile&)> checkpoint;
};

// What a run assumes about the device, resolved once.
struct RunContext {
    DeviceInfo device;
    std::string chip;
    std::uint32_t cores = 0;
    // The clock the cycles are computed at: the option's, the chip table's,
    // or (0 until then) the one the clock check measures.
    double clock_ghz = 0;
    std::string clock_source;  // "chip table", "--clock-ghz option" or "measured"
    std::optional<double> table_clock_ghz;
};

// Throws InputError when the chip name or the core count is unknown and no
// option gives it. A chip the clock table does not know is no error: the
// run measures its clock.
RunContext resolve_context(const DeviceInfo& device, const RunOptions& options);

// The clock kernel: FADD32 at ILP 4 and 88 simds per core, 960 repetitions
// as a loop of 2 x 480 (the steady method's 2N: 4 x 480), which issues one
// FADD32 per scheduler per cycle on the M1 and M2 generations.
validation::BenchmarkDefinition clock_definition();

struct ClockCheck {
    bool measured = false;
    std::string error;              // why it could not be measured
    double figure = 0;              // FADD32 cycles at the assumed clock (0: none assumed)
    double measured_clock_ghz = 0;  // FADD32s per scheduler / seconds, at one per cycle
    bool ok = false;                // the figure is 1.0 within the tolerance
    std::string message;
    nlohmann::json json;
};

validation::MeasurementFile run_suite(Backend& backend, const std::vector<SuiteEntry>& entries,
                                      const RunOptions& options);

// `agxsim-probe check`: steps 1 to 4 of a run (the control kernels compiled
// too), and what a full run will take
// (one dispatch of every kernel, timed).
struct CheckReport {
    RunContext context;
    std::size_t benchmarks = 0;                                       // selected
    std::size_t kernels = 0;                                          // compiled
    std::vector<std::pair<std::string, std::string>> compile_errors;  // benchmark id, message
    std::vector<std::pair<std::string, std::string>> not_measurable;  // id, why (no kernel)
    std::vector<std::pair<std::string, std::string>> run_errors;      // id, a dispatch that failed
    double compile_seconds = 0;
    nlohmann::json warmup, timing;
    ClockCheck clock;
    double estimate_low_seconds = 0, estimate_high_seconds = 0;  // a full run's wall time
};
CheckReport check_suite(Backend& backend, const std::vector<SuiteEntry>& entries,
                        const RunOptions& options);

}  // namespace agx::probe
