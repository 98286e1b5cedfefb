// SPDX-License-Identifier: MIT
#include "devicebench/summary.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>

namespace devicebench {

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
    s.stddev = stable.size() > 1 ? std::sqrt(squares / (n - 1.0)) : 0.0;
    s.imagesPerSecond = s.stableMean > 0.0 ? imagesPerEpoch / s.stableMean : nan;
    return s;
}

Summary summarize(const std::vector<EpochResult> &epochs, int warmupEpochs,
                  double imagesPerEpoch) {
    std::vector<double> seconds;
    seconds.reserve(epochs.size());
    for (const auto &e : epochs) {
        seconds.push_back(e.seconds);
    }
    return summarize(seconds, warmupEpochs, imagesPerEpoch);
}

} // namespace devicebench
