// Error statistics of simulated against measured figures, as simulator
// papers report them: mean absolute percentage error, its 90th percentile and
// maximum, and Pearson's correlation of the values.
#pragma once

#include <cstddef>
#include <vector>

#include <nlohmann/json.hpp>

namespace agx::validation {

struct ErrorStats {
    std::size_t count = 0;
    double mape_percent = 0.0;
    double p90_percent = 0.0;  // nearest-rank 90th percentile of |error|
    double max_percent = 0.0;
    double pearson_r = 0.0;  // of the values; 0 with fewer than two points or no spread
};

// Signed percentage error of one figure.
double percent_error(double simulated, double measured);

ErrorStats error_stats(const std::vector<double>& simulated, const std::vector<double>& measured);
nlohmann::json to_json(const ErrorStats& s);

}  // namespace agx::validation
