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
    kExitRunFailed = 1,   // a run failed or diverged, or an export could not be written
    kExitUsage = 2,       // bad flags or values
    kExitNoData = 3,      // no usable CIFAR-10 folder (none found, or it is missing, empty,
                          // the wrong variant, or a batch file is missing or of the wrong size)
    kExitCancelled = 130, // stopped by SIGINT/SIGTERM (128 + SIGINT, as shells report it)
};

struct RunOptions {
    std::vector<std::string> devices{"cpu"}; // one run per device x thread count
    std::vector<int> threads{0};             // 0 = all cores this process may use
    RunConfig base;                          // everything but device and threads
    bool dataDirGiven = false;
    std::string csvPath;    // empty: no CSV
    std::string pngPath;    // empty: no PNG
    std::string recordPath; // run record (docs/run-record.md) of the only run; empty: none
    std::string outDir;     // one run record per run, "<runId>.json"; created if missing
    // TensorBoard event files (devicebench/tensorboard.h), one per run in
    // "<logDir>/<runId>_<device>_x<threads>/"; created if missing; empty: none.
    std::string logDir;
    // One JSON document on stdout at the end (README, "JSON output"); the text lines go to
    // stderr when it is a terminal, else nowhere.
    bool json = false;
    // Data-parallel runs (issue 14; cli_distributed.h): used when the process is a rank of a
    // job (WORLD_SIZE set by torchrun, Slurm or `devicebench-cli launch`).
    int globalBatchSize = 0;    // images per step over all ranks; 0 = --batch-size x world size
    std::string backend;        // "gloo" or "nccl"; "" = from the device
    double timeoutSeconds = 60; // rendezvous and each collective
};

// Runs every (device, threads) combination in turn, printing one line per epoch and the
// article's summary to `out`; errors and progress go to `err`. Returns an ExitCode.
int runCommand(RunOptions options, std::ostream &out, std::ostream &err,
               const std::atomic<bool> &stopRequested);

// Lists the devices, each probed (usable or not, probe time and relative error, the reason),
// then this machine's fingerprint, one "key: value" line each; with `json`, prints
// devicesJson() instead (devices.h). Returns kExitOk. Defined in cli_devices.cpp.
int devicesCommand(std::ostream &out, bool json = false);

struct CompareOptions {
    std::vector<std::string> records; // run record files (docs/run-record.md)
    std::string csvPath;        // per-epoch CSV; the summary goes beside it as FILE-summary.csv
    std::string pngPath;        // the comparison picture
    int baseline = 0;           // 1-based position in `records` (when baselineGiven)
    bool baselineGiven = false; // false: the slowest run is the baseline
    int warmupEpochs = -1;      // warm-up epochs for every run; -1 = each run's own
    bool json = false;          // as RunOptions::json
};

// Loads every record (a bad one: "skipped <file>: <reason>" on `err`, the others load),
// prints the comparison table (run label, status, stable mean, 95% interval, speed-up against
// the baseline with its interval, comparable or the differing fields) and the control line
// (largest test-loss difference per comparable pair, WARNING above kTestLossWarning), and
// writes the PNG and CSVs of the runs that loaded. A record given twice (same path or same
// run id) is compared once and reported as skipped. Returns kExitOk; kExitRunFailed when a
// record was skipped or an output could not be written; kExitUsage when no record loaded,
// --baseline is not 1..N, or --warmup-epochs is not below every loaded run's epochs.
// Defined in cli_compare.cpp.
int compareCommand(const CompareOptions &options, std::ostream &out, std::ostream &err);

} // namespace devicebench::cli
