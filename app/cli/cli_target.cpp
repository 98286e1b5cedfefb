// SPDX-License-Identifier: MIT
#include "cli_target.h"

#include "cli_support.h"

#include <cmath>
#include <cstddef>
#include <ostream>
#include <string>

namespace devicebench::cli {

void printTimeToTarget(std::ostream &out, const RunSet &store, const RunGroups &groups) {
    bool header = false;
    for (const RunGroup &g : groups.groups) {
        if (g.target.runs == 0)
            continue;
        const RunRecord &first = store.run(g.runs.front()).record;
        if (!header)
            out << "time to accuracy (wall time from the first step to the end of the "
                   "evaluation that reached the target; repeats scored as MLPerf: from 5 runs "
                   "the mean without the fastest and the slowest, else the median):\n";
        header = true;
        out << "  group " << g.number << " " << g.label << ", target "
            << targetText(*first.config.targetAccuracy) << ": " << describeScore(g.target);
        if (g.isBaseline)
            out << ", baseline";
        else if (std::isfinite(g.speedUp.ratio) && g.differences.empty())
            out << ", " << fixed(g.speedUp.ratio, 2) << "x sooner than group "
                << groups.groups[static_cast<std::size_t>(groups.baseline)].number;
        out << "\n";
        for (const int index : g.runs) {
            const RunEntry &run = store.run(index);
            out << "    #" << run.number << " " << describeTarget(run.target) << "\n";
        }
    }
}

} // namespace devicebench::cli
