// ThreadgroupSampler: which threadgroups run in detail, when the skipped
// ranges run, the estimate and its bound, and the plan's parser.
#include <catch2/catch.hpp>

#include <algorithm>
#include <utility>
#include <vector>

#include "sim/common/errors.hpp"
#include "sim/timing/threadgroup_sampler.hpp"

using namespace agx;

namespace {

// A chip holding `wave` threadgroups at once, each taking `cycles` from its
// dispatch to its end, dispatching as slots free. Drives the sampler as the
// source and the cores do; records the skipped ranges in the order they ran
// and, for each, how many threadgroups before it had finished by then.
struct FakeChip {
    std::uint32_t total, wave;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> ran;
    std::vector<std::uint64_t> finished_before_run;
    std::uint64_t finished = 0;
    std::uint64_t dispatched = 0;                      // threadgroups dispatched in detail so far
    std::vector<std::uint64_t> dispatched_before_run;  // per range run: `dispatched` then

    // Returns the simulated cycles: when the last detailed threadgroup ends.
    // `cycles_of(tg)` is each threadgroup's duration.
    template <class Duration>
    Cycle run(ThreadgroupSampler& sampler, Duration cycles_of) {
        struct Slot {
            Cycle end;
            std::uint32_t tg;
            bool busy;
        };
        std::vector<Slot> slots(wave, Slot{0, 0, false});
        std::uint32_t next = 0;
        Cycle now = 0, last_end = 0;
        for (;;) {
            // Free every slot whose threadgroup ended by now, then fill them.
            for (Slot& s : slots)
                if (s.busy && s.end <= now) {
                    s.busy = false;
                    ++finished;
                    sampler.finished(s.tg, now);
                }
            for (Slot& s : slots) {
                if (s.busy || next >= total) continue;
                next = sampler.next(next, now);
                if (next >= total) break;
                s = {now + cycles_of(next), next, true};
                ++dispatched;
                last_end = std::max(last_end, s.end);
                ++next;
            }
            bool any = false;
            Cycle soonest = ~0ull;
            for (const Slot& s : slots)
                if (s.busy) {
                    any = true;
                    soonest = std::min(soonest, s.end);
                }
            if (!any) return last_end;
            now = soonest;
        }
    }

    ThreadgroupSampler::SkipRunner runner() {
        return [this](std::uint32_t first, std::uint32_t last) {
            ran.emplace_back(first, last);
            finished_before_run.push_back(finished);
            dispatched_before_run.push_back(dispatched);
            finished += last - first;
        };
    }
};

}  // namespace

TEST_CASE("threadgroup sampler: a steady kernel is estimated exactly, with a bound of zero") {
    // 128 slots, 100 cycles per threadgroup: 1.28 threadgroups per cycle.
    FakeChip chip{4096, 128, {}, {}, 0, 0, {}};
    ThreadgroupSampler sampler(SamplingPlan{}, chip.total, chip.wave, chip.runner());
    const Cycle simulated = chip.run(sampler, [](std::uint32_t) { return Cycle{100}; });

    // A full run: 32 waves of 100 cycles.
    const SamplingEstimate e = sampler.estimate(simulated);
    CHECK(e.estimated_cycles == Approx(3200.0));
    CHECK(e.error_bound_cycles == Approx(0.0));
    CHECK(e.behaviour_changes == 0);
    // Warm-up (2 waves), then each period: 8 waves skipped, 1 in detail to
    // warm, 1 measured; the last period's sample ends the launch.
    REQUIRE(chip.ran.size() == 3);
    CHECK(chip.ran[0] == std::make_pair(256u, 1280u));
    CHECK(chip.ran[1] == std::make_pair(1536u, 2560u));
    CHECK(chip.ran[2] == std::make_pair(2816u, 3840u));
    REQUIRE(sampler.samples().size() == 4);
    CHECK(sampler.samples()[1].first == 1408u);
    CHECK(sampler.samples()[1].count == 128u);
    CHECK(sampler.samples().back().first == 3968u);
    for (const auto& s : sampler.samples())
        CHECK(sampler.cycles_per_threadgroup(s) == Approx(100.0 / 128));
    CHECK(e.detailed_threadgroups + e.skipped_threadgroups == 4096u);
    CHECK(e.detailed_threadgroups == 1024u);  // warm-up 256, then 128 + 128 in each of 3 periods
    // A skipped range runs once every threadgroup before it has finished.
    for (std::size_t i = 0; i < chip.ran.size(); ++i)
        CHECK(chip.finished_before_run[i] == chip.ran[i].first);
}

