// SPDX-License-Identifier: MIT
// How a data-parallel job scales with its world size (issue 14, item 3): from the runs in view
// (RunSet), the series of jobs that differ only in how many ranks ran them, each point's images/s
// against the ideal (world size x the 1-rank job's), and its efficiency. Plain C++: no Qt, no
// LibTorch. The dashboard's Scaling view (ui/scaling_chart.h) draws it.
//
// Source of the rule: the issue's "efficiency (images/s of N ranks / (N x images/s of 1
// rank))", with images/s the comparison's own number, RunEntry::summary.imagesPerSecond: the
// job's images per epoch (training + test, the whole job's: run_types.h, DistributedInfo) over
// its stable mean seconds per epoch (a job record's epoch is its slowest rank's;
// docs/MEASURING.md, "How the numbers are made").
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
    // Share of the stable epochs' time spent in all-reduce: the sum of their
    // EpochResult::allReduceSeconds over the sum of their seconds (a fraction, 0..1). NaN when
    // not recorded (a single-process run, a record written before issue 14) or no stable epoch.
    double allReduceShare = 0.0;
    int runIndex = -1;      // the point's run: an index into RunSet::runs()
    bool jobRecord = false; // a job record (DistributedInfo::isJob); false: a single-process run
    // Further runs of the series at this world size that the point does not show (see
    // scalingSeries: one run per world size).
    int otherRuns = 0;
};

// Runs that differ only in their world size: one device kind, threads per rank and back end.
struct ScalingSeries {
    std::string deviceKind; // deviceKind() of its runs: "CPU", "NVIDIA H200" (comparison.h)
    std::string cpuModel;   // CPUs: the first run's Fingerprint::cpuModel; "" on GPUs
    int threadsPerRank = 0; // CPUs: RunStarted::threads (a job record's: rank 0's); 0 on GPUs
    std::string backend;    // c10d back end of its jobs: "gloo", "nccl", ...
    // "CPU (1 thread), Gloo · batch 64" (threads on CPUs only; the global batch size), then
    // modelLabel() and the workload, phase-timed and synthetic tags as in runLabel(); when two
    // series would have one name, " · <CPU model>" (or " · <host>") is appended. UTF-8.
    std::string name;
    std::vector<ScalingPoint> points; // one per world size, by world size (ascending)

    // The index in `points` of the 1-rank point; -1 when there is none.
    int singleRankIndex() const;
};

// The scaling series of `runs`, in the order in which each series' first run appears.
//
// Which runs: job records (DistributedInfo::isJob) and single-process runs (worldSize 0) with a
// stable mean above 0 images/s; rank records (role "rank": one process's own clock) never. A
// single-process run counts as world size 1 with the back end its device would use (Gloo on a
// CPU, NCCL on a CUDA device).
//
// Which series: runs are in one series when they have the same deviceKind(), CPU model and
// threads per rank (CPUs), back end, and no workload difference (workloadDifferences(),
// comparison.h: model, image size, global batch size, learning rate, epochs, data set,
// training and test images, precision, workload, data on device, loss fetch interval, phase
// timing), against the series' first run. A series without any job record is left out (single
// devices are the comparison's, not this).
//
// Weak and strong scaling (DistributedInfo::weakScaling): a job whose global batch was its
// per-rank batch x world size joins a series of such jobs with the same PER-RANK batch (weak
// scaling: each rank's work stays the same); a job whose global batch was given joins a series
// with the same GLOBAL batch (strong scaling). A 1-rank job or single-process run has one batch
// and joins every series it matches (both kinds); matching none, it makes a series with the
// other 1-rank runs it matches. The series' name says which: "... · 64 per rank (weak
// scaling)" or "... · batch 64".
//
// One point per world size: a job record before a single-process run (a 1-rank job times the
// same code, all-reduce included), then the newest (RunRecord::createdUtc; the later in `runs`
// on a tie); ScalingPoint::otherRuns counts the rest. Efficiencies and ideals are against the
// series' 1-rank point; without one they are NaN (a series of 2- and 4-rank jobs is still
// drawn). Never throws.
std::vector<ScalingSeries> scalingSeries(const RunSet &runs);

} // namespace devicebench
