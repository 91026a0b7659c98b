// From GPU time to the validation figure: statistics over trials, cycles at
// a clock, the figure per body per scheduler, the steady difference, which
// clock a dispatch's time comes from, and the chip table.
#include <catch2/catch.hpp>

#include <limits>

#include "validation/probe/chip_table.hpp"
#include "validation/probe/elapsed.hpp"
#include "validation/probe/figures.hpp"

using namespace agx::probe;

TEST_CASE("statistics: best, median, worst and the relative spread") {
    const auto s = statistics({1.04, 1.00, 1.10, 1.02});
    CHECK(s.best == 1.00);
    CHECK(s.worst == 1.10);
    CHECK(s.median == Approx(1.03));
    CHECK(s.spread == Approx(0.10));
    CHECK(statistics({2.0, 3.0, 1.0}).median == 2.0);
    CHECK(statistics({5.0}).spread == 0.0);
    CHECK_THROWS_AS(statistics({}), std::invalid_argument);
    CHECK_THROWS_AS(statistics({-1.0, 2.0}), std::invalid_argument);
}

TEST_CASE("cycles from time at the chip's clock") {
    CHECK(cycles_from_seconds(1e-3, 1.296) == Approx(1.296e6));
    CHECK(cycles_from_seconds(0.5, 1.398) == Approx(6.99e8));
}

TEST_CASE(
    "the figure: cycles x 4 / (repetitions x bodies x simds) over every simd the dispatch ran") {
    // FADD32 throughput on an M1 Max: 32 cores, 88 simds each, 250 waves, ILP
    // 4, 120 repetitions at one instruction per scheduler per cycle.
    Work w;
    w.repetitions = 120;
    w.bodies_per_repetition = 4;
    w.simds_per_core = 88.0 * 250;
    const double cycles = 120.0 * 4 * 88 * 250 / 4;  // every scheduler busy every cycle
    CHECK(figure_from_cycles(cycles, w) == Approx(1.0));
    // The same with the time a GPU at 1.296 GHz would take.
    CHECK(figure_from_cycles(cycles_from_seconds(cycles / 1.296e9, 1.296), w) == Approx(1.0));
    // FADD32 latency: 4 simds per core, one chain, ~3.9 cycles per add.
    Work lat{1440, 1, 4.0 * 250, 4};
    CHECK(figure_from_cycles(3.9 * 1440 * 250, lat) == Approx(3.9));
    CHECK_THROWS_AS(figure_from_cycles(1.0, Work{}), std::invalid_argument);
}

TEST_CASE("steady: the rate between 2N and N repetitions, where the fixed cost cancels") {
    Work w{120, 4, 88.0 * 250, 4};
    const double per_rep = 4.0 * 88 * 250 / 4;  // cycles per repetition at a figure of 1
    const double fixed = 5e6;
    CHECK(steady_figure(fixed + 120 * per_rep, fixed + 240 * per_rep, w) == Approx(1.0));
    CHECK(steady_figure(fixed + 120 * per_rep * 2.5, fixed + 240 * per_rep * 2.5, w) ==
          Approx(2.5));
}

TEST_CASE("elapsed: stage-boundary counters when real, else the command buffer") {
    DispatchTiming t;
    t.gpu_start = 100.0;
    t.gpu_end = 100.5;
    t.counter_start = 1'000'000;
    t.counter_end = 1'400'000;
    t.seconds_per_tick = 1e-6;
    auto e = elapsed(t);
    CHECK(e.seconds == Approx(0.4));
    CHECK(std::string(e.source) == "counters");

    SECTION("recent macOS: all-zero timestamps") {
        t.counter_start = t.counter_end = 0;
        e = elapsed(t);
        CHECK(e.seconds == Approx(0.5));
        CHECK(std::string(e.source) == "command_buffer");
    }
    SECTION("the error value (MTLCounterErrorValue)") {
        t.counter_end = std::numeric_limits<std::uint64_t>::max();
        CHECK(std::string(elapsed(t).source) == "command_buffer");
    }
    SECTION("no tick length known") {
        t.seconds_per_tick = 0;
        CHECK(std::string(elapsed(t).source) == "command_buffer");
    }
    SECTION("samples out of order") {
        std::swap(t.counter_start, t.counter_end);
        CHECK(std::string(elapsed(t).source) == "command_buffer");
    }
    SECTION("no time at all is an error") {
        t.counter_start = t.counter_end = 0;
        t.gpu_end = t.gpu_start;
        CHECK_THROWS_AS(elapsed(t), BackendError);
    }
}