TEST_CASE(
    "threadgroup sampler: the warm waves keep a sample from running before the range skipped "
    "ahead of it has warmed the caches") {
    // A threadgroup dispatched while a skipped range below it has not run
    // finds the shared caches without the range's lines, and here takes 20%
    // less time (a streaming kernel pays no write-backs then). The range runs
    // once every threadgroup before it has finished; durations of 100-110
    // cycles stagger the ends, so that happens a wave into the detail after it.
    auto cycles_of = [](FakeChip& chip, std::uint32_t tg) {
        std::uint64_t ran = 0;
        for (const auto& r : chip.ran) ran += r.second - r.first;
        const bool cold = chip.dispatched + ran < tg;  // a range below tg has not run
        const Cycle c = 100 + tg * 37 % 11;
        return cold ? c * 4 / 5 : c;
    };
    auto run = [&](SamplingPlan plan) {
        FakeChip chip{4096, 128, {}, {}, 0, 0, {}};
        ThreadgroupSampler sampler(plan, chip.total, chip.wave, chip.runner());
        const Cycle simulated =
            chip.run(sampler, [&](std::uint32_t tg) { return cycles_of(chip, tg); });
        return sampler.estimate(simulated);
    };
    SamplingPlan whole;
    whole.warmup_waves = 32;  // the whole launch in detail: the truth
    const double truth = run(whole).estimated_cycles;
    REQUIRE(run(whole).skipped_threadgroups == 0);
    // Threadgroups not known to be independent: each range waits.
    SamplingPlan at_once, warmed;
    at_once.early = warmed.early = false;
    at_once.warm_waves = 0;
    warmed.warm_waves = 1;
    const double fast = run(at_once).estimated_cycles, estimate = run(warmed).estimated_cycles;
    INFO("truth " << truth << ", measured at once " << fast << ", after a warm wave " << estimate);
    CHECK(fast < truth * 0.95);  // 9% fast
    CHECK(estimate == Approx(truth).epsilon(0.02));
    // Independent ones: each range runs as it is skipped, before any
    // threadgroup after it, so even a sample that follows it at once is
    // measured on caches that hold it.
    SamplingPlan early;
    early.warm_waves = 0;
    REQUIRE(early.early);
    const double at_skip = run(early).estimated_cycles;
    INFO("ranges run when skipped, no warm wave: " << at_skip);
    CHECK(at_skip == Approx(truth).epsilon(0.02));
}

TEST_CASE(
    "threadgroup sampler: a range runs when skipped if the plan allows it, else once every "
    "threadgroup before it has finished") {
    // Durations of 100-110 cycles stagger the ends, so that when a range is
    // skipped some threadgroups before it are still running.
    for (const bool early : {true, false}) {
        FakeChip chip{4096, 128, {}, {}, 0, 0, {}};
        SamplingPlan plan;
        plan.early = early;
        ThreadgroupSampler sampler(plan, chip.total, chip.wave, chip.runner());
        const Cycle simulated =
            chip.run(sampler, [](std::uint32_t tg) { return Cycle{100 + tg * 37 % 11}; });
        const SamplingEstimate e = sampler.estimate(simulated);
        CHECK(e.ranges_early == early);
        REQUIRE(chip.ran.size() == 3);
        for (std::size_t i = 0; i < chip.ran.size(); ++i) {
            INFO("early " << early << ", range " << i);
            // The threadgroups below the range that ran in detail.
            std::uint64_t below = chip.ran[i].first;
            for (std::size_t j = 0; j < i; ++j) below -= chip.ran[j].second - chip.ran[j].first;
            if (early) {
                CHECK(chip.finished_before_run[i] < chip.ran[i].first);
                // Before any threadgroup after the range was dispatched.
                CHECK(chip.dispatched_before_run[i] == below);
            } else {
                CHECK(chip.finished_before_run[i] == chip.ran[i].first);
                CHECK(chip.dispatched_before_run[i] > below);  // the warm wave is under way
            }
        }
    }
}

