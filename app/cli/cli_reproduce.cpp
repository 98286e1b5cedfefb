// SPDX-License-Identifier: MIT
// `devicebench-cli reproduce` (cli_reproduce.h).
#include "cli_reproduce.h"
#include "cli_planned_runs.h"
#include "cli_published.h"
#include "cli_run.h"
#include "cli_support.h"

#include "devicebench/article_script.h"
#include "devicebench/devices.h"
#include "devicebench/reproduction.h"
#include "devicebench/resource_files.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <memory>
#include <ostream>
#include <sstream>

namespace devicebench::cli {
namespace {

// Every device a run can start on here: the CPU and each CUDA device whose probe passed.
std::vector<std::string> usableDevices() {
    std::vector<std::string> devices;
    for (const DeviceInfo &device : listDevices()) {
        if (device.usable)
            devices.push_back(device.id);
    }
    return devices;
}

std::string joinedDevices(const std::vector<std::string> &devices) {
    std::string text;
    for (const std::string &device : devices)
        text += (text.empty() ? "" : ", ") + device;
    return text;
}

// The line after the header: what is reproduced, where, and what was overridden.
std::string introLine(const PublishedSet &set, const ReproduceOptions &options,
                      const std::vector<std::string> &devices) {
    const PublishedSettings &s = set.settings;
    std::ostringstream line;
    line << "reproducing " << set.source.shortName << " on " << joinedDevices(devices)
         << ": on each device the article's script (" << articleScriptPython(options.base)
         << "), then DeviceBench's faithful workload, interleaved, at the published settings ("
         << s.model << ", batch size " << s.batchSize << ", " << s.epochs << " epochs, "
         << s.warmupEpochs << " warm-up, learning rate " << s.learningRate << ", "
         << shortName(s.precision) << ", all images)";
    std::string overridden;
    if (options.epochs > 0)
        overridden += ", epochs " + std::to_string(options.epochs);
    if (options.trainImages > 0)
        overridden += ", training images " + std::to_string(options.trainImages);
    if (options.testImages > 0)
        overridden += ", test images " + std::to_string(options.testImages);
    if (!overridden.empty())
        line << "; overridden: " << overridden.substr(2) << " (so the rows say other settings)";
    return line.str();
}

// The options `run` would have for these runs: one interleaved run set, the published block
// always shown.
RunOptions runOptionsOf(const ReproduceOptions &options, const std::vector<std::string> &devices) {
    RunOptions run;
    run.devices = devices;
    run.threads = {options.base.threads};
    run.base = options.base;
    run.base.synthetic = false;
    run.csvPath = options.csvPath;
    run.pngPath = options.pngPath;
    run.outDir = options.outDir;
    run.json = options.json;
    run.interleave = true;
    run.published = PublishedOptions{true, "", 0};
    run.baselineRun = 1; // the first device's script run
    run.cost = options.cost;
    return run;
}

// The built-in reference file of the article's script; null, said on `err`, when not found.
const PublishedSet *findArticleSet(const PublishedLoad &load, std::ostream &err) {
    const PublishedSet *set = articleSet(load.sets);
    if (set == nullptr)
        err << "devicebench-cli: error: reproduce needs the article's published results, a "
               "reference file whose program is the article's script (published/article.json "
               "in "
            << (resourceDir().empty() ? std::string("the program's share/devicebench")
                                      : resourceDir())
            << "; set " << kResourcesVariable << " to the folder that holds published/)\n";
    return set;
}

} // namespace

std::vector<RunConfig> reproducePlan(const PublishedSet &set, const ReproduceOptions &options,
                                     const std::vector<std::string> &devices) {
    std::vector<RunConfig> runs = reproductionRuns(set, options.base, devices);
    for (RunConfig &c : runs) {
        if (options.epochs > 0) {
            c.epochs = options.epochs;
            c.warmupEpochs = std::max(0, std::min(c.warmupEpochs, options.epochs - 1));
        }
        if (options.trainImages > 0)
            c.trainImages = options.trainImages;
        if (options.testImages > 0)
            c.testImages = options.testImages;
    }
    return runs;
}

int reproduceCommand(ReproduceOptions options, std::ostream &out, std::ostream &err,
                     const std::atomic<bool> &stopRequested) {
    const PublishedLoad load = loadPublished(publishedFolders());
    const PublishedSet *set = findArticleSet(load, err);
    if (set == nullptr)
        return kExitUsage;
    const std::vector<std::string> devices =
        options.devices.empty() ? usableDevices() : options.devices;
    RunOptions run = runOptionsOf(options, devices);
    if (const int code = checkRunOptions(run, err); code != kExitOk)
        return code;
    options.base.dataDir = run.base.dataDir; // the default folder, when none was given
    std::vector<RunConfig> plan = reproducePlan(*set, options, devices);
    for (RunConfig &config : plan) {
        if (!checkRunConfig(&config, err))
            return kExitUsage;
    }
    return runPlanned(run, plan, "reproduce", introLine(*set, options, run.devices), out, err,
                      stopRequested);
}

CLI::App *addReproduceCommand(CLI::App &app, const CommandContext &context, CommandAction &chosen) {
    auto *command = app.add_subcommand(
        "reproduce", "Reproduce the article: on every device here, the article's own script and "
                     "DeviceBench's faithful workload at the published settings, interleaved; "
                     "then the article's table with your rows beside it");
    auto options = std::make_shared<ReproduceOptions>(); // kept by the callback
    auto devices = std::make_shared<std::vector<std::string>>();
    RunConfig &c = options->base;
    command->add_option("--device", *devices,
                        "Device(s): cpu, cuda or cuda:N, comma-separated (default: cpu and each "
                        "usable CUDA device, as `devices` finds them)");
    command->add_option("--data-dir", c.dataDir,
                        "CIFAR-10 binary folder (default: $DEVICEBENCH_DATA, then "
                        "~/.cache/devicebench/cifar-10-batches-bin)");
    command
        ->add_option("--python", c.python,
                     "The Python that runs the article's script (needs torch and torchvision; "
                     "checked before any run)")
        ->default_str("$DEVICEBENCH_PYTHON, else python3");
    command->add_option("--threads", c.threads, "CPU threads; 0 = all cores")->default_val(0);
    command->add_option("--seed", c.seed, "Seed of the initial weights (0 or more)")
        ->check(CLI::NonNegativeNumber)
        ->default_val(kDefaultSeed);
    command->add_option("--out-dir", options->outDir,
                        "Write one run record per run to DIR/<run id>.json (DIR created if "
                        "missing)");
    command->add_option("--csv", options->csvPath,
                        "Write the per-epoch CSV to FILE and the summary, with the published "
                        "rows, to FILE-summary.csv");
    command->add_option("--png", options->pngPath, "Write the comparison picture (PNG) to FILE");
    command->add_flag("--json", options->json, "Print one JSON document on stdout at the end");
    command
        ->add_option("--epochs", options->epochs,
                     "A quick look: N epochs instead of the published 10 (other settings)")
        ->check(CLI::PositiveNumber);
    command
        ->add_option("--train-images", options->trainImages,
                     "A quick look: only the first N training images (other settings)")
        ->check(CLI::NonNegativeNumber);
    command
        ->add_option("--test-images", options->testImages,
                     "A quick look: only the first N test images (other settings)")
        ->check(CLI::NonNegativeNumber);
    addCostOptions(*command, options->cost);
    setAction(*command, chosen, [command, options, devices, &context] {
        if (command->count("--device") > 0) {
            std::vector<std::string> items;
            if (const std::string problem =
                    splitList("--device", "cpu, cuda or cuda:N", *devices, &items);
                !problem.empty()) {
                context.err << "devicebench-cli: error: " << problem << "\n";
                return static_cast<int>(kExitUsage);
            }
            options->devices = items;
        }
        return reproduceCommand(*options, context.out, context.err, context.stopRequested);
    });
    return command;
}

} // namespace devicebench::cli
