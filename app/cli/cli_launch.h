// SPDX-License-Identifier: MIT
// `devicebench-cli launch --nproc-per-node N [--nnodes M --node-rank R --master-addr A
// --master-port P] -- run ...`: starts this host's ranks of a data-parallel job as torchrun
// does (docs/DISTRIBUTED.md).
#pragma once

#include "cli_command.h"
#include "cli_distributed.h"

#include <atomic>
#include <iosfwd>
#include <string>
#include <vector>

namespace devicebench::cli {

struct LaunchOptions {
    int nprocPerNode = 1;
    int nnodes = 1;
    int nodeRank = 0;
    std::string masterAddr = "127.0.0.1";
    int masterPort = -1; // -1: a free port on one node, kDefaultMasterPort on several
    double timeoutSeconds = kDefaultTimeoutSeconds;
    bool noReference = false;         // skip the 1-rank reference job
    std::vector<std::string> command; // "run" and its options
};

// Adds the `launch` subcommand, its options (the command after `--` included) and its action
// to `app`.
CLI::App *addLaunchCommand(CLI::App &app, const CommandContext &context, CommandAction &chosen);

// Starts nprocPerNode ranks of `run` on this host (this executable, `self`), each with
// torchrun's variables (RANK = nodeRank x nprocPerNode + local rank, WORLD_SIZE, LOCAL_RANK,
// LOCAL_WORLD_SIZE, MASTER_ADDR, MASTER_PORT, TORCHELASTIC_USE_AGENT_STORE=True) and, without
// --threads, its share of this host's cores; node 0 holds the rendezvous store (a port in use
// is an error before any rank starts). On one node with several ranks and --out-dir, a 1-rank
// job of the same settings runs first into <out-dir>/reference (unless --no-reference), so that
// rank 0 can print the efficiency. A rank that exits with an error or a signal stops the others
// (SIGTERM, then SIGKILL after the timeout) and is named; SIGINT/SIGTERM to the launcher is passed
// to every rank. Returns kExitOk when every rank finished, kExitCancelled when stopped, else
// kExitRunFailed.
int launchCommand(const LaunchOptions &options, const std::string &self, std::ostream &out,
                  std::ostream &err, const std::atomic<bool> &stopRequested);

} // namespace devicebench::cli