TEST_CASE(
    "threadgroup sampler: samples that disagree run the next period in detail and widen "
    "the bound") {
    FakeChip chip{4096, 128, {}, {}, 0, 0, {}};
    SamplingPlan plan;
    ThreadgroupSampler sampler(plan, chip.total, chip.wave, chip.runner());
    // The second half of the launch takes twice as long per threadgroup.
    const Cycle simulated =
        chip.run(sampler, [](std::uint32_t tg) { return Cycle{tg < 2048 ? 100u : 200u}; });
    const SamplingEstimate e = sampler.estimate(simulated);
    CHECK(e.behaviour_changes >= 1);
    CHECK(e.error_bound_cycles > 0);
    // Truth: 16 waves of 100 cycles and 16 of 200.
    CHECK(std::abs(e.estimated_cycles - 4800.0) <= e.error_bound_cycles);
}

TEST_CASE("threadgroup sampler: a launch of fewer waves than the warm-up runs whole in detail") {
    FakeChip chip{200, 128, {}, {}, 0, 0, {}};
    ThreadgroupSampler sampler(SamplingPlan{}, chip.total, chip.wave, chip.runner());
    const Cycle simulated = chip.run(sampler, [](std::uint32_t) { return Cycle{100}; });
    const SamplingEstimate e = sampler.estimate(simulated);
    CHECK(chip.ran.empty());
    CHECK(e.skipped_threadgroups == 0);
    CHECK(e.estimated_cycles == Approx(static_cast<double>(simulated)));
    CHECK(e.error_bound_cycles == 0);
}

TEST_CASE("threadgroup sampler: a small wave is measured over at least 128 threadgroups") {
    // One core holding 12 threadgroups: the plan's wave is 132 of them.
    FakeChip chip{20000, 12, {}, {}, 0, 0, {}};
    ThreadgroupSampler sampler(SamplingPlan{}, chip.total, chip.wave, chip.runner());
    chip.run(sampler, [](std::uint32_t) { return Cycle{50}; });
    REQUIRE(!sampler.samples().empty());
    for (const auto& s : sampler.samples()) CHECK(s.count >= 120u);
    CHECK(chip.ran.at(0).first == 2 * 132u);
    for (const auto& r : chip.ran) CHECK((r.second - r.first) % 12 == 0);  // whole waves
    // The warm stretch is one of the chip's waves (12), not of the plan's
    // (132): the range waits about one threadgroup's time, in which the
    // core takes 12. The period stays 10 plan waves.
    REQUIRE(sampler.samples().size() >= 2);
    CHECK(sampler.samples()[1].first == chip.ran.at(0).second + 12);
    CHECK(chip.ran.at(0).second - chip.ran.at(0).first == 9 * 132u - 12);
}

TEST_CASE("sampling plan: keys, defaults and one-line errors") {
    const SamplingPlan d = parse_sampling_plan("", "--sample-plan");
    CHECK(d.warmup_waves == 2);
    CHECK(d.period_waves == 10);
    CHECK(d.sample_waves == 1);
    CHECK(d.warm_waves == 1);
    CHECK(d.early);
    CHECK_FALSE(parse_sampling_plan("early=0", "x").early);
    CHECK(parse_sampling_plan("early=1", "x").early);
    const SamplingPlan p = parse_sampling_plan("period=20,sample=2,warm=0,tolerance=0.05", "x");
    CHECK(p.period_waves == 20);
    CHECK(p.sample_waves == 2);
    CHECK(p.warm_waves == 0);
    CHECK(p.tolerance == Approx(0.05));
    CHECK(parse_sampling_plan("min_wave=1", "x").min_wave == 1);
    for (const char* bad :
         {"period", "period=0", "period=-1", "period=ten", "warmup=1", "sample=10", "sample=9",
          "warm=-1", "period=3,sample=1,warm=2", "tolerance=0", "tolerance=2", "colour=3",
          "min_wave=0", "early=2", "early=yes", "early="}) {
        INFO(bad);
        CHECK_THROWS_AS(parse_sampling_plan(bad, "--sample-plan"), InputError);
    }
}
