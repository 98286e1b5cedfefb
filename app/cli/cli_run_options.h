// SPDX-License-Identifier: MIT
// What `run` and `reproduce` are asked for: the runs (devices x thread counts over one base
// configuration) and their outputs, as the options of `run` fill it (declareRunOptions,
// finishRunOptions) and reproduce builds it. Read by the command (cli_run.h), the ranks of a job
// (cli_distributed.h) and the runner of planned runs (cli_planned_runs.h), which therefore need
// not include each other.
#pragma once

#include "cli_cost.h"
#include "cli_published.h"

#include <CLI/CLI.hpp>

#include "devicebench/run_types.h"
#include "devicebench/workloads.h"

#include <string>
#include <vector>

namespace devicebench::cli {

struct RunOptions {
    std::vector<std::string> devices{"cpu"}; // one run per device x thread count
    std::vector<int> threads{0};             // 0 = all cores this process may use
    RunConfig base;                          // everything but device and threads
    // A recipe workload without --precision: each run in recipePrecision() of its device.
    bool precisionPerDevice = false;
    bool dataDirGiven = false;
    std::string csvPath;    // empty: no CSV
    std::string pngPath;    // empty: no PNG
    std::string htmlPath;   // the HTML report of the runs (cli_report.h); empty: none
    std::string recordPath; // run record (docs/run-record.md) of the only run; empty: none
    std::string outDir;     // one run record per run, "<runId>.json"; created if missing
    // TensorBoard event files (devicebench/tensorboard.h), one per run in
    // "<logDir>/<runId>_<device>_x<threads>/"; created if missing; empty: none.
    std::string logDir;
    // One JSON document on stdout at the end (README, "JSON output"); the text lines go to
    // stderr when it is a terminal, else nowhere.
    bool json = false;
    // Data-parallel runs (cli_distributed.h): used when the process is a rank of a
    // job (WORLD_SIZE set by torchrun, Slurm or `devicebench-cli launch`).
    int globalBatchSize = 0;    // images per step over all ranks; 0 = --batch-size x world size
    std::string backend;        // "gloo" or "nccl"; "" = from the device
    double timeoutSeconds = 60; // rendezvous and each collective
    // The runs' epochs in alternation (interleaved_run.h): run 1 epoch 1, run 2 epoch 1, ...
    bool interleave = false;
    // The published results after the summaries (cli_published.h); --no-published: off.
    PublishedOptions published{true, "", 0};
    // What the runs cost (cli_cost.h): --price-per-hour, --price-per-kwh, --prices.
    CostOptions cost;
    // The run number (from 1) that is the baseline of the published table; 0: the slowest run.
    // reproduce: the first run, the article's script, which the rows are like for like with.
    int baselineRun = 0;
};

// RunOptions and the values that are finished after CLI11 (finishRunOptions).
struct RunArguments {
    RunOptions options;
    std::vector<std::string> threads{"0"}; // split and parsed after CLI11, see splitList
    std::string workload = "faithful";
    std::string precision = "fp32";
    std::string tf32 = "default";
    double targetAccuracy = 0.0; // RunConfig::targetAccuracy when --target-accuracy is given
};

// Every option of `run` but the data-parallel ones (cli_distributed.h), in --help's order,
// into `args`.
void declareRunOptions(CLI::App &run, RunArguments &args);

// After parsing: the lists split and parsed, the workload and precision, the recipe's and the
// script's refusals, --warmup-epochs's default. "" or the problem (a usage error).
std::string finishRunOptions(const CLI::App &run, RunArguments &args);

// Why a recipe workload (row.recipe()) refuses `given` ("--model, --lr"): it trains its own
// network at 32 px with its own learning-rate schedule. The message of `run` and `sweep`.
std::string recipeFlagsProblem(const WorkloadRow &row, const std::string &given);

} // namespace devicebench::cli
