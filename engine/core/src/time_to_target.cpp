// SPDX-License-Identifier: MIT
#include "devicebench/time_to_target.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace devicebench {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// `value` with up to `decimals` decimals and no trailing zeros ("50", "93.5").
std::string trimmed(double value, int decimals) {
    char text[64];
    std::snprintf(text, sizeof text, "%.*f", decimals, value);
    std::string s = text;
    if (s.find('.') != std::string::npos) {
        while (s.back() == '0')
            s.pop_back();
        if (s.back() == '.')
            s.pop_back();
    }
    return s;
}

} // namespace

bool reachesTarget(double testAccuracy, double targetPercent) {
    // A test set's accuracy is correct / total: compared in percent with a margin far below one
    // image in a million, so that 0.94 reaches 94 although 0.94 * 100 rounds below it.
    return testAccuracy * 100.0 >= targetPercent - 1e-9;
}

TargetResult timeToTarget(const std::vector<EpochResult> &epochs,
                          const std::optional<double> &target) {
    TargetResult result;
    if (!target)
        return result;
    result.set = true;
    result.target = *target;
    result.epochs = static_cast<int>(epochs.size());
    result.seconds = kNaN;
    result.trainingSeconds = kNaN;
    double seconds = 0.0;
    double testSeconds = 0.0;
    for (const EpochResult &e : epochs) {
        seconds += e.seconds;
        testSeconds += e.testSeconds; // NaN from any epoch whose test time is unknown
        if (reachesTarget(e.testAccuracy, *target)) {
            result.reached = true;
            result.epoch = e.epoch;
            result.seconds = seconds;
            result.trainingSeconds = seconds - testSeconds;
            break;
        }
    }
    return result;
}

std::vector<AccuracyPoint> accuracyOverTime(const std::vector<EpochResult> &epochs) {
    std::vector<AccuracyPoint> points;
    double seconds = 0.0;
    for (const EpochResult &e : epochs) {
        seconds += e.seconds;
        if (!std::isnan(e.testAccuracy))
            points.push_back({e.epoch, seconds, e.testAccuracy * 100.0});
    }
    return points;
}

TargetScore scoreTimeToTarget(const std::vector<TargetResult> &runs) {
    TargetScore score;
    std::vector<double> times;
    score.min = score.max = kNaN;
    for (const TargetResult &r : runs) {
        if (!r.set)
            continue;
        ++score.runs;
        times.push_back(r.reached ? r.seconds : std::numeric_limits<double>::infinity());
        if (!r.reached)
            continue;
        ++score.reached;
        score.min = std::isnan(score.min) ? r.seconds : std::min(score.min, r.seconds);
        score.max = std::isnan(score.max) ? r.seconds : std::max(score.max, r.seconds);
    }
    if (times.empty()) {
        score.seconds = kNaN;
        return score;
    }
    std::sort(times.begin(), times.end());
    score.olympic = score.runs >= kOlympicScoringRuns;
    if (score.olympic) {
        double sum = 0.0;
        for (std::size_t i = 1; i + 1 < times.size(); ++i)
            sum += times[i]; // infinity when a kept run did not reach it
        score.seconds = sum / static_cast<double>(times.size() - 2);
    } else {
        const std::size_t n = times.size();
        score.seconds = n % 2 == 1 ? times[n / 2] : (times[n / 2 - 1] + times[n / 2]) / 2.0;
    }
    return score;
}

std::string describeScore(const TargetScore &s) {
    if (s.runs == 0)
        return "no run with the target";
    const std::string reached = std::to_string(s.reached) + " of " + std::to_string(s.runs) +
                                (s.runs == 1 ? " run" : " runs") + " reached it";
    if (std::isinf(s.seconds))
        return "not reached reliably (" + reached + ")";
    std::string text = trimmed(s.seconds, 1) + " s (" + reached;
    if (s.olympic)
        text += "; mean of " + std::to_string(s.runs - 2) +
                " after dropping the fastest and the slowest";
    else if (s.runs > 1)
        text += "; the median";
    if (s.reached > 1)
        text += ", " + trimmed(s.min, 1) + "-" + trimmed(s.max, 1) + " s";
    return text + ")";
}

std::string targetText(double targetPercent) { return trimmed(targetPercent, 2) + " %"; }

std::string describeTarget(const TargetResult &r) {
    if (!r.set)
        return {};
    if (!r.reached)
        return targetText(r.target) + " not reached in " + std::to_string(r.epochs) +
               (r.epochs == 1 ? " epoch" : " epochs");
    std::string line = targetText(r.target) + " reached in epoch " + std::to_string(r.epoch) +
                       ": " + trimmed(r.seconds, 1) + " s to target";
    if (!std::isnan(r.trainingSeconds))
        line += " (training alone " + trimmed(r.trainingSeconds, 1) + " s)";
    return line;
}

std::string targetAccuracyProblem(double target) {
    if (!std::isfinite(target))
        return "target accuracy must be a number (a test accuracy in percent)";
    if (target <= 0.0 || target > 100.0)
        return "target accuracy must be a test accuracy in percent, above 0 and at most 100 "
               "(got " +
               trimmed(target, 6) + ")";
    return {};
}

} // namespace devicebench
