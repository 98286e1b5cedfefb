// SPDX-License-Identifier: MIT
// How a data-parallel job scales with its world size: from the runs in view, the series of
// jobs that differ only in their number of ranks, each point's images/s against the ideal
// (world size x the 1-rank images/s) and its efficiency. Which runs make a series:
// docs/DISTRIBUTED.md, "Which runs make a series". Plain C++.
#pragma once

#include "devicebench/run_set.h"

#include <string>
#include <vector>

namespace devicebench {

// One world size of a series.
struct ScalingPoint {
    int worldSize = 0; // ranks of the job; 1 for a single-process run
    // The run's images/s (RunEntry::summary.imagesPerSecond; > 0 and finite: runs without a
    // stable mean are on no series).
    double imagesPerSecond = 0.0;
    // worldSize x the series' 1-rank images/s: perfect scaling. NaN when the series has no
    // 1-rank point.
    double idealImagesPerSecond = 0.0;
    // imagesPerSecond / idealImagesPerSecond, a fraction (1: perfect; 1 at world size 1). NaN
    // when the series has no 1-rank point.
    double efficiency = 0.0;
    // Fraction (0..1) of the stable epochs' seconds spent in all-reduce (allReduceSeconds).
    // NaN when not recorded (a single-process run, an older record) or no stable epoch.
    double allReduceShare = 0.0;
    int runIndex = -1;      // the point's run: an index into RunSet::runs()
    bool jobRecord = false; // a job record (DistributedInfo::isJob); false: a single-process run
    // Further runs of the series at this world size that the point does not show.
    int otherRuns = 0;
};

// Runs that differ only in their world size: one device kind, threads per rank and back end.
struct ScalingSeries {
    std::string deviceKind; // deviceKind() of its runs: "CPU", "NVIDIA H200" (comparison.h)
    std::string cpuModel;   // CPUs: the first run's Fingerprint::cpuModel; "" on GPUs
    int threadsPerRank = 0; // CPUs: RunStarted::threads (a job record's: rank 0's); 0 on GPUs
    std::string backend;    // c10d back end of its jobs: "gloo", "nccl", ...
    // "CPU (1 thread), Gloo · batch 64", then the tags of runLabel(); " · <CPU model>" (or host)
    // appended when two series would have one name. UTF-8.
    std::string name;
    std::vector<ScalingPoint> points; // one per world size, by world size (ascending)

    // The index in `points` of the 1-rank point; -1 when there is none.
    int singleRankIndex() const;
};

// The scaling series of `runs`, in the order of each series' first run: job records and
// single-process runs (world size 1) with a stable mean, grouped by device kind, CPU model,
// threads per rank, back end and workload, weak and strong scaling apart; one point per world
// size (a job record first, then the newest). Never throws.
std::vector<ScalingSeries> scalingSeries(const RunSet &runs);

} // namespace devicebench
