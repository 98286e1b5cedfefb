// SPDX-License-Identifier: MIT
#include "json_phases.h"

#include "devicebench/phase_summary.h"

#include <sstream>

namespace devicebench::detail {

nlohmann::ordered_json phasesJson(const PhaseTimes &phases) {
    nlohmann::ordered_json j;
    for (const PhaseField &f : phaseFields())
        j[f.name] = phases.*f.seconds;
    return j;
}

PhaseTimes readPhases(const FieldReader &reader, const nlohmann::json &epoch,
                      const std::string &epochPath) {
    PhaseTimes phases;
    if (!epoch.contains("phases"))
        return phases;
    const std::string p = FieldReader::join(epochPath, "phases");
    const nlohmann::json &o = reader.object(epoch, "phases", epochPath);
    for (const PhaseField &f : phaseFields()) {
        const double seconds = reader.finite(o, f.name, p);
        if (seconds < 0.0) {
            std::ostringstream shown;
            shown << seconds;
            reader.fail(FieldReader::join(p, f.name),
                        "must be 0 or more (got " + shown.str() + "): a phase's seconds");
        }
        phases.*f.seconds = seconds;
    }
    phases.measured = true;
    return phases;
}

} // namespace devicebench::detail
