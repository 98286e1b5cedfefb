// SPDX-License-Identifier: MIT
// `devicebench-cli train-child`: one run as a child of another devicebench-cli (interleaved
// runs, each in a process of its own: child_run.h). Hidden from --help: not for direct use.
#pragma once

#include "cli_command.h"

#include <atomic>
#include <string>
#include <vector>

namespace devicebench::cli {

// `stop` is the flag SIGINT/SIGTERM set; the child sets it too when its parent goes away.
void addTrainChildCommand(CLI::App &app, const CommandContext &context, CommandAction &chosen,
                          std::atomic<bool> &stop);

// The command line that runs a child of this program: its own executable (/proc/self/exe,
// else `programPath`), this process's --log-level and "train-child".
std::vector<std::string> trainChildCommand(const std::string &programPath);

} // namespace devicebench::cli
