// The one place where integer cycles meet SystemC time. The core clock period
// is rounded to the kernel's time resolution (1 ps); every event happens on a
// whole cycle, so cycle = time / period exactly.
#pragma once

#include <systemc>

#include "sim/common/cycle.hpp"

namespace agx {

struct CoreClock {
    sc_core::sc_time period;
    double ghz;

    explicit CoreClock(double ghz_)
        : period(static_cast<double>(static_cast<long>(1000.0 / ghz_ + 0.5)), sc_core::SC_PS),
          ghz(ghz_) {}
    Cycle now() const { return static_cast<Cycle>(sc_core::sc_time_stamp() / period); }
    Cycle cycles(const sc_core::sc_time& t) const { return static_cast<Cycle>(t / period + 0.5); }
    sc_core::sc_time time(Cycle c) const { return period * static_cast<double>(c); }
    // A latency of another clock domain, in nanoseconds, as whole core cycles
    // (the nearest, at least one): the core sees it on its own clock edges.
    Cycle cycles_of_ns(double ns) const {
        const double c = ns * ghz + 0.5;
        return c < 1.0 ? 1 : static_cast<Cycle>(c);
    }
    // A rate of another clock domain, bytes per nanosecond, per core cycle.
    double bytes_per_cycle_of(double bytes_per_ns) const { return bytes_per_ns / ghz; }
};

}  // namespace agx
