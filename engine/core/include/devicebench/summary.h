// SPDX-License-Identifier: MIT
// Summary statistics of a run's epoch times, in seconds. Every epoch is kept; the first
// `warmupEpochs` are left out of the headline, the stable mean (docs/MEASURING.md).
#pragma once

#include "devicebench/run_types.h"

#include <vector>

namespace devicebench {

// `epochSeconds`: every epoch's seconds, warm-up included; `imagesPerEpoch`: training + test
// images, for Summary::imagesPerSecond. Without a stable epoch the stable statistics are NaN
// and hasStable false. Throws std::invalid_argument when warmupEpochs < 0.
Summary summarize(const std::vector<double> &epochSeconds, int warmupEpochs, double imagesPerEpoch);

// The same over finished epochs' `seconds`.
Summary summarize(const std::vector<EpochResult> &epochs, int warmupEpochs, double imagesPerEpoch);

// Two-sided 95% Student t quantile t(0.975, df); NaN for df < 1. (Tables for df <= 30, a
// Cornish-Fisher expansion above.)
double studentT975(int degreesOfFreedom);

// Median of `values` (mean of the two middle values for an even count); NaN when empty.
double median(std::vector<double> values);

} // namespace devicebench
