#include "validation/lib/error_stats.hpp"

#include <algorithm>
#include <cmath>

#include <boost/accumulators/accumulators.hpp>
#include <boost/accumulators/statistics/covariance.hpp>
#include <boost/accumulators/statistics/max.hpp>
#include <boost/accumulators/statistics/mean.hpp>
#include <boost/accumulators/statistics/stats.hpp>
#include <boost/accumulators/statistics/variance.hpp>
#include <boost/accumulators/statistics/variates/covariate.hpp>

namespace agx::validation {

namespace acc = boost::accumulators;

double percent_error(double simulated, double measured) {
    return 100.0 * (simulated - measured) / measured;
}

ErrorStats error_stats(const std::vector<double>& simulated, const std::vector<double>& measured) {
    ErrorStats s;
    s.count = std::min(simulated.size(), measured.size());
    if (s.count == 0) return s;

    acc::accumulator_set<double, acc::stats<acc::tag::mean, acc::tag::max>> abs_err;
    acc::accumulator_set<
        double, acc::stats<acc::tag::variance, acc::tag::covariance<double, acc::tag::covariate1>>>
        sim;
    acc::accumulator_set<double, acc::stats<acc::tag::variance>> meas;
    std::vector<double> errors;
    errors.reserve(s.count);
    for (std::size_t i = 0; i < s.count; ++i) {
        const double e = std::fabs(percent_error(simulated[i], measured[i]));
        abs_err(e);
        errors.push_back(e);
        sim(simulated[i], acc::covariate1 = measured[i]);
        meas(measured[i]);
    }
    s.mape_percent = acc::mean(abs_err);
    s.max_percent = acc::max(abs_err);
    std::sort(errors.begin(), errors.end());
    const std::size_t rank =
        static_cast<std::size_t>(std::ceil(0.9 * static_cast<double>(errors.size())));
    s.p90_percent = errors[std::max<std::size_t>(rank, 1) - 1];
    const double denom = std::sqrt(acc::variance(sim) * acc::variance(meas));
    s.pearson_r = (s.count > 1 && denom > 0) ? acc::covariance(sim) / denom : 0.0;
    return s;
}

nlohmann::json to_json(const ErrorStats& s) {
    return {{"count", s.count},
            {"mape_percent", s.mape_percent},
            {"p90_percent", s.p90_percent},
            {"max_percent", s.max_percent},
            {"pearson_r", s.pearson_r}};
}

}  // namespace agx::validation
