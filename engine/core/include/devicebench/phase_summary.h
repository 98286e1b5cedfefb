// SPDX-License-Identifier: MIT
// Where a phase-timed run's time goes (RunConfig::phases, PhaseTimes): the six phases by name,
// their mean over the stable epochs, and the split as text, for the CSV, the CLI and the
// dashboard's phase chart. Plain C++.
#pragma once

#include "devicebench/run_types.h"

#include <array>
#include <cstddef>
#include <string>
#include <vector>

namespace devicebench {

// One phase of PhaseTimes: its name (the record's key, "data" ... "test") and its member.
struct PhaseField {
    const char *name;
    double PhaseTimes::*seconds;
};
inline constexpr std::size_t kPhaseCount = 6;
// The six phases in the order of a step (then the test pass).
const std::array<PhaseField, kPhaseCount> &phaseFields();

// Mean seconds per epoch of each phase over the phase-timed stable epochs; `measured` false
// (every phase 0) when there is none. *count (when not null): the epochs averaged. Negative
// warmupEpochs count as 0.
PhaseTimes stablePhaseMean(const std::vector<EpochResult> &epochs, int warmupEpochs,
                           int *count = nullptr);

// Each phase's share of `phases.total()` (0..1), in phaseFields() order; all NaN when the
// phases were not measured or their total is not above 0.
std::array<double, kPhaseCount> phaseFractions(const PhaseTimes &phases);

// "data 4% forward 31% loss 1% backward 52% optimizer 6% test 6%": each share rounded to a
// whole percent ("<1%" for a share above 0 that rounds to 0); "" when not measured.
std::string phaseSplitText(const PhaseTimes &phases);

} // namespace devicebench
