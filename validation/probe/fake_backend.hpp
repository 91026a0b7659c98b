// A stand-in for the GPU: deterministic synthetic timings derived from the
// benchmark definition (each machine instruction's issue cost and latency by
// pipeline, the occupancy the dispatch gets, a fixed cost per wave), a clock
// that ramps up over the first dispatches as a real GPU's does, and noise
// from a seeded generator. Its numbers are not measurements: files it writes
// say so.
#pragma once

#include <cstdint>
#include <map>
#include <random>

#include "validation/probe/backend.hpp"

namespace agx::probe {

struct FakeOptions {
    std::uint64_t seed = 1;
    enum class Counters : std::uint8_t { Real, Zeros, None } counters = Counters::Real;
    std::uint32_t cores = 32;
    double clock_ghz = 1.296;      // the clock the timings are computed at
    unsigned cold_dispatches = 3;  // dispatches at half clock before the GPU reaches its top clock
    double noise = 0.01;           // each run takes up to this much longer
};

class FakeBackend : public Backend {
  public:
    explicit FakeBackend(const FakeOptions& options = {});
    DeviceInfo device() const override;
    PipelineInfo compile(const Kernel& kernel, const std::string& archive_dir) override;
    DispatchTiming run(const PipelineInfo& pipeline, const Dispatch& dispatch) override;

    // The model's cycles for one wave of a kernel at `resident_simds` per core.
    static double wave_cycles(const Kernel& kernel, std::uint32_t resident_simds);

  private:
    FakeOptions options_;
    std::map<int, Kernel> kernels_;
    std::mt19937_64 rng_;
    unsigned dispatches_ = 0;
    double now_ = 1000.0;  // seconds, the fake GPU's clock
};

}  // namespace agx::probe
