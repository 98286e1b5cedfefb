// SPDX-License-Identifier: MIT
// Time to accuracy, the measure of DAWNBench and MLPerf Training: how long a run took to reach a
// target test accuracy (RunConfig::targetAccuracy). MLPerf's rule: the wall time from the first
// training step to the end of the evaluation that reached the target, evaluations included,
// which is the sum of the epochs' seconds up to that epoch (each epoch is its training and its
// test pass, timed as one; the gaps between epochs are not the run's). docs/MEASURING.md,
// "Time to accuracy".
#pragma once

#include "devicebench/run_types.h"

#include <optional>
#include <string>
#include <vector>

namespace devicebench {

// The fewest epochs a run with a target may have as its budget.
inline constexpr int kMinTargetEpochs = 2;

// Whether `testAccuracy` (a fraction, 0..1) reaches `targetPercent` (percent). Exact for the
// fractions a test set's counts make (the comparison is in correct images, not in rounded
// percent); false for NaN.
bool reachesTarget(double testAccuracy, double targetPercent);

// A run's time to its target, from its finished epochs.
struct TargetResult {
    bool set = false;     // the run had a target; nothing below is meaningful otherwise
    double target = 0.0;  // percent
    bool reached = false; // an epoch's test accuracy reached it
    int epoch = 0;        // the first such epoch (from 1); 0 when not reached
    int epochs = 0;       // epochs run (when not reached: the budget spent, "not reached in N")
    double seconds = 0.0; // time to target: epochs 1..epoch, training and evaluation; NaN
                          // when not reached
    double trainingSeconds = 0.0; // the same without the evaluations; NaN when not reached or
                                  // when an epoch's test time is unknown
};

// The time to `target` of `epochs` (in order, from epoch 1). `set` false without a target.
TargetResult timeToTarget(const std::vector<EpochResult> &epochs,
                          const std::optional<double> &target);

// Repeated runs with one target scored as MLPerf Training scores them: from
// kOlympicScoringRuns runs up, the mean after dropping the fastest and the slowest; below, the
// median. A run that did not reach the target counts as infinitely slow, so one such run is
// dropped as the slowest, and more make the score infinite ("not reached reliably").
inline constexpr int kOlympicScoringRuns = 5;
struct TargetScore {
    int runs = 0;         // runs with the target
    int reached = 0;      // of them, the runs that reached it
    bool olympic = false; // true: the trimmed mean; false: the median
    double seconds = 0.0; // the score; +infinity when not reached reliably; NaN without runs
    double min = 0.0;     // the fastest and slowest time to target of the runs that reached
    double max = 0.0;     // it; NaN when none did
};

// The score of `runs` (their times to one target, any order; `set` false ones are left out).
TargetScore scoreTimeToTarget(const std::vector<TargetResult> &runs);

// "312.4 s (5 runs, all reached it; mean of 3 after dropping the fastest and the slowest,
// 298.1-330.2 s)", "not reached reliably (2 of 5 runs reached it)".
std::string describeScore(const TargetScore &score);

// "50 %": a target as the program writes it (up to two decimals, no trailing zeros).
std::string targetText(double targetPercent);

// One line for people: "50 % reached in epoch 7: 312.4 s to target (training alone 290.1 s)",
// "50 % not reached in 10 epochs"; "" without a target.
std::string describeTarget(const TargetResult &result);

// A run's test accuracy over its wall-clock time, the plot time to accuracy is read from: after
// epoch `epoch`, `seconds` from the first training step (the epochs' seconds summed, their
// evaluations included: the clock of timeToTarget) and the test accuracy in percent.
struct AccuracyPoint {
    int epoch = 0;
    double seconds = 0.0;
    double accuracy = 0.0; // percent
};

// The points of `epochs` (in order, from epoch 1); an epoch without a test accuracy (NaN: a
// script that did not report one) adds its seconds to the clock but no point.
std::vector<AccuracyPoint> accuracyOverTime(const std::vector<EpochResult> &epochs);

// Why `target` cannot be a run's target (not a number, at most 0, over 100), naming the value;
// "" when it can.
std::string targetAccuracyProblem(double target);

} // namespace devicebench
