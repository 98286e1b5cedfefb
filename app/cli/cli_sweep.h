// SPDX-License-Identifier: MIT
// `devicebench-cli sweep`: a grid of short timed runs (models x batch sizes x image sizes x
// devices), one record per cell in a folder, resumable, with its CSV and PNG (sweep.h,
// docs/sweep-record.md).
#pragma once

#include "cli_command.h"
#include "cli_sweep_options.h"

#include "devicebench/sweep.h"

#include <atomic>
#include <iosfwd>
#include <vector>

namespace devicebench::cli {

// Adds the `sweep` subcommand, its options and its action to `app`.
CLI::App *addSweepCommand(CLI::App &app, const CommandContext &context, CommandAction &chosen);

// Runs the sweep (with a target: sweepToTarget, cli_sweep_target.h): one line per cell on `out` ("[
// 3/27] resnet18 b64 32px cpu x2: 123.4 images/s [120.1, 125.0], ..."), errors on `err`. Returns
// kExitOk; kExitRunFailed when a cell failed or an output could not be written (the other cells
// still run); kExitUsage for bad options (nothing runs); kExitNoData without a usable data folder
// (as `run`); kExitCancelled when `stopRequested` was set (the finished cells' records stay: the
// same command resumes).
int sweepCommand(SweepOptions options, std::ostream &out, std::ostream &err,
                 const std::atomic<bool> &stopRequested);

} // namespace devicebench::cli
