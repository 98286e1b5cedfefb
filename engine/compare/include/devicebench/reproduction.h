// SPDX-License-Identifier: MIT
// Reproducing the article on this machine: the runs "Reproduce the article" makes (the
// article's script and DeviceBench's faithful workload on every device here, at the published
// settings), and what a script run and a faithful run of the same settings on the same machine
// say about each other: how much of the time is the program's. Plain C++ (no Qt, no LibTorch).
#pragma once

#include "devicebench/published.h"
#include "devicebench/run_set.h"
#include "devicebench/run_types.h"

#include <string>
#include <vector>

namespace devicebench {

// The first set whose program is the article's script (the built-in article.json), or nullptr.
const PublishedSet *articleSet(const std::vector<PublishedSet> &sets);

// The runs that reproduce `set` here: for each of `devices` ("cpu", "cuda:0", ...), the
// article's script, then DeviceBench's faithful workload, at the set's settings (model, batch
// size, epochs, warm-up, learning rate, precision, image size, all images) on real data, with
// `base`'s data folder, seed and threads (and its Python for the script runs). In that order,
// to be run interleaved.
std::vector<RunConfig> reproductionRuns(const PublishedSet &set, const RunConfig &base,
                                        const std::vector<std::string> &devices);

// One article-script run and a faithful run that differ in nothing but the program: the same
// settings (workloadDifferences names only "workload"), host, CPU model, device and threads.
struct ProgramRatio {
    int scriptIndex = -1;   // into RunSet::runs()
    int faithfulIndex = -1; // the nearest such faithful run in the set, each paired once
    // faithful stable mean / script stable mean: below 1, DeviceBench's engine takes that
    // share of the script's time for the same training.
    double ratio = 0.0;
    // "DeviceBench's faithful workload: 0.79 x the article's script on CPU x2 @ host (AMD EPYC
    // 7B13) (#2 against #1)"
    std::string line;
};

// Every article-script run of `store` with a stable mean and such a faithful partner with one;
// each faithful run is the partner of one script run at most.
std::vector<ProgramRatio> programRatios(const RunSet &store);

} // namespace devicebench
