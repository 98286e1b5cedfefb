// SPDX-License-Identifier: MIT
// `devicebench-cli fetch-data`: gets the CIFAR-10 binary archive (download or --from FILE),
// checks it and unpacks it into the standard cache folder (or --dir DIR). See fetch.h.
#pragma once

#include "cli_command.h"

#include <atomic>
#include <iosfwd>
#include <string>

namespace devicebench::cli {

struct FetchDataOptions {
    std::string dir;    // folder that receives cifar-10-batches-bin; empty: defaultFetchDir()
    std::string url;    // empty: kCifar10Url
    std::string from;   // local archive instead of a download
    std::string md5;    // expected MD5; empty: kCifar10Md5
    bool noMd5 = false; // do not check the MD5 (the folder check still applies)
};

// Adds the `fetch-data` subcommand, its options and its action to `app`.
CLI::App *addFetchDataCommand(CLI::App &app, const CommandContext &context, CommandAction &chosen);

// Whether stderr is a terminal (the progress bar is redrawn in place) or a file or pipe.
bool stderrIsTerminal();

// Runs fetch-data: the result line on `out`; progress and errors on `err` (a redrawn
// progress bar when `errIsTerminal`, else one line per phase and per 10% of a download).
// Returns kExitOk (ready or already there), kExitRunFailed (any failure: nothing is left
// behind), kExitUsage (--url with --from), kExitCancelled (`stop` set, e.g. by SIGINT).
int fetchDataCommand(const FetchDataOptions &options, std::ostream &out, std::ostream &err,
                     bool errIsTerminal, const std::atomic<bool> &stop);

} // namespace devicebench::cli
