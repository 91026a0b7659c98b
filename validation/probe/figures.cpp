#include "validation/probe/figures.hpp"

#include <algorithm>
#include <stdexcept>

namespace agx::probe {

Statistics statistics(const std::vector<double>& values) {
    if (values.empty()) throw std::invalid_argument("statistics of no values");
    std::vector<double> v = values;
    std::sort(v.begin(), v.end());
    Statistics s;
    s.best = v.front();
    s.worst = v.back();
    const std::size_t n = v.size();
    s.median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    if (s.best <= 0) throw std::invalid_argument("statistics: the best value is not positive");
    s.spread = (s.worst - s.best) / s.best;
    return s;
}

double cycles_from_seconds(double seconds, double clock_ghz) {
    return seconds * clock_ghz * 1e9;
}

double figure_from_cycles(double cycles, const Work& work) {
    if (work.repetitions == 0 || work.bodies_per_repetition == 0 || work.simds_per_core <= 0)
        throw std::invalid_argument("figure: no work");
    return cycles * work.schedulers /
           (static_cast<double>(work.repetitions) * work.bodies_per_repetition *
            work.simds_per_core);
}

double steady_figure(double cycles_n, double cycles_2n, const Work& work) {
    return figure_from_cycles(cycles_2n - cycles_n, work);
}

}  // namespace agx::probe
