// SPDX-License-Identifier: MIT
// Was the machine the same speed during two compared runs? Each CPU run's one-thread canaries
// (CanaryTime::seconds, run_types.h: a per-core speed, comparable between runs of any thread
// count) held against the other's, by the rule of machine_drift.h with kRunCanaryMargin. Only
// records of one machine (the same host name and CPU model) and one library (the same LibTorch
// and BLAS, which compute the canary) are held against each other: another machine is other
// hardware, not drift. docs/MEASURING.md, "A machine that changes speed". Plain C++.
#pragma once

#include "devicebench/run_record.h"

#include <limits>
#include <string>

namespace devicebench {

// Two medians of kRunCanaryCount or more canaries each are steadier than two single canaries
// (kCanaryMargin): their margin. With fewer, kCanaryMargin holds.
inline constexpr double kRunCanaryMargin = 0.05;
inline constexpr int kRunCanaryCount = 5;

// A CPU run's one-thread canary: the median of its first canary's and its epochs', leaving out
// the canaries of contended epochs (they timed the other work, which the contention flag
// reports); `noise` the median of their noise; `count` how many there were. known false when
// the record has no canary (older records) or is not a CPU run (a CUDA run's is the device's).
struct RunCanary {
    bool known = false;
    double seconds = std::numeric_limits<double>::quiet_NaN();
    double noise = std::numeric_limits<double>::quiet_NaN();
    int count = 0;
};
RunCanary runCanary(const RunRecord &record);

// `run` against `baseline`.
struct MachineSpeedDifference {
    bool compared = false; // one machine and library, and both are CPU runs with a canary
    // run's canary / baseline's - 1: +0.18, the machine was 18 % slower during `run`. NaN when
    // not compared.
    double change = std::numeric_limits<double>::quiet_NaN();
    // The slower canary over the faster, minus 1, beyond both runs' canary noise (the larger)
    // plus the margin (kRunCanaryMargin, or kCanaryMargin for runs of fewer canaries): a
    // speed-up between the two mixes the device's speed with the machine's. Symmetric: the same
    // whichever run is the baseline.
    bool biased = false;
};
MachineSpeedDifference machineSpeedDifference(const RunRecord &baseline, const RunRecord &run);

// "the machine was 18 % slower during run #2 than during run #1 (one-thread canary): the
// speed-up is biased; rerun the two close together on an idle machine" (names as given, e.g.
// "run #2"); "" when not biased.
std::string machineSpeedWarning(const MachineSpeedDifference &difference,
                                const std::string &runName, const std::string &baselineName);

} // namespace devicebench
