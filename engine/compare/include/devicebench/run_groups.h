// SPDX-License-Identifier: MIT
// Repeated runs as groups, and the test-loss control in a few lines, for every front end (the
// CLI's `compare`, the dashboard's bars, the CSV). A group is the runs of one configuration on
// one machine: comparable by the comparison's own rules (comparison.h) and of one machine key
// (the run's label, device, threads and CPU model). A group is shown as one number with the
// spread between its runs; the formulas are in docs/MEASURING.md, "Groups of repeated runs".
// Plain C++ (no Qt, no LibTorch).
#pragma once

#include "devicebench/comparison.h"
#include "devicebench/run_record.h"
#include "devicebench/run_set.h"
#include "devicebench/time_to_target.h"

#include <limits>
#include <string>
#include <vector>

namespace devicebench {

inline constexpr double kGroupNaN = std::numeric_limits<double>::quiet_NaN();

// What a group's runs say together, in seconds per epoch, over the runs with a stable mean
// (the others are members that count nowhere here). NaN where a value does not exist.
struct GroupStats {
    int n = 0;                 // runs with a stable mean
    double mean = kGroupNaN;   // mean of the runs' stable means (the headline)
    double stddev = kGroupNaN; // sample standard deviation (n - 1) of the stable means; n >= 2
    double min = kGroupNaN;    // the fastest run's stable mean
    double max = kGroupNaN;    // the slowest run's stable mean
    // 95% interval: n >= 2 over the runs (the epochs' spread included), n = 1 the run's own
    // epoch interval (Summary::ciLow/ciHigh); NaN when neither exists.
    double ciLow = kGroupNaN;
    double ciHigh = kGroupNaN;
    double logMean = kGroupNaN; // mean over the runs of Summary::logMean (ln s)
    double logSe = kGroupNaN;   // standard error of logMean: epochs' and runs' spread combined
    double degreesOfFreedom = kGroupNaN; // of logSe (Student t), not rounded
};

// Whether a run's summary counts in its group's statistics (GroupStats::n): it has a stable
// mean above 0. Every figure of a group (its row, its cost) is over these runs.
bool countsInGroupStats(const Summary &run);

// The statistics of a group's runs from their summaries (any order); pointers must not be null.
GroupStats groupStats(const std::vector<const Summary *> &runs);

// Speed-up of `group` against `baseline`: baseline.mean / group.mean (> 1: faster), with a 95%
// interval on the log scale from both groups' logSe (Welch-Satterthwaite degrees of freedom).
// low and high NaN when either has no logSe; all three NaN when either has no run.
SpeedUp groupSpeedUp(const GroupStats &baseline, const GroupStats &group);

// The definition: runs `a` and `b` belong to one group (comparable, same machineKey).
bool sameGroup(const RunRecord &a, const RunRecord &b);

// What must be equal, beside comparability, for runs to be repeats of each other: runLabel
// (machine, host, GPU name or CPU threads, model, precision, workload, job shape), the device
// string ("cuda:1"), the threads and the CPU model, joined by newlines.
std::string machineKey(const RunRecord &record);

// One group of a RunSet.
struct RunGroup {
    int number = 0;        // 1, 2, ... in the order of the groups' first runs
    std::string label;     // runLabel of the first run (no "#n"), UTF-8
    std::vector<int> runs; // its runs' set indices, ascending
    // False for a run that is not comparable even with itself (a precision or data identity
    // this version cannot compare): such a run is a group of its own.
    bool comparable = true;
    GroupStats stats;
    // Runs with a target: their times to it, scored as MLPerf scores them (runs 0 without).
    TargetScore target;
    bool isBaseline = false;
    // Against the baseline: groupSpeedUp, or the ratio of the target scores when the groups are
    // compared by time to target (no interval then).
    SpeedUp speedUp{kGroupNaN, kGroupNaN, kGroupNaN};
    // comparisonDifferences(the baseline group's first run, this group's first run); empty =
    // comparable with the baseline group.
    std::vector<std::string> differences;
    // Largest maxTestLossDifference over the pairs of its runs; NaN for one run or none in
    // common.
    double maxTestLossDiff = kGroupNaN;
};

// Every run of a RunSet in exactly one group.
struct RunGroups {
    std::vector<RunGroup> groups; // in the order of their first runs
    int baseline = -1;            // index in groups; -1 when the set is empty
    std::vector<int> groupOfRun;  // set index -> index in groups
};

// The groups of `runs` (summaries under the set's warm-up setting). The baseline group holds
// the run chosen with RunSet::setBaseline, else it is the slowest group with a stable mean,
// else the first. Linear in the runs for repeats of a few configurations (runs are matched
// against one run of each group of their machine key).
RunGroups groupRuns(const RunSet &runs);

// The numbers of a group's runs, consecutive ones as a range: "#1-#5, #7" (ASCII).
std::string runNumbersText(const RunSet &runs, const std::vector<int> &indices);

// The test-loss control over every pair of comparable runs (RunSet::controlPairs), without
// listing them: the largest difference and its pair, and every pair above kTestLossWarning.
struct ControlSummary {
    long long comparablePairs = 0; // how many pairs RunSet::controlPairs would list
    // The pair with the largest maxTestLossDiff (+infinity when a run diverged); indexA -1
    // when no two comparable runs have an epoch in common.
    ControlPair largest{-1, -1, 0.0, false};
    std::vector<ControlPair> warnings; // every pair with warning set, ordered by (indexA, indexB)
};

// The control of `runs`: per class of comparable runs, each epoch's lowest and highest test
// loss give the largest difference without visiting every pair; only a class whose largest
// difference is above kTestLossWarning has its pairs visited, to list them.
ControlSummary summarizeControl(const RunSet &runs);

} // namespace devicebench
