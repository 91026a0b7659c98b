// The one place where integer cycles meet SystemC time. The core clock period
// is rounded to the kernel's time resolution (1 ps); every event happens on a
// whole cycle, so cycle = time / period exactly.
#pragma once

#include <systemc>

#include "sim/common/cycle.hpp"

namespace agx {

struct CoreClock {
    sc_core::sc_time period;

    explicit CoreClock(double ghz)
        : period(static_cast<double>(static_cast<long>(1000.0 / ghz + 0.5)), sc_core::SC_PS) {}
    Cycle now() const { return static_cast<Cycle>(sc_core::sc_time_stamp() / period); }
    Cycle cycles(const sc_core::sc_time& t) const { return static_cast<Cycle>(t / period + 0.5); }
    sc_core::sc_time time(Cycle c) const { return period * static_cast<double>(c); }
};

}  // namespace agx
