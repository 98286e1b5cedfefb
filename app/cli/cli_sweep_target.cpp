// SPDX-License-Identifier: MIT
// `devicebench-cli sweep --target-accuracy`: see cli_sweep_target.h.
#include "cli_sweep_target.h"

#include "cli_planned_runs.h"
#include "cli_run.h"
#include "cli_support.h"

#include "devicebench/precision_support.h"
#include "devicebench/recorded_run.h"
#include "devicebench/time_to_target.h"

#include <algorithm>
#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

namespace devicebench::cli {
namespace {

// The flags of one mode given in the other, "" when none: "--steps, --no-peak".
std::string givenOf(const SweepOptions &options, const std::vector<std::string> &flags) {
    std::string given;
    for (const std::string &flag : options.givenFlags)
        if (std::find(flags.begin(), flags.end(), flag) != flags.end())
            given += (given.empty() ? "" : ", ") + flag;
    return given;
}

const std::vector<std::string> kStepFlags{"--steps", "--warmup-steps", "--phase-steps",
                                          "--baseline", "--no-peak"};

// The base of every cell's run: the sweep's workload, seed, learning rate and data, the budget
// and the target.
RunConfig runBase(const SweepOptions &options) {
    RunConfig base = options.spec.base;
    base.targetAccuracy = options.targetAccuracy;
    base.epochs = options.epochs;
    base.warmupEpochs = std::max(0, std::min(kDefaultWarmupEpochs, options.epochs - 1));
    base.trainImages = options.trainImages;
    base.testImages = options.testImages;
    return base;
}

// What `run` would be asked for: the sweep's outputs, no published block (a grid is not the
// article's experiment).
RunOptions runOptions(const SweepOptions &options, const std::vector<SweepCell> &cells) {
    RunOptions run;
    run.base = runBase(options);
    run.base.precision = Precision::Float32; // each cell's own is checked with its run
    run.dataDirGiven = true;                 // found or given by the sweep's checkData
    run.devices.clear();
    run.threads.clear();
    for (const SweepCell &cell : cells) {
        if (std::find(run.devices.begin(), run.devices.end(), cell.device.device) ==
            run.devices.end())
            run.devices.push_back(cell.device.device);
        if (std::find(run.threads.begin(), run.threads.end(), cell.device.threads) ==
            run.threads.end())
            run.threads.push_back(cell.device.threads);
    }
    // Run records, kept apart from a step sweep's cell records unless --out-dir says otherwise.
    run.outDir =
        givenOf(options, {"--out-dir"}).empty() ? "devicebench-sweep-to-target" : options.outDir;
    run.csvPath = options.csvPath;
    run.pngPath = options.pngPath;
    run.interleave = options.interleave;
    run.published.show = false;
    return run;
}

std::string introLine(const SweepOptions &options, const RunOptions &run, std::size_t cellCount) {
    const SweepSpec &spec = options.spec;
    return "sweep to " + targetText(*options.targetAccuracy) +
           " test accuracy: " + count(cellCount, "cell", "cells") + " (" +
           count(spec.models.size(), "model", "models") + " x " +
           count(spec.batchSizes.size(), "batch size", "batch sizes") + " x " +
           count(spec.imageSizes.size(), "image size", "image sizes") + " x " +
           (options.precisionPerDevice ? std::string("each device's precision")
                                       : count(spec.precisions.size(), "precision", "precisions")) +
           " x " + count(spec.devices.size(), "device", "devices") + "), each a run of at most " +
           count(static_cast<std::size_t>(options.epochs), "epoch", "epochs") +
           (options.interleave ? ", interleaved" : "") + "; run records in " + run.outDir;
}

} // namespace

std::string sweepModeProblem(const SweepOptions &options) {
    if (options.targetAccuracy) {
        const std::string given = givenOf(options, kStepFlags);
        if (!given.empty())
            return given +
                   ": a sweep with --target-accuracy runs each cell as whole epochs "
                   "(--epochs is the budget) and ranks them by time to target; leave " +
                   given + " out";
        return {};
    }
    const std::string given =
        givenOf(options, {"--epochs", "--train-images", "--test-images", "--interleave"});
    if (!given.empty())
        return given + ": for a sweep with --target-accuracy (whole runs to a target); a sweep "
                       "without one times --steps steps per cell";
    return {};
}

std::string applySweepRecipeDefaults(SweepOptions &options) {
    Workload workload = Workload::Faithful;
    if (!parseWorkload(options.workload, &workload) || !workloadRow(workload).recipe())
        return {};
    const WorkloadRow &row = workloadRow(workload);
    if (const std::string given = givenOf(options, {"--model", "--image-size", "--lr"});
        !given.empty())
        return recipeFlagsProblem(row, given);
    if (const std::string given = givenOf(options, kStepFlags); !given.empty())
        return given + ": workload " + row.name +
               " sweeps whole runs to a target (--target-accuracy, default " +
               targetText(row.defaultTargetPercent) + "); leave " + given + " out";
    options.models = {row.recipeModel};
    if (givenOf(options, {"--batch-size"}).empty())
        options.batchSizes = {std::to_string(row.defaultBatchSize)};
    if (!options.targetAccuracy)
        options.targetAccuracy = row.defaultTargetPercent;
    options.precisionPerDevice = givenOf(options, {"--precision"}).empty();
    if (options.precisionPerDevice)
        options.precisions = {"fp32"}; // a place-holder: each cell takes its device's
    return {};
}

int sweepToTarget(const SweepOptions &options, const std::vector<SweepCell> &cells,
                  std::ostream &out, std::ostream &err, const std::atomic<bool> &stopRequested) {
    RunOptions run = runOptions(options, cells);
    std::vector<RunConfig> runs;
    for (const SweepCell &cell : cells) {
        RunConfig c = runBase(options);
        c.model = cell.model;
        c.batchSize = cell.batchSize;
        c.imageSize = cell.imageSize;
        c.device = cell.device.device;
        c.precision = options.precisionPerDevice ? recipePrecision(c.device) : cell.precision;
        c.threads = cell.device.threads;
        if (!checkRunConfig(&c, err))
            return kExitUsage;
        runs.push_back(configAsRecorded(c));
    }
    if (const int code = checkRunOptions(run, err); code != kExitOk)
        return code;
    return runPlanned(run, runs, "sweep", introLine(options, run, cells.size()), out, err,
                      stopRequested);
}

} // namespace devicebench::cli
