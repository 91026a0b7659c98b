// The one place where integer cycles meet SystemC time. The core clock period
// is rounded to the kernel's time resolution (1 ps); every event happens on a
// whole cycle, so cycle = time / period exactly.
//
// The conversions run several times per memory request (each level's TLM
// call turns its cycle into an annotated delay and back), so a time's cycle
// is an integer quotient, exact: a multiply by the period's reciprocal, put
// right by one step. The kernel's cycle is kept between activations.
#pragma once

#include <cstdint>

#include <systemc>

#include "sim/common/cycle.hpp"

namespace agx {

struct CoreClock {
    const sc_core::sc_time period;
    const double ghz;

    explicit CoreClock(double ghz_)
        : period(static_cast<double>(static_cast<long>(1000.0 / ghz_ + 0.5)), sc_core::SC_PS),
          ghz(ghz_),
          period_value_(period.value() ? period.value() : 1),
          inverse_period_(1.0 / static_cast<double>(period_value_)) {}

    // The kernel's time in cycles. It changes only between activations,
    // so the last conversion is kept.
    Cycle now() const {
        const sc_dt::uint64 t = sc_core::sc_time_stamp().value();
        if (t != now_value_) {
            now_value_ = t;
            now_cycle_ = quotient(t);
        }
        return now_cycle_;
    }
    // The nearest whole cycle to `t` (half a cycle rounds up).
    Cycle cycles(const sc_core::sc_time& t) const {
        return quotient(t.value() + period_value_ / 2);
    }
    // sc_time's own product: inline, and exact below 2^53.
    sc_core::sc_time time(Cycle c) const { return period * static_cast<double>(c); }
    // A latency of another clock domain, in nanoseconds, as whole core cycles
    // (the nearest, at least one): the core sees it on its own clock edges.
    Cycle cycles_of_ns(double ns) const {
        const double c = ns * ghz + 0.5;
        return c < 1.0 ? 1 : static_cast<Cycle>(c);
    }
    // A rate of another clock domain, bytes per nanosecond, per core cycle.
    double bytes_per_cycle_of(double bytes_per_ns) const { return bytes_per_ns / ghz; }

  private:
    // floor(v / period): the reciprocal's estimate is off by at most one
    // either way for any v below 2^53 (a run would need 2^53 ps, over two
    // hours of simulated time, to go past it), and is put right.
    Cycle quotient(sc_dt::uint64 v) const {
        std::uint64_t q = static_cast<std::uint64_t>(static_cast<double>(v) * inverse_period_);
        if (q * period_value_ > v)
            --q;
        else if ((q + 1) * period_value_ <= v)
            ++q;
        return q;
    }

    const std::uint64_t period_value_;  // the period in the kernel's time unit
    const double inverse_period_;
    mutable sc_dt::uint64 now_value_ = ~sc_dt::uint64{0};
    mutable Cycle now_cycle_ = 0;
};

}  // namespace agx
