// SPDX-License-Identifier: MIT
// `devicebench-cli sweep`: see cli_sweep.h and devicebench/sweep.h.
#include "cli_sweep.h"

#include "cli_support.h"
#include "cli_sweep_target.h"

#include "devicebench/data_location.h"
#include "devicebench/devices.h"
#include "devicebench/version.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <exception>
#include <memory>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>

namespace devicebench::cli {
namespace {

std::string percent(double fraction) {
    return std::isfinite(fraction) ? std::to_string(static_cast<int>(std::lround(100.0 * fraction)))
                                   : std::string("?");
}

// "about 4 min left", "about 40 s left"; "" when unknown or nothing is left.
std::string timeLeft(double seconds) {
    if (!std::isfinite(seconds) || seconds <= 0.0) {
        return {};
    }
    if (seconds >= 90.0) {
        return "about " + std::to_string(std::lround(seconds / 60.0)) + " min left";
    }
    return "about " + std::to_string(std::max(1L, std::lround(seconds))) + " s left";
}

std::string cellName(const SweepCell &cell) {
    return cell.model + " b" + std::to_string(cell.batchSize) + " " +
           std::to_string(cell.imageSize) + "px " + cell.device.label() +
           (cell.precision == Precision::Float32 ? ""
                                                 : " " + std::string(shortName(cell.precision)));
}

// "[ 3/27]": the count padded to the width of the total.
std::string counter(int done, int total) {
    std::string n = std::to_string(done);
    const std::string t = std::to_string(total);
    return "[" + std::string(t.size() > n.size() ? t.size() - n.size() : 0, ' ') + n + "/" + t +
           "]";
}

std::string phasesText(const PhaseTimes &p) {
    const double total = p.total();
    if (!p.measured || !(total > 0.0)) {
        return {};
    }
    return ", phases data " + percent(p.data / total) + "% fwd " + percent(p.forward / total) +
           "% loss " + percent(p.loss / total) + "% bwd " + percent(p.backward / total) + "% opt " +
           percent(p.optimizer / total) + "%";
}

// One line per cell ended: its numbers, or why it failed.
std::string cellLine(const SweepCellRecord &r, const SweepProgress &p,
                     const std::vector<SweepCellRecord> &earlier, const std::string &baseline,
                     bool resumed) {
    const StepBenchResult &s = r.result;
    std::ostringstream line;
    line << counter(p.done, p.total) << " " << cellName(r.cell) << ": ";
    if (s.status != RunStatus::Finished) {
        line << toString(s.status) << (resumed ? " (kept from the last run)" : "") << ": "
             << s.reason;
    } else {
        line << fixed(s.imagesPerSecond, 1) << " images/s [" << fixed(s.imagesPerSecondLow, 1)
             << ", " << fixed(s.imagesPerSecondHigh, 1) << "], " << fixed(s.achievedGflops, 1)
             << " GFLOP/s";
        if (std::isfinite(r.fractionOfPeak)) {
            line << " (" << percent(r.fractionOfPeak) << "% of peak)";
        }
        if (r.cell.device.label() != baseline) {
            if (const double up = sweepSpeedUp(earlier, r, baseline); std::isfinite(up)) {
                line << ", " << fixed(up, 2) << "x " << baseline;
            }
        }
        line << phasesText(s.phases) << ", setup " << fixed(s.setupSeconds, 2) << " s";
    }
    if (const std::string left = timeLeft(p.secondsLeft); !left.empty() && !resumed) {
        line << " — " << left;
    }
    return line.str();
}

// The lists of `options` into options.spec; "" or the problem.
std::string buildSpec(SweepOptions &options) {
    SweepSpec &spec = options.spec;
    std::vector<std::string> items;
    std::string problem =
        splitList("--model", "small-cnn, resnet18 or vit-tiny", options.models, &spec.models);
    for (const auto &[flag, given, values] :
         {std::tuple{"--batch-size", &options.batchSizes, &spec.batchSizes},
          std::tuple{"--image-size", &options.imageSizes, &spec.imageSizes}}) {
        if (problem.empty()) {
            problem = splitList(flag, "a whole number", *given, &items);
        }
        if (problem.empty()) {
            problem = parseWholeNumbers(flag, items, values);
        }
    }
    std::vector<std::string> devices;
    std::vector<int> threads;
    if (problem.empty()) {
        problem = splitList("--device", "cpu, cuda or cuda:N", options.devices, &devices);
    }
    if (problem.empty()) {
        problem = splitList("--threads", "a whole number (0 = all cores)", options.threads, &items);
    }
    if (problem.empty()) {
        problem = parseWholeNumbers("--threads", items, &threads);
    }
    if (!problem.empty()) {
        return problem;
    }
    parseWorkload(options.workload, &spec.base.workload);
    if (problem = splitList("--precision", "fp32, bf16 or fp16", options.precisions, &items);
        !problem.empty())
        return problem;
    spec.precisions.clear();
    for (const std::string &item : items) {
        Precision precision = Precision::Float32;
        if (!parsePrecision(item, &precision))
            return "--precision: '" + item + "' is not fp32, bf16 or fp16";
        spec.precisions.push_back(precision);
    }
    spec.measurePeak = !options.noPeak;
    spec.devices.clear();
    for (const std::string &device : devices) {
        if (device != "cpu") {
            try {
                spec.devices.push_back(SweepDevice{resolveDevice(device), 0});
            } catch (const std::invalid_argument &e) {
                return e.what();
            }
            continue;
        }
        for (int n : threads) {
            spec.devices.push_back(SweepDevice{device, n});
        }
    }
    return options.targetAccuracy ? validateSweepGrid(spec) : validateSweepSpec(spec);
}

// The data as `run` finds it (README, "The data set"), checked before the first cell, and
// --png. kExitOk, kExitUsage or kExitNoData.
int checkData(SweepOptions &options, std::ostream &err) {
    if (!options.pngPath.empty() && !kPngAvailable) {
        err << "devicebench-cli: error: " << kPngNeedsFullBuild << "\n";
        return kExitUsage;
    }
    RunConfig &base = options.spec.base;
    if (!base.synthetic && base.dataDir.empty()) {
        if (auto dir = findDefaultDataDir()) {
            base.dataDir = *dir;
        } else {
            err << "devicebench-cli: error: no data folder given.\n" << dataDirHelp() << "\n";
            return kExitNoData;
        }
    }
    if (!base.synthetic) {
        if (const std::string problem = checkCifar10Folder(base.dataDir); !problem.empty()) {
            err << "devicebench-cli: error: " << problem << "\n";
            return kExitNoData;
        }
    }
    return kExitOk;
}

// The devices, as the grid labels them, in the cells' order.
std::vector<std::string> deviceLabels(const std::vector<SweepCell> &cells) {
    std::vector<std::string> labels;
    for (const SweepCell &cell : cells) {
        if (std::find(labels.begin(), labels.end(), cell.device.label()) == labels.end()) {
            labels.push_back(cell.device.label());
        }
    }
    return labels;
}

// --baseline among the devices, and the --out-dir, --csv and --png outputs (checkPlannedOutputs,
// against the data and the records of --out-dir too).
// "" or the first problem.
std::string checkBaselineAndOutputs(const SweepOptions &options, const std::string &baseline,
                                    const std::vector<std::string> &labels) {
    if (std::find(labels.begin(), labels.end(), baseline) == labels.end()) {
        std::string problem = "--baseline '" + baseline + "' is not one of the sweep's devices (";
        for (std::size_t i = 0; i < labels.size(); ++i) {
            problem += (i == 0 ? "" : ", ") + labels[i];
        }
        return problem + ")";
    }
    // What the sweep reads, which no output may replace: the data, the records it resumes.
    std::vector<PlannedInput> inputs = jsonFilesIn(options.outDir, "the cell record");
    if (!options.spec.base.synthetic)
        for (const std::string &file : cifar10BatchFiles(options.spec.base.dataDir))
            inputs.push_back({"the CIFAR-10 batch file", file});
    const std::vector<std::string> problems =
        checkPlannedOutputs({{"--out-dir", options.outDir, true},
                             {"--csv", options.csvPath},
                             {"--png", options.pngPath}},
                            inputs);
    if (!problems.empty())
        return problems.front();
    return {};
}

void printHeader(std::ostream &out, const SweepOptions &options, std::size_t cellCount,
                 std::size_t deviceCount) {
    const SweepSpec &spec = options.spec;
    out << "DeviceBench " << kVersion << ": sweep of " << count(cellCount, "cell", "cells") << " ("
        << count(spec.models.size(), "model", "models") << " x "
        << count(spec.batchSizes.size(), "batch size", "batch sizes") << " x "
        << count(spec.imageSizes.size(), "image size", "image sizes") << " x "
        << count(deviceCount, "device", "devices") << "), " << spec.steps << " timed steps after "
        << spec.warmupSteps << " warm-up steps, " << spec.phaseSteps << " phase-timed; records in "
        << options.outDir << "\n";
    if (spec.base.synthetic) {
        out << "SYNTHETIC DATA: times are real\n";
    }
    out.flush();
}

// The console's view of the sweep: the resumed cells, each peak, one line per cell ended
// (kept in `ended` for the speed-ups against `baseline`).
SweepObserver consoleObserver(std::ostream &out, std::vector<SweepCellRecord> &ended,
                              const std::string &baseline) {
    SweepObserver observer;
    observer.sweepStarted = [&out](const SweepProgress &p) {
        if (p.skipped > 0) {
            out << "resumed: " << p.skipped << " finished " << (p.skipped == 1 ? "cell" : "cells")
                << " kept (not redone)\n"
                << std::flush;
        }
    };
    observer.peakMeasured = [&out](const SweepDevice &d, const PeakThroughput &peak,
                                   const std::string &error) {
        out << "peak of " << d.label() << ": "
            << (error.empty() ? fixed(peak.gflops, 1) + " GFLOP/s (" + peak.method + ")"
                              : "not measured: " + error)
            << "\n"
            << std::flush;
    };
    observer.cellEnded = [&out, &ended, &baseline](const SweepCellRecord &r, const SweepProgress &p,
                                                   bool resumed) {
        ended.push_back(r);
        if (!resumed || r.result.status != RunStatus::Finished) {
            out << cellLine(r, p, ended, baseline, resumed) << "\n" << std::flush;
        }
    };
    return observer;
}

// The sweep CSV and picture where asked for. False when one could not be written.
bool writeOutputs(const SweepOptions &options, const SweepOutcome &outcome,
                  const std::string &baseline, std::ostream &out, std::ostream &err) {
    bool ok = true;
    if (!options.csvPath.empty()) {
        std::string error;
        if (writeSweepCsv(outcome.records, baseline, options.csvPath, &error)) {
            out << "wrote " << options.csvPath << "\n";
        } else {
            err << "devicebench-cli: error: " << error << "\n";
            ok = false;
        }
    }
    if (!options.pngPath.empty()) {
        std::string error;
        if (writeSweepPicture(outcome.records, baseline, options.pngPath, &error)) {
            out << "wrote " << options.pngPath << "\n";
        } else {
            err << "devicebench-cli: error: " << error << "\n";
            ok = false;
        }
    }
    return ok;
}

// --target-accuracy and the flags of a sweep to a target (cli_sweep_target.h).
void addTargetOptions(CLI::App &sweep, SweepOptions &o) {
    sweep.add_option("--target-accuracy", o.targetParsed,
                     "Time to accuracy: each cell a whole run that stops after the first epoch "
                     "whose test accuracy reaches this percentage; ranked by seconds to target");
    sweep.add_option("--epochs", o.epochs, "With a target: each cell's budget of epochs")
        ->default_val(kDefaultEpochs);
    sweep.add_option("--train-images", o.trainImages,
                     "With a target: train on the first N images (0: all)");
    sweep.add_option("--test-images", o.testImages,
                     "With a target: test on the first N images (0: all)");
    sweep.add_flag("--interleave", o.interleave,
                   "With a target: the cells' epochs in alternation (fair on a drifting machine)");
}

} // namespace

CLI::App *addSweepCommand(CLI::App &app, const CommandContext &context, CommandAction &chosen) {
    auto options = std::make_shared<SweepOptions>(); // kept by the callback
    SweepOptions &o = *options;
    auto *sweep = app.add_subcommand(
        "sweep", "Time short runs over models x batch sizes x image sizes x devices "
                 "(resumable; one record per cell)");
    sweep->add_option("--model", o.models, "Model(s): small-cnn, resnet18, vit-tiny; a list")
        ->default_str(kDefaultModel);
    sweep->add_option("--batch-size", o.batchSizes, "Batch size(s), 1..1024; a list")
        ->default_str(std::to_string(kDefaultBatchSize));
    sweep->add_option("--image-size", o.imageSizes, "Image size(s): 32, 64, 128; a list")
        ->default_str(std::to_string(kDefaultImageSize));
    sweep->add_option("--device", o.devices, "Device(s): cpu, cuda or cuda:N; a list")
        ->default_str("cpu");
    sweep
        ->add_option("--threads", o.threads,
                     "CPU thread counts (each CPU device at each); 0 = all cores; a list")
        ->default_str("0");
    sweep->add_option("--steps", o.spec.steps, "Timed steps per cell (2 or more)")->default_val(20);
    sweep->add_option("--warmup-steps", o.spec.warmupSteps, "Untimed steps before them")
        ->default_val(5);
    sweep
        ->add_option("--phase-steps", o.spec.phaseSteps,
                     "Phase-timed steps after them (device synchronised at each phase; kept "
                     "apart from images/s); 0: none")
        ->default_val(5);
    sweep
        ->add_option("--workload", o.workload,
                     workloadChoices(trainsInEngine) +
                         " (as `run`; a recipe's cells are whole runs to its target)")
        ->check(CLI::IsMember(workloadNames(trainsInEngine)))
        ->default_str(toString(Workload::Faithful));
    sweep
        ->add_option("--precision", o.precisions,
                     "Precision(s): fp32, bf16, fp16 (CUDA only), as `run`; a list")
        ->default_str("fp32");
    sweep->add_option("--seed", o.spec.base.seed, "Seed of the initial weights")
        ->check(CLI::NonNegativeNumber)
        ->default_val(kDefaultSeed);
    sweep->add_option("--lr", o.spec.base.learningRate, "Learning rate (SGD, no momentum)")
        ->default_val(kDefaultLearningRate);
    sweep->add_option("--data-dir", o.spec.base.dataDir,
                      "CIFAR-10 binary folder (default: as `run`)");
    sweep->add_flag("--synthetic", o.spec.base.synthetic,
                    "CIFAR-shaped generated data: times are real");
    sweep
        ->add_option("--out-dir", o.outDir,
                     "Sweep folder, one record per cell; the same command run again resumes")
        ->default_str("devicebench-sweep");
    sweep->add_option("--baseline", o.baseline,
                      "Speed-ups against this device, e.g. 'cpu x1' (default: the first device)");
    sweep->add_option("--csv", o.csvPath, "Write the sweep CSV (one row per cell) to FILE");
    sweep->add_option("--png", o.pngPath,
                      kPngAvailable ? "Write the sweep picture (PNG) to FILE"
                                    : "Write the sweep picture (PNG) to FILE: needs the full "
                                      "build (DEVICEBENCH_BUILD_UI=ON), refused here");
    sweep->add_flag("--no-peak", o.noPeak,
                    "Do not measure each device's peak (about 1 s each): no fraction of peak");
    addTargetOptions(*sweep, o);
    setAction(*sweep, chosen, [sweep, options, &context] {
        for (const CLI::Option *option : sweep->get_options())
            if (option->count() > 0 && !option->get_lnames().empty())
                options->givenFlags.push_back("--" + option->get_lnames().front());
        if (sweep->count("--target-accuracy") > 0) // checked with each run (validateRunConfig)
            options->targetAccuracy = options->targetParsed;
        return sweepCommand(std::move(*options), context.out, context.err, context.stopRequested);
    });
    return sweep;
}

int sweepCommand(SweepOptions options, std::ostream &out, std::ostream &err,
                 const std::atomic<bool> &stopRequested) {
    std::string problem = applySweepRecipeDefaults(options);
    if (problem.empty())
        problem = sweepModeProblem(options);
    if (!problem.empty()) {
        err << "devicebench-cli: error: " << problem << "\n";
        return kExitUsage;
    }
    if (const int code = checkData(options, err); code != kExitOk)
        return code;
    if (problem = buildSpec(options); !problem.empty()) {
        err << "devicebench-cli: error: " << problem << "\n";
        return kExitUsage;
    }
    const std::vector<SweepCell> cells = sweepCells(options.spec);
    if (options.targetAccuracy)
        return sweepToTarget(options, cells, out, err, stopRequested);
    const std::string baseline =
        options.baseline.empty() ? cells.front().device.label() : options.baseline;
    const std::vector<std::string> labels = deviceLabels(cells);
    if (problem = checkBaselineAndOutputs(options, baseline, labels); !problem.empty()) {
        err << "devicebench-cli: error: " << problem << "\n";
        return kExitUsage;
    }

    printHeader(out, options, cells.size(), labels.size());
    std::vector<SweepCellRecord> ended;
    const SweepObserver observer = consoleObserver(out, ended, baseline);
    SweepOutcome outcome;
    try {
        outcome = runSweep(options.spec, options.outDir, observer, stopRequested);
    } catch (const std::exception &e) {
        err << "devicebench-cli: error: " << e.what() << "\n";
        return kExitRunFailed;
    }
    int exitCode = outcome.failedCells > 0 ? kExitRunFailed : kExitOk;
    if (outcome.status == RunStatus::Cancelled) {
        err << "devicebench-cli: sweep stopped: " << outcome.records.size() << " of "
            << cells.size() << " cells done; run the same command again to resume\n";
        exitCode = kExitCancelled;
    } else {
        out << "sweep finished: " << outcome.records.size() << " cells, " << outcome.failedCells
            << " failed; records in " << options.outDir << "\n";
    }
    if (!writeOutputs(options, outcome, baseline, out, err))
        exitCode = exitCode == kExitOk ? kExitRunFailed : exitCode;
    return exitCode;
}

} // namespace devicebench::cli
