// SPDX-License-Identifier: MIT
// `devicebench-cli run`: the headless runner. Same engine and same PNG/CSV export as the
// dashboard.
#pragma once

#include "cli_command.h"
#include "cli_cost.h"
#include "cli_published.h"

#include "devicebench/run_types.h"

#include <atomic>
#include <iosfwd>
#include <string>
#include <vector>

namespace devicebench::cli {

struct RunOptions {
    std::vector<std::string> devices{"cpu"}; // one run per device x thread count
    std::vector<int> threads{0};             // 0 = all cores this process may use
    RunConfig base;                          // everything but device and threads
    bool dataDirGiven = false;
    std::string csvPath;    // empty: no CSV
    std::string pngPath;    // empty: no PNG
    std::string htmlPath;   // the HTML report of the runs (cli_report.h); empty: none
    std::string recordPath; // run record (docs/run-record.md) of the only run; empty: none
    std::string outDir;     // one run record per run, "<runId>.json"; created if missing
    // TensorBoard event files (devicebench/tensorboard.h), one per run in
    // "<logDir>/<runId>_<device>_x<threads>/"; created if missing; empty: none.
    std::string logDir;
    // One JSON document on stdout at the end (README, "JSON output"); the text lines go to
    // stderr when it is a terminal, else nowhere.
    bool json = false;
    // Data-parallel runs (cli_distributed.h): used when the process is a rank of a
    // job (WORLD_SIZE set by torchrun, Slurm or `devicebench-cli launch`).
    int globalBatchSize = 0;    // images per step over all ranks; 0 = --batch-size x world size
    std::string backend;        // "gloo" or "nccl"; "" = from the device
    double timeoutSeconds = 60; // rendezvous and each collective
    // The runs' epochs in alternation (interleaved_run.h): run 1 epoch 1, run 2 epoch 1, ...
    bool interleave = false;
    // The published results after the summaries (cli_published.h); --no-published: off.
    PublishedOptions published{true, "", 0};
    // What the runs cost (cli_cost.h): --price-per-hour, --price-per-kwh, --prices.
    CostOptions cost;
    // The run number (from 1) that is the baseline of the published table; 0: the slowest run.
    // reproduce: the first run, the article's script, which the rows are like for like with.
    int baselineRun = 0;
};

// Runs every (device, threads) combination in turn, printing one line per epoch and the
// article's summary to `out`; errors and progress go to `err`. Returns an ExitCode.
int runCommand(RunOptions options, std::ostream &out, std::ostream &err,
               const std::atomic<bool> &stopRequested);

// What can be refused before anything else, for `run` and `reproduce`: --png without the full
// build, a precision a device cannot run, no data folder (the default one is looked for and set
// into options.base.dataDir), an empty --device or --threads, a data folder that is not
// CIFAR-10, a --csv, --png or --html folder that cannot be written, an --html file that is
// another output's. kExitOk, kExitUsage or kExitNoData.
int checkRunOptions(RunOptions &options, std::ostream &err);

// One planned run's settings as the engine checks them (validateRunConfig), and its device
// resolved ("cuda" -> "cuda:0"). False, with each problem on `err`, when it cannot run.
bool checkRunConfig(RunConfig *config, std::ostream &err);

// Adds the `run` subcommand, its options and its action (the runs here, or this process's rank
// of a data-parallel job when WORLD_SIZE and RANK are set) to `app`. Defined in
// cli_run_options.cpp.
CLI::App *addRunCommand(CLI::App &app, const CommandContext &context, CommandAction &chosen);

} // namespace devicebench::cli
