// SPDX-License-Identifier: MIT
// Did the machine change speed under a run? The canary (CanaryTime, run_types.h) of every epoch
// held against the run's first, by one rule; and the texts the front ends show. The rule, its
// margin and the measurements behind them: docs/MEASURING.md, "A machine that changes speed".
// Plain C++.
#pragma once

#include "devicebench/run_types.h"

#include <string>
#include <vector>

namespace devicebench {

// A canary that differs from the one it is held against by more than both canaries' noise
// (the larger of the two) plus this fraction means the machine's speed changed. Over twice the
// largest change measured between canaries of a steady machine (4 %: docs/PERFORMANCE.md, "The
// canary"), half the 22 % drift that made the rule necessary.
inline constexpr double kCanaryMargin = 0.10;

// later.seconds / first.seconds - 1 (+0.22: 22 % slower); NaN when either is not measured or
// not above 0 s.
double canaryChange(const CanaryTime &first, const CanaryTime &later);

// Whether |change| exceeds max(first.noise, later.noise) + kCanaryMargin (a NaN noise counts
// as 0); false when the change is NaN.
bool judgeSpeedChange(const CanaryTime &first, const CanaryTime &later, double change);

// The epoch's canaryChange and speedChanged set from the run's first canary.
void markSpeedChange(const CanaryTime &first, EpochResult &epoch);

// "canary +22 %", "canary -9 %" (rounded to whole percent); "" when NaN.
std::string describeCanaryChange(double change);

// The epoch numbers (from 1) of the stable epochs (epoch > warmupEpochs) flagged speedChanged,
// in order.
std::vector<int> speedChangedStableEpochs(const std::vector<EpochResult> &epochs, int warmupEpochs);

// Over the stable epochs with a canary: the canaryChange furthest from 0 (signed); NaN when none
// has one.
double stableCanaryDrift(const std::vector<EpochResult> &epochs, int warmupEpochs);

// The summary's line: "machine speed steady: canary within 2 % of the first over the stable
// epochs"; "machine speed changed: canary up to +22 % over the stable epochs, 3 of 8 (5, 6, 7)
// flagged; the stable mean mixes a faster and a slower machine: rerun on an idle machine before
// comparing"; or, when the canary moved beyond kCanaryMargin but within its own noise,
// "machine speed not judged: ..."; "" when no stable epoch has a canary.
std::string driftSummary(const std::vector<EpochResult> &epochs, int warmupEpochs);

} // namespace devicebench
