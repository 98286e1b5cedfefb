// SPDX-License-Identifier: MIT
// Reading runs side by side (MEASURING.md, lesson 1: change only the hardware; rules:
// speed-ups are ratios of stable means, with their interval). LibTorch-free header.
#pragma once

#include "devicebench/run_record.h"

#include <string>
#include <vector>

namespace devicebench {

// Workload fields in which two records differ, by name: "model", "batch size",
// "learning rate", "epochs", "data set" (variant or content hash), "training images",
// "test images", "precision", "workload". Empty: the runs are comparable (only the hardware,
// threads, seed or warm-up setting differ).
std::vector<std::string> workloadDifferences(const RunRecord &a, const RunRecord &b);

// Speed-up of `run` against `baseline`: baseline.stableMean / run.stableMean (> 1: faster).
// The interval is conservative: the ratio of the two 95% intervals' opposite ends
// [baseline.ciLow / run.ciHigh, baseline.ciHigh / run.ciLow]; NaN where an interval is unknown.
// An interval end at or below zero (few, scattered epochs) makes low 0 / high +infinity.
// No stable epochs in either summary: all three NaN.
struct SpeedUp {
    double ratio = 0.0;
    double low = 0.0;
    double high = 0.0;
};
SpeedUp speedUp(const Summary &baseline, const Summary &run);

// Largest |test loss difference| over the epochs both runs finished (matched by epoch number);
// NaN if none in common; +infinity when a test loss is NaN/inf in either run (diverged).
// Same config and seed on two devices should differ only by float rounding.
double maxTestLossDifference(const RunRecord &a, const RunRecord &b);

// Above this, maxTestLossDifference is shown as a warning: the runs did not compute the same
// thing (float rounding across devices stays orders of magnitude below it).
inline constexpr double kTestLossWarning = 1e-2;

// "Tesla T4 @ host-a", "CPU x8 @ laptop" (machineLabel of the record's fingerprint), with
// " (tuned)" appended for a workload other than "faithful", and " [synthetic]" for a run on
// synthetic data.
std::string runLabel(const RunRecord &record);

} // namespace devicebench
