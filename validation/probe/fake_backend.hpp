// A stand-in for the GPU: deterministic synthetic timings derived from the
// benchmark definition (each machine instruction's issue cost and latency by
// pipeline, the occupancy the dispatch gets, a fixed cost per wave), a clock
// that ramps up over the first dispatches as a real GPU's does, and noise
// from a seeded generator. A dispatch run alone starts after a submission
// gap; a batch runs back to back. Counter samples span the pass, inside its
// command buffer's time. Its numbers are not measurements: files it writes
// say so.
#pragma once

#include <cstdint>
#include <map>
#include <random>
#include <string>

#include "validation/probe/backend.hpp"

namespace agx::probe {

struct FakeOptions {
    std::uint64_t seed = 1;
    enum class Counters : std::uint8_t { Real, Zeros, None } counters = Counters::Real;
    std::string name = "agxsim fake GPU (synthetic timings, M1 Max-like)";
    std::string chip = "m1-max";  // "m3-max": a chip the clock table does not know
    std::uint32_t cores = 32;
    double clock_ghz = 1.296;      // the clock the timings are computed at
    unsigned cold_dispatches = 3;  // dispatches at half clock before the GPU reaches its top clock
    double cold_seconds = 0;       // and GPU seconds at half clock, whichever lasts longer
    double noise = 0.01;           // each run takes up to this much longer
    bool precise = false;          // the math mode it reports (nothing is compiled)

    // Failures, as the Metal calls would report them, for kernels whose
    // benchmark name contains the text ("*": every kernel; empty: none).
    std::string fail_compile;          // newLibraryWithSource fails
    std::string fail_run;              // the command buffer ends in an error
    std::string fail_resolve;          // resolveCounterRange returns nil
    bool fail_archive = false;         // every binary archive fails to serialize
    bool fail_counter_buffer = false;  // newCounterSampleBufferWithDescriptor fails
    // The counter samples hold timestamps, but span half the pass: they
    // disagree with the command buffer's times.
    std::string counter_disagree;
    // The compiler shortens these kernels' chains under fast math (a chain of
    // adds reassociated into one multiply): their bodies cost 1/64 of what
    // they should, unless `precise`.
    std::string fold;
};

// "compile=FADD32,resolve=*,archive,counter-buffer,counter-disagree=IMUL,run=IMUL,fold=FADD":
// the failures
// of `agxsim-probe ... --backend fake --fake-fail LIST`. Throws
// std::invalid_argument for an unknown name.
void parse_fake_failures(const std::string& list, FakeOptions& options);

class FakeBackend : public Backend {
  public:
    explicit FakeBackend(const FakeOptions& options = {});
    DeviceInfo device() const override;
    PipelineInfo compile(const Kernel& kernel, const std::string& archive_dir) override;
    DispatchTiming run(const PipelineInfo& pipeline, const Dispatch& dispatch) override;
    // Back to back: each dispatch starts as the one before it ends.
    std::vector<DispatchTiming> run_batch(const std::vector<Submission>& batch,
                                          unsigned in_flight) override;

    // How the dispatches were submitted so far.
    struct Submitted {
        unsigned alone = 0;       // run()
        unsigned batches = 0;     // run_batch()
        std::size_t batched = 0;  // dispatches in those batches
        unsigned max_in_flight = 0;
    };
    const Submitted& submitted() const { return submitted_; }

    // The model's cycles for one wave of a kernel at `resident_simds` per core.
    static double wave_cycles(const Kernel& kernel, std::uint32_t resident_simds);

  private:
    // One dispatch, starting `idle` seconds after the one before ended.
    DispatchTiming execute(const PipelineInfo& pipeline, const Dispatch& dispatch, double idle);

    FakeOptions options_;
    Submitted submitted_;
    std::map<int, Kernel> kernels_;
    std::mt19937_64 rng_;
    unsigned dispatches_ = 0;
    double busy_ = 0;      // GPU seconds run so far
    double now_ = 1000.0;  // seconds, the fake GPU's clock: when the last dispatch ended
};

}  // namespace agx::probe
