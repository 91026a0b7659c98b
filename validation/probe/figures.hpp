// The arithmetic from GPU time to the validation figure, and the statistics
// over trials. Pure functions, tested on Linux.
#pragma once

#include <cstdint>
#include <vector>

namespace agx::probe {

struct Statistics {
    double best = 0;  // the smallest value: the run least disturbed
    double median = 0;
    double worst = 0;
    double spread = 0;  // (worst - best) / best
};
// Throws std::invalid_argument on an empty list or a non-positive best.
Statistics statistics(const std::vector<double>& values);

// GPU time at a clock, in cycles.
double cycles_from_seconds(double seconds, double clock_ghz);

// What one dispatch did, for the figure.
struct Work {
    std::uint32_t repetitions = 0;            // the definition's repetitions (N)
    std::uint32_t bodies_per_repetition = 1;  // the definition's ilp (1 for the vec4 shape)
    double simds_per_core = 0;  // simds that ran the body, per core, over the whole dispatch
    unsigned schedulers = 4;    // per core
};

// Cycles per body per scheduler: cycles x schedulers / (repetitions x bodies
// x simds), as validation/lib/runner.cpp's figure_from_cycles, where the
// simds are every simd the dispatch ran on a core (its ~250 waves), so the
// cycles are the dispatch's elapsed cycles.
double figure_from_cycles(double cycles, const Work& work);

// The steady method: the rate between runs of 2N and N repetitions, in which
// the fixed cost and the warm-up cancel. `work` describes the N run.
double steady_figure(double cycles_n, double cycles_2n, const Work& work);

}  // namespace agx::probe
