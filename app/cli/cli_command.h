// SPDX-License-Identifier: MIT
// What every subcommand shares: the exit codes, the streams and stop flag it runs with, and
// the action its add<Name>Command() hands to main through the subcommand's callback.
#pragma once

#include <CLI/CLI.hpp>

#include <atomic>
#include <functional>
#include <iosfwd>
#include <string>
#include <utility>

namespace devicebench::cli {

// Exit codes (documented in the README and in --help).
enum ExitCode : int {
    kExitOk = 0,
    kExitRunFailed = 1,   // a run failed or diverged, or an export could not be written
    kExitUsage = 2,       // bad flags or values
    kExitNoData = 3,      // no usable CIFAR-10 folder (none found, or it is missing, empty,
                          // the wrong variant, or a batch file is missing or of the wrong size)
    kExitCancelled = 130, // stopped by SIGINT/SIGTERM (128 + SIGINT, as shells report it)
};

// What the commands run with: the results on `out`, errors and progress on `err`.
struct CommandContext {
    std::ostream &out;
    std::ostream &err;
    const std::atomic<bool> &stopRequested; // set by SIGINT/SIGTERM
    std::string programPath;                // argv[0]
};

// The parsed subcommand's work, run by main once the logger and the signal handlers are set
// (CLI11 calls the callbacks inside parse()); returns an ExitCode.
using CommandAction = std::function<int()>;

// Makes `action` the one main runs when `command` is the subcommand parsed.
inline void setAction(CLI::App &command, CommandAction &chosen, CommandAction action) {
    command.callback([&chosen, action = std::move(action)] { chosen = action; });
}

} // namespace devicebench::cli
