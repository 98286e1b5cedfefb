// SPDX-License-Identifier: MIT
#include "devicebench/machine_drift.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace devicebench {
namespace {

double noiseOf(const CanaryTime &canary) {
    return std::isfinite(canary.noise) && canary.noise > 0.0 ? canary.noise : 0.0;
}

std::string wholePercent(double fraction, bool sign) {
    const long percent = std::lround(100.0 * fraction);
    return (sign && percent >= 0 ? "+" : "") + std::to_string(percent) + " %";
}

std::string epochList(const std::vector<int> &epochs) {
    std::string list;
    for (int epoch : epochs)
        list += (list.empty() ? "" : ", ") + std::to_string(epoch);
    return list;
}

// The largest noise of the stable epochs' canaries.
double largestStableNoise(const std::vector<EpochResult> &epochs, int warmupEpochs) {
    double noise = 0.0;
    for (const EpochResult &e : epochs) {
        if (e.epoch > warmupEpochs && e.canary.measured && std::isfinite(e.canary.noise))
            noise = std::max(noise, e.canary.noise);
    }
    return noise;
}

} // namespace

double canaryChange(const CanaryTime &first, const CanaryTime &later) {
    if (!first.measured || !later.measured || !(first.seconds > 0.0) || !(later.seconds > 0.0))
        return std::numeric_limits<double>::quiet_NaN();
    return later.seconds / first.seconds - 1.0;
}

bool judgeSpeedChange(const CanaryTime &first, const CanaryTime &later, double change) {
    if (std::isnan(change))
        return false;
    return std::abs(change) > std::max(noiseOf(first), noiseOf(later)) + kCanaryMargin;
}

void markSpeedChange(const CanaryTime &first, EpochResult &epoch) {
    epoch.canaryChange = canaryChange(first, epoch.canary);
    epoch.speedChanged = judgeSpeedChange(first, epoch.canary, epoch.canaryChange);
}

std::string describeCanaryChange(double change) {
    return std::isnan(change) ? std::string() : "canary " + wholePercent(change, true);
}

std::vector<int> speedChangedStableEpochs(const std::vector<EpochResult> &epochs,
                                          int warmupEpochs) {
    std::vector<int> flagged;
    for (const EpochResult &e : epochs) {
        if (e.epoch > warmupEpochs && e.speedChanged)
            flagged.push_back(e.epoch);
    }
    return flagged;
}

double stableCanaryDrift(const std::vector<EpochResult> &epochs, int warmupEpochs) {
    double drift = std::numeric_limits<double>::quiet_NaN();
    for (const EpochResult &e : epochs) {
        if (e.epoch > warmupEpochs && !std::isnan(e.canaryChange) &&
            !(std::abs(e.canaryChange) <= std::abs(drift)))
            drift = e.canaryChange;
    }
    return drift;
}

std::string driftSummary(const std::vector<EpochResult> &epochs, int warmupEpochs) {
    const double drift = stableCanaryDrift(epochs, warmupEpochs);
    if (std::isnan(drift))
        return {};
    const std::vector<int> flagged = speedChangedStableEpochs(epochs, warmupEpochs);
    if (flagged.empty() && std::abs(drift) > kCanaryMargin)
        return "machine speed not judged: canary up to " + wholePercent(drift, true) +
               " over the stable epochs, within the canary's own noise (up to " +
               wholePercent(largestStableNoise(epochs, warmupEpochs), false) +
               "): the machine was busy or unsteady";
    if (flagged.empty())
        return "machine speed steady: canary within " + wholePercent(std::abs(drift), false) +
               " of the first over the stable epochs";
    const auto stable = std::count_if(epochs.begin(), epochs.end(),
                                      [&](const EpochResult &e) { return e.epoch > warmupEpochs; });
    return "machine speed changed: canary up to " + wholePercent(drift, true) +
           " over the stable epochs, " + std::to_string(flagged.size()) + " of " +
           std::to_string(stable) + " (" + epochList(flagged) +
           ") flagged; the stable mean mixes a faster and a slower machine: rerun on an idle "
           "machine before comparing";
}

} // namespace devicebench
