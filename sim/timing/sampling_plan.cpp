#include "sim/timing/sampling_plan.hpp"

#include <cstdlib>
#include <sstream>

#include "sim/common/errors.hpp"

namespace agx {

namespace {

std::uint32_t waves_value(const std::string& where, const std::string& key,
                          const std::string& value, unsigned least = 1) {
    const bool digits = !value.empty() && value.size() <= 6 &&
                        value.find_first_not_of("0123456789") == std::string::npos;
    const unsigned long n = digits ? std::strtoul(value.c_str(), nullptr, 10) : 0;
    if (!digits || n < least || n > 100000)
        throw InputError(where, key + "='" + value + "' is not a count from " +
                                    std::to_string(least) + " to 100000");
    return static_cast<std::uint32_t>(n);
}

constexpr const char* kKeys = "keys: warmup, period, sample, warm, early, tolerance, min_wave";

}  // namespace

SamplingPlan parse_sampling_plan(const std::string& text, const std::string& where) {
    SamplingPlan plan;
    std::istringstream in(text);
    std::string item;
    while (std::getline(in, item, ',')) {
        const std::size_t eq = item.find('=');
        if (eq == std::string::npos)
            throw InputError(where, "'" + item + "' is not KEY=VALUE (" + kKeys + ")");
        const std::string key = item.substr(0, eq), value = item.substr(eq + 1);
        if (key == "warmup")
            plan.warmup_waves = waves_value(where, key, value);
        else if (key == "period")
            plan.period_waves = waves_value(where, key, value);
        else if (key == "sample")
            plan.sample_waves = waves_value(where, key, value);
        else if (key == "warm")
            plan.warm_waves = waves_value(where, key, value, 0);
        else if (key == "early") {
            if (value != "0" && value != "1")
                throw InputError(where, "early='" + value + "' is not 0 or 1");
            plan.early = value == "1";
        } else if (key == "min_wave")
            plan.min_wave = waves_value(where, key, value);
        else if (key == "tolerance") {
            char* end = nullptr;
            const double t = std::strtod(value.c_str(), &end);
            if (value.empty() || *end != '\0' || !(t > 0.0 && t <= 1.0))
                throw InputError(where,
                                 "tolerance='" + value + "' is not a share above 0 and at most 1");
            plan.tolerance = t;
        } else
            throw InputError(where, "unknown key '" + key + "' (" + kKeys + ")");
    }
    if (plan.warmup_waves < 2)
        throw InputError(where, "warmup=" + std::to_string(plan.warmup_waves) +
                                    " leaves no wave to measure: the first is not (at least 2)");
    if (std::uint64_t{plan.sample_waves} + plan.warm_waves >= plan.period_waves)
        throw InputError(where, "sample=" + std::to_string(plan.sample_waves) +
                                    " and warm=" + std::to_string(plan.warm_waves) +
                                    " must add up to less than period=" +
                                    std::to_string(plan.period_waves) + ", or nothing is skipped");
    return plan;
}

}  // namespace agx
