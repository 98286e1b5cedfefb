// SPDX-License-Identifier: MIT
#include "cli_phases.h"
#include "cli_support.h"

#include "devicebench/phase_summary.h"
#include "devicebench/run_set.h"

#include <cmath>
#include <cstddef>
#include <ostream>

namespace devicebench::cli {

std::string epochPhasesText(const EpochResult &epoch) {
    return epoch.phases.measured ? "  phases: " + phaseSplitText(epoch.phases) : std::string();
}

void printWhereTheTimeGoes(std::ostream &out, const RunOutcome &outcome, const RunConfig &config) {
    if (!config.phases)
        return;
    int count = 0;
    const PhaseTimes mean = stablePhaseMean(outcome.epochs, config.warmupEpochs, &count);
    if (!mean.measured) {
        out << "  where the time goes: no stable epoch was phase-timed\n";
        return;
    }
    out << "  where the time goes (mean of " << count
        << (count == 1 ? " stable epoch" : " stable epochs") << ", phase-timed):\n    ";
    const auto fractions = phaseFractions(mean);
    for (std::size_t i = 0; i < kPhaseCount; ++i) {
        const PhaseField &f = phaseFields()[i];
        out << (i == 0 ? "" : ", ") << f.name << " " << fixed(mean.*f.seconds, 3) << " s ("
            << fixed(100.0 * fractions[i], 1) << "%)";
    }
    out << "; sum " << fixed(mean.total(), 3) << " s\n";
}

void printPhaseSplits(std::ostream &out, const RunSet &runs) {
    bool header = false;
    for (const RunEntry &run : runs.runs()) {
        if (!run.record.config.phases)
            continue;
        if (!header)
            out << "where the time goes (phase-timed runs, mean per stable epoch):\n";
        header = true;
        const PhaseTimes mean = stablePhaseMean(run.record.epochs, run.warmupEpochs);
        out << "  #" << run.number << " "
            << (mean.measured ? phaseSplitText(mean) + " (" + fixed(mean.total(), 3) + " s)"
                              : std::string("no phase-timed stable epoch"))
            << "\n";
    }
}

} // namespace devicebench::cli
