// SPDX-License-Identifier: MIT
// `devicebench-cli reproduce`: "Reproduce the article" from the command line. On every device
// here, the article's own script and DeviceBench's faithful workload at the article's
// published settings (reproduction.h), all as one interleaved run set, then the article's table
// with the user's rows beside it, the like-for-like line and the two programs' ratio.
#pragma once

#include "cli_command.h"
#include "cli_cost.h"

#include "devicebench/published.h"
#include "devicebench/run_types.h"

#include <atomic>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace devicebench::cli {

struct ReproduceOptions {
    std::vector<std::string> devices; // empty: cpu and each usable CUDA device (listDevices)
    RunConfig base;                   // dataDir, python, seed, threads; the rest is the article's
    std::string csvPath;              // empty: no CSV
    std::string pngPath;              // empty: no PNG
    std::string outDir;               // one run record per run; empty: none
    bool json = false;
    // A quick look at other settings (0: the published ones); the rows then say "other
    // settings".
    int epochs = 0;
    std::int64_t trainImages = 0;
    std::int64_t testImages = 0;
    CostOptions cost; // --price-per-hour, --price-per-kwh, --prices, as `run`
};

// The runs reproducing `set` on `devices`: reproductionRuns(set, options.base, devices), each
// with options' --epochs (warm-up then at most epochs - 1), --train-images and --test-images
// when given.
std::vector<RunConfig> reproducePlan(const PublishedSet &set, const ReproduceOptions &options,
                                     const std::vector<std::string> &devices);

// Runs the plan as `run --interleave` runs its runs (runPlanned, cli_planned_runs.h), with the
// published block always shown. Refused before any run (exit 2) when no built-in reference
// file of the article's script is found or the Python lacks torch or torchvision; exit 3
// without a usable data set. Returns an ExitCode.
int reproduceCommand(ReproduceOptions options, std::ostream &out, std::ostream &err,
                     const std::atomic<bool> &stopRequested);

// Adds the `reproduce` subcommand, its options and its action to `app`.
CLI::App *addReproduceCommand(CLI::App &app, const CommandContext &context, CommandAction &chosen);

} // namespace devicebench::cli
