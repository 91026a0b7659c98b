#include "sim/timing/threadgroup_sampler.hpp"

#include <algorithm>
#include <cmath>

namespace agx {

namespace {

// Student's t at 97.5% for `dof` degrees of freedom: a 95% two-sided
// interval from a handful of samples.
double student_t95(std::size_t dof) {
    static const double table[] = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365,
                                   2.306,  2.262, 2.228, 2.201, 2.179, 2.160, 2.145,
                                   2.131,  2.120, 2.110, 2.101, 2.093, 2.086};
    if (dof == 0) return 0;
    if (dof <= sizeof(table) / sizeof(table[0])) return table[dof - 1];
    return dof < 30 ? 2.05 : 1.96;
}

}  // namespace

ThreadgroupSampler::ThreadgroupSampler(const SamplingPlan& plan, std::uint32_t threadgroups,
                                       std::uint32_t wave, SkipRunner run)
    : plan_(plan),
      total_(threadgroups),
      wave_(std::max(1u, wave)),
      unit_(wave_ * ((std::max(1u, plan.min_wave) + wave_ - 1) / wave_)),
      run_(std::move(run)) {
    // The first wave starts together from cold caches, with the slots
    // filling one a cycle: it runs but is not measured.
    start_segment(0, std::uint64_t{plan.warmup_waves} * unit_, wave_);
}

void ThreadgroupSampler::start_segment(std::uint32_t first, std::uint64_t length,
                                       std::uint32_t measure_from) {
    end_ = static_cast<std::uint32_t>(std::min<std::uint64_t>(total_, first + length));
    if (measure_from < end_) samples_.push_back({measure_from, end_ - measure_from, 0, 0});
}

// The two newest finished samples disagree, and no period has yet been run
// in detail for that.
bool ThreadgroupSampler::changing() {
    std::size_t newest = samples_.size();
    while (newest > 0 && !samples_[newest - 1].complete()) --newest;
    if (newest < 2 || newest <= judged_) return false;
    judged_ = newest;
    const double a = cycles_per_threadgroup(samples_[newest - 2]);
    const double b = cycles_per_threadgroup(samples_[newest - 1]);
    return a > 0 && std::fabs(b - a) / a > plan_.tolerance;
}

std::uint32_t ThreadgroupSampler::next(std::uint32_t candidate, Cycle now) {
    std::uint32_t chosen = candidate;
    if (candidate >= end_ && candidate < total_) chosen = start_period(candidate);
    if (!samples_.empty() && chosen < total_) {
        const Sample& s = samples_.back();
        if (chosen >= s.first && chosen - s.first < s.count)
            in_flight_[chosen] = {now, samples_.size() - 1};
    }
    return chosen;
}

// Every threadgroup of the stretch under way is dispatched: the next
// period, a skipped range and a sample, or a period in detail.
std::uint32_t ThreadgroupSampler::start_period(std::uint32_t candidate) {
    const std::uint64_t remaining = total_ - candidate;
    if (changing()) {
        ++changes_;
        start_segment(candidate, std::uint64_t{plan_.period_waves} * unit_, candidate);
        return candidate;
    }
    const std::uint64_t sample = std::uint64_t{plan_.sample_waves} * unit_;
    // The warm stretch covers the time a range that waits for the
    // threadgroups before it waits: about one threadgroup's duration, in
    // which the cores take one wave of the chip's (not the plan's, which
    // min_wave may round up). A range run early needs it less; the queues
    // and the L2 the detail left settle in it.
    const std::uint64_t warm = std::uint64_t{plan_.warm_waves} * wave_;
    // Whole waves only: the threadgroups after the range fill the slots as
    // the range's would have.
    const std::uint64_t skip =
        remaining > warm + sample
            ? std::min<std::uint64_t>(
                  std::uint64_t{plan_.period_waves - plan_.sample_waves} * unit_ - warm,
                  (remaining - warm - sample) / wave_ * wave_)
            : 0;
    if (skip == 0) {  // too few left to skip: the rest in detail
        start_segment(candidate, remaining, candidate);
        return candidate;
    }
    skipped_.push_back({candidate, static_cast<std::uint32_t>(skip), samples_.size()});
    // Independent threadgroups (plan_.early): the range runs now, before any
    // threadgroup after it; else once every threadgroup before it is done.
    pending_.push_back({candidate, static_cast<std::uint32_t>(skip),
                        plan_.early ? std::uint64_t{candidate} : done_});
    const std::uint32_t first = candidate + static_cast<std::uint32_t>(skip);
    // The warm waves run in detail, unmeasured, and the sample after them is
    // measured. A sample that would leave less than another sample after it
    // takes the rest of the launch: the last period ends with its sample.
    const std::uint64_t left = remaining - skip;  // at least warm + sample
    start_segment(first, left < warm + 2 * sample ? left : warm + sample,
                  first + static_cast<std::uint32_t>(warm));
    run_ready();
    return first;
}