TEST_CASE("elapsed: a run's one source, read from each dispatch") {
    DispatchTiming t;
    t.gpu_start = 100.0;
    t.gpu_end = 100.5;
    t.counter_start = 1'000'000;
    t.counter_end = 1'400'000;
    t.seconds_per_tick = 1e-6;
    CHECK(elapsed(t, TimingSource::Counters) == Approx(0.4));
    CHECK(elapsed(t, TimingSource::CommandBuffer) == Approx(0.5));
    CHECK(counter_seconds(t).problem.empty());
    CHECK(std::string(timing_source_name(TimingSource::Counters)) == "counters");

    SECTION("a resolve that failed: no counter time, and why") {
        t.counter_error = "[MTLCounterSampleBuffer resolveCounterRange:] returned nil";
        CHECK_FALSE(counter_seconds(t).seconds);
        CHECK(counter_seconds(t).problem == t.counter_error);
        CHECK_THROWS_WITH(elapsed(t, TimingSource::Counters), Catch::Contains("returned nil"));
        CHECK(elapsed(t, TimingSource::CommandBuffer) == Approx(0.5));
        CHECK(std::string(elapsed(t).source) == "command_buffer");
    }
    SECTION("zeros") {
        t.counter_start = t.counter_end = 0;
        CHECK(counter_seconds(t).problem.find("zero") != std::string::npos);
    }
    SECTION("no command buffer time") {
        t.gpu_end = t.gpu_start;
        CHECK_THROWS_AS(elapsed(t, TimingSource::CommandBuffer), BackendError);
        CHECK(elapsed(t, TimingSource::Counters) == Approx(0.4));
    }
}

TEST_CASE(
    "elapsed: the counters are trusted only within the stated tolerance of the command "
    "buffer") {
    // A 10 ms command buffer; the pass's counter time varies.
    DispatchTiming t;
    t.gpu_start = 100.0;
    t.gpu_end = 100.010;
    t.seconds_per_tick = 1e-9;
    t.counter_start = 1'000'000;
    auto with_pass = [&](double seconds) {
        t.counter_end = t.counter_start + static_cast<std::uint64_t>(seconds * 1e9 + 0.5);
        return cross_check(t);
    };
    CHECK(with_pass(0.00998).agree);  // 20 us of launch and retirement around the pass
    CHECK(with_pass(0.0100).agree);
    CHECK(with_pass(0.01 * (1 + kCounterExcess) - 1e-9).agree);
    CHECK_FALSE(with_pass(0.01 * (1 + 2 * kCounterExcess)).agree);  // longer than its buffer
    CHECK(with_pass(0.01 * (1 - kCounterGap) + 1e-9).agree);
    const CrossCheck half = with_pass(0.005);
    CHECK_FALSE(half.agree);
    CHECK(*half.counter_seconds == Approx(0.005));
    CHECK(half.command_buffer_seconds == Approx(0.010));
    CHECK(describe_disagreement(half) == "counters 5.0000 ms, command buffer 10.0000 ms");

    SECTION("a short dispatch: the absolute allowance") {
        t.gpu_end = 100.0004;  // 400 us; 10% is 40 us, less than kCounterGapSeconds
        CHECK(with_pass(0.0004 - kCounterGapSeconds + 1e-6).agree);
        CHECK_FALSE(with_pass(0.0004 - kCounterGapSeconds - 1e-5).agree);
    }
    SECTION("no counter time: no agreement, and why") {
        t.counter_end = 0;
        const CrossCheck c = cross_check(t);
        CHECK_FALSE(c.agree);
        CHECK_FALSE(c.counter_seconds);
        CHECK(c.problem.find("zero") != std::string::npos);
    }
    CHECK(counter_tolerance_text() ==
          "the counters' time may exceed the command buffer's by at most 0.1% and fall short of "
          "it by at most 10% of it or 100 us, whichever is larger");
}

TEST_CASE("chip table: config names from device names, clocks per chip") {
    CHECK(chip_from_device_name("Apple M1 Max") == "m1-max");
    CHECK(chip_from_device_name("Apple M1") == "m1");
    CHECK(chip_from_device_name("Apple A14 GPU") == "a14");
    CHECK(chip_from_device_name("Apple M2 Ultra") == "m2-ultra");
    CHECK(*clock_ghz_of_chip("m1") == 1.278);
    CHECK(*clock_ghz_of_chip("m1-pro") == 1.296);
    CHECK(*clock_ghz_of_chip("m1-max") == 1.296);
    CHECK(*clock_ghz_of_chip("m1-ultra") == 1.296);
    CHECK(*clock_ghz_of_chip("m2-max") == 1.398);
    CHECK(*clock_ghz_of_chip("a14") == 1.278);
    CHECK(*clock_ghz_of_chip("a15") == 1.338);
    CHECK_FALSE(clock_ghz_of_chip("m3-max"));
}
