// SPDX-License-Identifier: MIT
// `devicebench-cli run` and `devicebench-cli devices`: the headless runner. Same engine and
// same PNG/CSV export as the dashboard.
#pragma once

#include "devicebench/run_types.h"

#include <atomic>
#include <iosfwd>
#include <string>
#include <vector>

namespace devicebench::cli {

// Exit codes (documented in the README and in --help).
enum ExitCode : int {
    kExitOk = 0,
    kExitRunFailed = 1,    // a run failed or diverged, or an export could not be written
    kExitUsage = 2,        // bad flags or values
    kExitNoData = 3,       // no CIFAR-10 folder found and --synthetic not given
    kExitCancelled = 130,  // stopped by SIGINT/SIGTERM (128 + SIGINT, as shells report it)
};

struct RunOptions {
    std::vector<std::string> devices{"cpu"}; // one run per device x thread count
    std::vector<int> threads{0};             // 0 = all cores this process may use
    RunConfig base;                          // everything but device and threads
    bool dataDirGiven = false;
    std::string csvPath;  // empty: no CSV
    std::string pngPath;  // empty: no PNG
};

// Runs every (device, threads) combination in turn, printing one line per epoch and the
// article's summary to `out`; errors and progress go to `err`. Returns an ExitCode.
int runCommand(RunOptions options, std::ostream &out, std::ostream &err,
               const std::atomic<bool> &stopRequested);

// Lists the devices (usable or not, with the reason). Returns kExitOk.
int devicesCommand(std::ostream &out);

} // namespace devicebench::cli
