// SPDX-License-Identifier: MIT
// Data-parallel jobs from the command line (issue 14; docs/DISTRIBUTED.md):
//  - `devicebench-cli run` in a process that is a rank of a job (WORLD_SIZE, RANK, ... set by
//    torchrun, Slurm or `launch`): joins the job (c10d TCPStore rendezvous, Gloo or NCCL) and
//    trains its shard (runDataParallelTraining); records DIR/<job id>-rank<r>.json, and rank 0
//    DIR/<job id>-job.json; rank 0 prints the job's epochs and its efficiency against a 1-rank
//    job of the same settings found in DIR.
//  - `devicebench-cli launch --nproc-per-node N [--nnodes M --node-rank R --master-addr A
//    --master-port P] -- run ...`: starts this host's ranks as torchrun does.
#pragma once

#include "cli_run.h"

#include "devicebench/distributed.h"

#include <CLI/CLI.hpp>

#include <atomic>
#include <iosfwd>
#include <string>
#include <vector>

namespace devicebench::cli {

// The longest --timeout (a day): a job waits at most this long for a rank.
inline constexpr double kMaxTimeoutSeconds = 86400.0;

// --timeout's check: a finite number of seconds above 0, at most kMaxTimeoutSeconds
// ("--timeout must be a number of seconds above 0 and at most 86400 (got nan)").
CLI::Validator timeoutValidator();

// --global-batch-size, --backend and --timeout of `run`.
void addDistributedRunOptions(CLI::App &run, RunOptions &options);

// The run of a rank (`env.present`). Refuses (kExitUsage) several devices or thread counts,
// --record, --csv, --png, --logdir and --json (a job's records are compared with `compare`);
// threads 0 means this host's cores shared by its ranks (availableCores() / LOCAL_WORLD_SIZE,
// at least 1); device "cuda" means cuda:LOCAL_RANK. A rendezvous failure (port in use, store
// unreachable, ranks missing) is an error before any training: kExitRunFailed with the reason.
// Returns kExitOk, kExitRunFailed (failed, diverged, or a rank died), kExitCancelled.
int distributedRunCommand(RunOptions options, const LaunchEnvironment &env, std::ostream &out,
                          std::ostream &err, const std::atomic<bool> &stopRequested);

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

// `launch`'s options and the command after `--`.
CLI::App *addLaunchCommand(CLI::App &app, LaunchOptions &options);

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
