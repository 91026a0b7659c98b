// How a sampled run (`agxsim run --sample`) chooses the threadgroups it
// simulates in detail. Units are waves: as many threadgroups as the cores
// simulated hold at once (cores x threadgroups per core), or the fewest
// whole waves that make at least `min_wave` threadgroups.
#pragma once

#include <cstdint>
#include <string>

namespace agx {

struct SamplingPlan {
    // Waves simulated in detail from the launch's start: caches, queues and
    // residency reach their steady state in them. The first of them is not
    // measured (its threadgroups all start together, from cold caches).
    std::uint32_t warmup_waves = 2;
    // After the warm-up, one sample per period: the period's waves but the
    // warm stretch and `sample_waves` executed with no timing, then the warm
    // stretch in detail and not measured, then `sample_waves` in detail.
    std::uint32_t period_waves = 10;
    std::uint32_t sample_waves = 1;
    // Detailed warming (SMARTS's term): waves simulated before each sample
    // but not measured, in the chip's waves (the threadgroups the cores hold
    // at once, whatever min_wave). A skipped range's functional run, which
    // warms the L2 and SLC, waits (unless `early`) until every threadgroup
    // before it has finished, about one such wave into the detail that
    // follows; the warm waves cover it, so the sample is measured on caches
    // that hold the skipped range, as a full run's would, and the queues the
    // detail left settle in them. 0: the sample follows the range.
    std::uint32_t warm_waves = 1;
    // A skipped range of a kernel whose threadgroups are independent (none
    // reads what another writes: Workload::independent_threadgroups) runs as
    // soon as it is skipped, so its lines reach the L2 and SLC before those
    // of the threadgroups after it, as in a full run. Late, the range's lines
    // land on top of the warm stretch's: they evict its working set from the
    // L2, its misses for the range's lines go to DRAM, and a DRAM-bound
    // kernel carries that queue into the sample. false: every range waits
    // for the threadgroups before it.
    bool early = true;
    // Two samples in a row whose cycles per threadgroup differ by more than
    // this share mean the kernel's behaviour is changing: the next period
    // is simulated whole, in detail, instead of being skipped.
    double tolerance = 0.10;
    // A measured stretch starts and ends at a dispatch, each up to a gap
    // between dispatches (a threadgroup's time over the wave) from where the
    // steady rate would put it: over n threadgroups the rate is off by up to
    // about 2/n. So the plan's waves are whole waves of at least this many
    // threadgroups (2/128: under 2% per sample), however few threadgroups
    // the cores hold at once.
    std::uint32_t min_wave = 128;
};

// Parses `KEY=VALUE[,KEY=VALUE...]` with the keys warmup, period, sample,
// warm, early (0 or 1), tolerance and min_wave (an empty text: the
// defaults). Throws InputError naming `where` and the key on a bad key,
// value or combination.
SamplingPlan parse_sampling_plan(const std::string& text, const std::string& where);

}  // namespace agx
