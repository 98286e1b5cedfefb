// SPDX-License-Identifier: MIT
// Time to accuracy in `compare` and after `run` (devicebench/time_to_target.h): for each group
// of runs with a target, how many reached it, its MLPerf score with the spread, and the speed-up
// in time to target against the baseline group.
#pragma once

#include "devicebench/run_groups.h"
#include "devicebench/run_set.h"

#include <iosfwd>

namespace devicebench::cli {

// The block "time to 50 % test accuracy ..." with a line per group whose runs have a target;
// nothing when no run has one.
void printTimeToTarget(std::ostream &out, const RunSet &store, const RunGroups &groups);

} // namespace devicebench::cli
