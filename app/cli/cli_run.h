// SPDX-License-Identifier: MIT
// `devicebench-cli run`: the headless runner. Same engine and same PNG/CSV export as the
// dashboard.
#pragma once

#include "cli_command.h"
#include "cli_run_options.h"

#include "devicebench/run_types.h"

#include <atomic>
#include <iosfwd>
#include <string>
#include <vector>

namespace devicebench::cli {

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
// of a data-parallel job when WORLD_SIZE and RANK are set) to `app`.
CLI::App *addRunCommand(CLI::App &app, const CommandContext &context, CommandAction &chosen);

} // namespace devicebench::cli
