// Sampled simulation at the granularity of threadgroup waves.
//
// The dispatcher (ThreadgroupSource) asks the sampler which threadgroup
// comes next. The launch's first waves run in detail (the warm-up); then
// each period is waves the cores never see followed by waves in detail: the
// plan's warm waves, not measured, then one sample. The sampler has the
// skipped waves executed with no timing (so every buffer ends as a full run
// leaves it, and their device accesses warm the shared caches' tags) and
// the cores go on with the detail at once, so the timed pipeline never
// drains. A kernel whose threadgroups are independent has the range run as
// soon as it is skipped; any other only once every threadgroup before it
// has finished, about a wave into the detail after it. The warm waves
// (SMARTS's detailed warming) span that wave, so that the sample runs on
// caches that hold the range, and let the queues the detail left settle.
// The last period is cut so that its
// sample ends the launch, and every skipped range is whole waves, so the
// run keeps the launch's last partial wave and its drain.
//
// A sample is measured by Little's law: with the chip's `wave` threadgroup
// slots always full, it completes wave / (mean time from a threadgroup's
// dispatch to its end) threadgroups per cycle. The mean duration does not
// depend on where the sample's first and last dispatch fall. A skipped
// range's cycles are its threadgroups times the cycles per threadgroup of
// the samples on either side. This is the interval sampling of SMARTS
// (Wunderlich et al., ISCA 2003: detail in periodic samples, functional
// warming between them), at the threadgroup-wave grain of TBPoint (Huang et
// al., IISWC 2014) and PKA (Avalos Baddouh et al., MICRO 2021): a kernel's
// threadgroups repeat the same work, so a few waves in detail stand for the
// rest.
//
// A range that waits for every threadgroup before it lets a threadgroup
// that waits on an earlier one (a scan's look-back) find it done; the plan's
// `early`, which the run sets from Workload::independent_threadgroups, is
// for kernels with no such waits. Two finished samples in a row whose
// cycles per threadgroup differ by more than the plan's tolerance mean the
// behaviour is changing: the next period runs whole in detail instead, and
// the run reports how often.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "sim/common/cycle.hpp"
#include "sim/timing/sampling_plan.hpp"

namespace agx {

// What a sampled run reports beside its figures.
struct SamplingEstimate {
    Cycle simulated_cycles = 0;   // the run's own cycles: warm-up, warm waves, samples
    double estimated_cycles = 0;  // simulated_cycles plus the skipped ranges' estimate
    // Half-width of a 95% interval around estimated_cycles; negative when
    // fewer than two samples leave no spread to judge it by.
    double error_bound_cycles = 0;
    std::uint32_t detailed_threadgroups = 0;
    std::uint32_t skipped_threadgroups = 0;
    std::uint32_t samples = 0;  // measured stretches of detail (the warm-up's included)
    // Periods run whole in detail because two samples disagreed.
    std::uint32_t behaviour_changes = 0;
    // Coefficient of variation of the samples' cycles per threadgroup.
    double spread = 0;
    // Each skipped range ran as soon as it was skipped (SamplingPlan::early).
    bool ranges_early = false;
    // Else why they waited (the run fills it in: the workload's reason, or
    // the plan's early=0).
    std::string ranges_wait_because;
};

class ThreadgroupSampler {
  public:
    // Runs threadgroups `first` to `last` (exclusive) with no timing.
    using SkipRunner = std::function<void(std::uint32_t first, std::uint32_t last)>;

    // `wave`: threadgroups the simulated cores hold at once.
    ThreadgroupSampler(const SamplingPlan& plan, std::uint32_t threadgroups, std::uint32_t wave,
                       SkipRunner run);

    // The dispatcher would hand out `candidate` at `now`: the threadgroup it
    // hands out instead (candidate, or the first after a skipped range; the
    // launch's threadgroup count when none is left).
    std::uint32_t next(std::uint32_t candidate, Cycle now);
    // Threadgroup `threadgroup`, run in detail, ended at `now`.
    void finished(std::uint32_t threadgroup, Cycle now);

    SamplingEstimate estimate(Cycle simulated_cycles) const;

    // One measured stretch of detail.
    struct Sample {
        std::uint32_t first = 0, count = 0;  // threadgroups measured
        std::uint32_t ended = 0;             // of them, those finished
        Cycle busy = 0;                      // their dispatch-to-end cycles, summed
        bool complete() const { return ended == count; }
    };
    const std::vector<Sample>& samples() const { return samples_; }
    // A sample's cycles per threadgroup: its mean duration over the wave.
    double cycles_per_threadgroup(const Sample& s) const {
        return s.ended ? static_cast<double>(s.busy) / s.ended / wave_ : 0.0;
    }

  private:
    struct Skipped {
        std::uint32_t first = 0, count = 0;
        std::size_t samples_before = 0;  // samples started when it was skipped
    };
    struct Pending {
        std::uint32_t first = 0, count = 0;
        std::uint64_t done_below = 0;  // threadgroups before `first` finished
    };

    // Threadgroups [first, first + length) in detail, measured from
    // `measure_from` on.
    void start_segment(std::uint32_t first, std::uint64_t length, std::uint32_t measure_from);
    std::uint32_t start_period(std::uint32_t candidate);
    bool changing();
    void run_ready();

    SamplingPlan plan_;
    std::uint32_t total_;
    std::uint32_t wave_;
    // The waves the plan counts: whole waves of at least plan_.min_wave
    // threadgroups.
    std::uint32_t unit_;
    SkipRunner run_;

    std::uint32_t end_ = 0;  // the stretch of detail under way ends before this threadgroup
    std::vector<Sample> samples_;
    // Dispatch cycle of each measured threadgroup in flight, and its sample.
    std::unordered_map<std::uint32_t, std::pair<Cycle, std::size_t>> in_flight_;
    std::vector<Skipped> skipped_;
    std::deque<Pending> pending_;
    std::uint64_t done_ = 0;  // threadgroups finished, in detail or not
    std::uint32_t changes_ = 0;
    std::size_t judged_ = 0;  // finished samples when changing() last compared two
};

}  // namespace agx
