// SPDX-License-Identifier: MIT
// `devicebench-cli run`: its options into checked runs, which cli_planned_runs.h runs, or this
// process's rank of a data-parallel job (cli_distributed.h).
#include "cli_run.h"
#include "cli_distributed.h"
#include "cli_planned_runs.h"
#include "cli_support.h"

#include "devicebench/csv_export.h"
#include "devicebench/data_location.h"
#include "devicebench/devices.h"
#include "devicebench/precision_support.h"
#include "devicebench/recorded_run.h"
#include "devicebench/trainer.h"

#include <memory>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

namespace devicebench::cli {

namespace {

// Every file the runs read, which no output may replace: the data's batch files, the script,
// the Python named by a path, the --prices table and the published block's reference files.
std::vector<PlannedInput> runInputs(const RunOptions &options, bool ownData) {
    const RunConfig &base = options.base;
    std::vector<PlannedInput> inputs = publishedInputs(options.published);
    if (!ownData)
        for (const std::string &file : cifar10BatchFiles(base.dataDir))
            inputs.push_back({"the CIFAR-10 batch file", file});
    if (workloadRow(base.workload).userScript())
        inputs.push_back({"the --script file", base.script});
    if (base.python.find('/') != std::string::npos) // a name alone is looked up on PATH
        inputs.push_back({"the --python program", base.python});
    inputs.push_back({"the --prices file", options.cost.pricesFile});
    return inputs;
}

} // namespace

// The checks in the order a mistake costs least: settings first, the data folder, the outputs.
int checkRunOptions(RunOptions &options, std::ostream &err) {
    RunConfig &base = options.base;
    if (!options.pngPath.empty() && !kPngAvailable) {
        err << "devicebench-cli: error: " << kPngNeedsFullBuild << "\n";
        return kExitUsage;
    }
    // The precision on every device first: a refused setting never waits for the data.
    for (const std::string &device : options.devices) {
        if (base.tf32 != Tf32::Default && device == "cpu")
            err << "devicebench-cli: note: --tf32 acts on CUDA devices only; the cpu run "
                   "records it as default\n";
        if (const std::string problem = precisionProblem(base.precision, device);
            !problem.empty()) {
            err << "devicebench-cli: error: " << problem << "\n";
            return kExitUsage;
        }
    }
    if (const std::string problem = publishedDirProblem(options.published); !problem.empty()) {
        err << "devicebench-cli: error: " << problem << "\n";
        return kExitUsage;
    }
    const bool ownData = base.synthetic || workloadRow(base.workload).ownData; // no data folder
    if (!ownData && base.dataDir.empty()) {
        if (auto dir = findDefaultDataDir()) {
            base.dataDir = *dir;
        } else {
            err << "devicebench-cli: error: no data folder given.\n" << dataDirHelp() << "\n";
            return kExitNoData;
        }
    }
    if (options.devices.empty() || options.threads.empty()) {
        err << "devicebench-cli: error: --device and --threads need at least one value\n";
        return kExitUsage;
    }
    // The data and the output paths are checked before the first run, so that a mistake there
    // does not cost a whole run.
    if (!ownData) {
        if (const std::string problem = checkCifar10Folder(base.dataDir); !problem.empty()) {
            err << "devicebench-cli: error: " << problem << "\n";
            return kExitNoData;
        }
    }
    // Every file and folder the runs will write, together: none may be another, or a file the
    // command reads.
    std::vector<PlannedOutput> outputs =
        comparisonOutputs(options.csvPath, options.pngPath, options.htmlPath);
    outputs.push_back({"--record", options.recordPath});
    outputs.push_back({"--out-dir", options.outDir, true});
    outputs.push_back({"--logdir", options.logDir, true});
    return refuseBadOutputs(outputs, runInputs(options, ownData), err);
}

bool checkRunConfig(RunConfig *config, std::ostream &err) {
    auto errors = validateRunConfig(*config);
    // A Python script trains on its Python's torch, not on this LibTorch: whether that torch
    // has the device is its check's to say (checkRunRequest, before any run).
    const bool onPythonsTorch = workloadRow(config->workload).pythonChild();
    if (!config->device.empty() && !onPythonsTorch) { // an empty one: validateRunConfig's
        try {
            config->device = resolveDevice(config->device);
        } catch (const std::invalid_argument &e) {
            errors.emplace_back(e.what());
        }
    }
    for (const auto &message : errors)
        err << "devicebench-cli: error: " << message << "\n";
    return errors.empty();
}

namespace {

// Every (device, threads) combination, each checked before the first run starts: nothing runs
// on a bad setting. Empty, with the problems on `err`, when one is refused.
std::vector<RunConfig> expandRuns(const RunOptions &options, std::ostream &err) {
    std::vector<RunConfig> runs;
    for (const auto &device : options.devices) {
        for (int threads : options.threads) {
            RunConfig c = options.base;
            c.device = device;
            c.threads = threads;
            if (options.precisionPerDevice)
                c.precision = recipePrecision(device);
            if (!checkRunConfig(&c, err))
                return {};
            runs.push_back(configAsRecorded(c)); // the header says what the record will
        }
    }
    return runs;
}

} // namespace

int runCommand(RunOptions options, std::ostream &stdOut, std::ostream &err,
               const std::atomic<bool> &stopRequested) {
    if (const int code = checkRunOptions(options, err); code != kExitOk)
        return code;
    const std::vector<RunConfig> runs = expandRuns(options, err);
    if (runs.empty())
        return kExitUsage;
    return runPlanned(options, runs, "run", "", stdOut, err, stopRequested);
}

namespace {

// The run in this process, or, with WORLD_SIZE and RANK set (torchrun, Slurm, `launch`), this
// process's rank of a data-parallel job.
int runOrJoin(const CLI::App &run, RunOptions options, const CommandContext &context) {
    LaunchEnvironment environment;
    try {
        environment = readLaunchEnvironment();
    } catch (const DistributedError &e) {
        context.err << "devicebench-cli: error: " << e.what() << "\n";
        return kExitUsage;
    }
    if (!environment.present &&
        (options.globalBatchSize > 0 || !options.backend.empty() || run.count("--timeout") > 0)) {
        context.err << "devicebench-cli: error: --global-batch-size, --backend and --timeout are "
                       "for a rank of a data-parallel job (WORLD_SIZE and RANK set: use `launch`, "
                       "torchrun or Slurm)\n";
        return kExitUsage;
    }
    if (environment.present && !trainsInEngineLoop(workloadRow(options.base.workload))) {
        context.err << "devicebench-cli: error: --workload " << toString(options.base.workload)
                    << " trains in one process; a rank of a data-parallel job trains "
                    << workloadChoices(trainsInEngineLoop) << " only\n";
        return kExitUsage;
    }
    if (environment.present && options.interleave) {
        context.err << "devicebench-cli: error: --interleave alternates runs of this process; a "
                       "rank of a data-parallel job is one run (leave --interleave out)\n";
        return kExitUsage;
    }
    if (environment.present)
        return distributedRunCommand(std::move(options), environment, context.out, context.err,
                                     context.stopRequested);
    return runCommand(std::move(options), context.out, context.err, context.stopRequested);
}

} // namespace

CLI::App *addRunCommand(CLI::App &app, const CommandContext &context, CommandAction &chosen) {
    auto *run = app.add_subcommand(
        "run", "Train a model (default: the article's small-cnn) and time each epoch; with "
               "WORLD_SIZE and RANK set (launch, torchrun, Slurm), as one rank of a "
               "data-parallel job (docs/DISTRIBUTED.md)");
    auto args = std::make_shared<RunArguments>(); // kept by the callback
    declareRunOptions(*run, *args);
    addDistributedRunOptions(*run, args->options);
    setAction(*run, chosen, [run, args, &context] {
        if (const std::string problem = finishRunOptions(*run, *args); !problem.empty()) {
            context.err << "devicebench-cli: error: " << problem << "\n";
            return static_cast<int>(kExitUsage);
        }
        return runOrJoin(*run, std::move(args->options), context);
    });
    return run;
}

} // namespace devicebench::cli
