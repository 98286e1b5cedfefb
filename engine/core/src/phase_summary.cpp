// SPDX-License-Identifier: MIT
#include "devicebench/phase_summary.h"

#include <cmath>
#include <cstddef>
#include <limits>

namespace devicebench {

const std::array<PhaseField, kPhaseCount> &phaseFields() {
    static const std::array<PhaseField, kPhaseCount> fields = {{
        {"data", &PhaseTimes::data},
        {"forward", &PhaseTimes::forward},
        {"loss", &PhaseTimes::loss},
        {"backward", &PhaseTimes::backward},
        {"optimizer", &PhaseTimes::optimizer},
        {"test", &PhaseTimes::test},
    }};
    return fields;
}

PhaseTimes stablePhaseMean(const std::vector<EpochResult> &epochs, int warmupEpochs, int *count) {
    PhaseTimes mean;
    int n = 0;
    for (const EpochResult &e : epochs) {
        if (e.epoch <= warmupEpochs || !e.phases.measured)
            continue;
        for (const PhaseField &f : phaseFields())
            mean.*f.seconds += e.phases.*f.seconds;
        ++n;
    }
    if (n > 0) {
        for (const PhaseField &f : phaseFields())
            mean.*f.seconds /= n;
        mean.measured = true;
    }
    if (count != nullptr)
        *count = n;
    return mean;
}

std::array<double, kPhaseCount> phaseFractions(const PhaseTimes &phases) {
    std::array<double, kPhaseCount> fractions{};
    const double total = phases.total();
    for (std::size_t i = 0; i < kPhaseCount; ++i) {
        fractions[i] = phases.measured && total > 0.0 ? phases.*phaseFields()[i].seconds / total
                                                      : std::numeric_limits<double>::quiet_NaN();
    }
    return fractions;
}

std::string phaseSplitText(const PhaseTimes &phases) {
    if (!phases.measured)
        return {};
    const auto fractions = phaseFractions(phases);
    std::string text;
    for (std::size_t i = 0; i < kPhaseCount; ++i) {
        const double percent = 100.0 * fractions[i];
        std::string share = "n/a";
        if (std::isfinite(percent))
            share = percent > 0.0 && std::lround(percent) == 0
                        ? "<1%"
                        : std::to_string(std::lround(percent)) + "%";
        text += (i == 0 ? "" : " ") + std::string(phaseFields()[i].name) + " " + share;
    }
    return text;
}

} // namespace devicebench