void ThreadgroupSampler::finished(std::uint32_t threadgroup, Cycle now) {
    ++done_;
    const auto it = in_flight_.find(threadgroup);
    if (it != in_flight_.end()) {
        Sample& s = samples_[it->second.second];
        s.busy += now - it->second.first;
        ++s.ended;
        in_flight_.erase(it);
    }
    for (Pending& p : pending_)
        if (threadgroup < p.first) ++p.done_below;
    run_ready();
}

// A skipped range runs once every threadgroup before it has finished (an
// early one is queued as if they had: done_below = first); its
// threadgroups then count as finished for the ranges after it.
void ThreadgroupSampler::run_ready() {
    while (!pending_.empty() && pending_.front().done_below >= pending_.front().first) {
        const Pending p = pending_.front();
        pending_.pop_front();
        run_(p.first, p.first + p.count);
        done_ += p.count;
        for (Pending& later : pending_) later.done_below += p.count;
    }
}

SamplingEstimate ThreadgroupSampler::estimate(Cycle simulated_cycles) const {
    SamplingEstimate e;
    e.simulated_cycles = simulated_cycles;
    e.estimated_cycles = static_cast<double>(simulated_cycles);
    e.samples = static_cast<std::uint32_t>(samples_.size());
    e.behaviour_changes = changes_;
    e.ranges_early = plan_.early;

    std::vector<double> c;  // each sample's cycles per threadgroup
    for (const Sample& s : samples_) c.push_back(cycles_per_threadgroup(s));
    double mean = 0, var = 0;
    for (const double v : c) mean += v;
    if (!c.empty()) mean /= static_cast<double>(c.size());
    for (const double v : c) var += (v - mean) * (v - mean);
    if (c.size() >= 2) var /= static_cast<double>(c.size() - 1);
    e.spread = mean > 0 ? std::sqrt(var) / mean : 0;

    // Each skipped range at the mean of the samples on either side of it;
    // their disagreement is part of the bound.
    double interpolation = 0;
    std::uint64_t skipped = 0;
    for (const Skipped& k : skipped_) {
        const double after = k.samples_before < c.size() ? c[k.samples_before] : c.back();
        const double before = k.samples_before > 0 ? c[k.samples_before - 1] : after;
        e.estimated_cycles += k.count * (before + after) / 2;
        interpolation += k.count * std::fabs(after - before) / 2;
        skipped += k.count;
    }
    e.skipped_threadgroups = static_cast<std::uint32_t>(skipped);
    e.detailed_threadgroups = total_ - e.skipped_threadgroups;
    if (skipped == 0)
        e.error_bound_cycles = 0;
    else if (samples_.size() < 2)
        e.error_bound_cycles = -1;
    else
        e.error_bound_cycles =
            student_t95(samples_.size() - 1) * std::sqrt(var / samples_.size()) * skipped +
            interpolation;
    return e;
}

}  // namespace agx
