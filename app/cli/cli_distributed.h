// SPDX-License-Identifier: MIT
// `devicebench-cli run` in a process that is a rank of a data-parallel job (WORLD_SIZE, RANK,
// ... set by torchrun, Slurm or `launch`; docs/DISTRIBUTED.md): joins the job (c10d TCPStore
// rendezvous, Gloo or NCCL) and trains its shard (runDataParallelTraining); records
// DIR/<job id>-rank<r>.json, and rank 0 DIR/<job id>-job.json; rank 0 prints the job's epochs
// and its efficiency against a 1-rank job of the same settings found in DIR.
#pragma once

#include "cli_run_options.h"

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

} // namespace devicebench::cli
