// SPDX-License-Identifier: MIT
// The statistics the engine's intervals rest on (Student t on the log of the epoch times,
// docs/MEASURING.md), computed here independently of engine/core so that tests can check the
// engine against them.
#pragma once

#include <cmath>
#include <utility>
#include <vector>

namespace devicebench::testing {

// Mean and sample variance (n - 1) of the natural logs of `values` (at least 2, all > 0).
inline std::pair<double, double> logMeanAndVariance(const std::vector<double> &values) {
    double sum = 0.0;
    for (double v : values)
        sum += std::log(v);
    const double mean = sum / static_cast<double>(values.size());
    double squares = 0.0;
    for (double v : values)
        squares += (std::log(v) - mean) * (std::log(v) - mean);
    return {mean, squares / static_cast<double>(values.size() - 1)};
}

} // namespace devicebench::testing
