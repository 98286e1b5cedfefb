// SPDX-License-Identifier: MIT
#include "devicebench/summary.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>

namespace devicebench {

double studentT975(int degreesOfFreedom) {
    // Two-sided 95% quantiles t(0.975, df) for df = 1..30 (standard tables, e.g. NIST/SEMATECH
    // e-Handbook 1.3.6.7.2); above 30 the Cornish-Fisher expansion around z = 1.959964 is
    // accurate to 1e-4.
    static constexpr double table[] = {
        12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060, 2.2622, 2.2281,
        2.2010,  2.1788, 2.1604, 2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.0930, 2.0860,
        2.0796,  2.0739, 2.0687, 2.0639, 2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423};
    if (degreesOfFreedom < 1) {
        return std::numeric_limits<double>::quiet_NaN();
    }
    if (degreesOfFreedom <= 30) {
        return table[degreesOfFreedom - 1];
    }
    const double z = 1.959964;
    const double n = degreesOfFreedom;
    const double z3 = z * z * z, z5 = z3 * z * z;
    return z + (z3 + z) / (4 * n) + (5 * z5 + 16 * z3 + 3 * z) / (96 * n * n);
}

double median(std::vector<double> values) {
    if (values.empty()) {
        return std::numeric_limits<double>::quiet_NaN();
    }
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
}

Summary summarize(const std::vector<double> &epochSeconds, int warmupEpochs,
                  double imagesPerEpoch) {
    if (warmupEpochs < 0) {
        throw std::invalid_argument("warm-up epochs must not be negative (got " +
                                    std::to_string(warmupEpochs) + ")");
    }
    constexpr double nan = std::numeric_limits<double>::quiet_NaN();
    Summary s;
    s.epochSeconds = epochSeconds;
    s.warmupEpochs = warmupEpochs;
    s.meanAll = epochSeconds.empty()
                    ? nan
                    : std::accumulate(epochSeconds.begin(), epochSeconds.end(), 0.0) /
                          static_cast<double>(epochSeconds.size());
    const auto skip = static_cast<std::size_t>(warmupEpochs);
    if (epochSeconds.size() <= skip) {
        s.hasStable = false;
        s.stableMean = s.median = s.stddev = s.imagesPerSecond = nan;
        s.min = s.max = s.cv = s.ciLow = s.ciHigh = s.logMean = s.logStddev = nan;
        return s;
    }
    const std::vector<double> stable(epochSeconds.begin() + static_cast<std::ptrdiff_t>(skip),
                                     epochSeconds.end());
    const auto n = static_cast<double>(stable.size());
    s.hasStable = true;
    s.stableMean = std::accumulate(stable.begin(), stable.end(), 0.0) / n;
    s.median = median(stable);
    double squares = 0.0;
    for (double v : stable) {
        squares += (v - s.stableMean) * (v - s.stableMean);
    }
    s.stddev = stable.size() > 1 ? std::sqrt(squares / (n - 1.0)) : nan; // undefined for n = 1
    s.imagesPerSecond = s.stableMean > 0.0 ? imagesPerEpoch / s.stableMean : nan;
    s.stableCount = static_cast<int>(stable.size());
    s.min = *std::min_element(stable.begin(), stable.end());
    s.max = *std::max_element(stable.begin(), stable.end());
    s.cv = s.stableMean > 0.0 ? s.stddev / s.stableMean : nan;
    // The interval on the logarithm of the times, back-transformed: never below 0 s.
    s.logMean = s.logStddev = s.ciLow = s.ciHigh = nan;
    const bool positive = std::all_of(stable.begin(), stable.end(),
                                      [](double v) { return std::isfinite(v) && v > 0.0; });
    if (positive) {
        double logSum = 0.0;
        for (double v : stable) {
            logSum += std::log(v);
        }
        s.logMean = logSum / n;
        if (stable.size() > 1) {
            double logSquares = 0.0;
            for (double v : stable) {
                logSquares += (std::log(v) - s.logMean) * (std::log(v) - s.logMean);
            }
            s.logStddev = std::sqrt(logSquares / (n - 1.0));
            const double half = studentT975(s.stableCount - 1) * s.logStddev / std::sqrt(n);
            s.ciLow = std::exp(s.logMean - half);
            s.ciHigh = std::exp(s.logMean + half);
        }
    }
    return s;
}

Summary summarize(const std::vector<EpochResult> &epochs, int warmupEpochs, double imagesPerEpoch) {
    std::vector<double> seconds;
    seconds.reserve(epochs.size());
    for (const auto &e : epochs) {
        seconds.push_back(e.seconds);
    }
    return summarize(seconds, warmupEpochs, imagesPerEpoch);
}

} // namespace devicebench
