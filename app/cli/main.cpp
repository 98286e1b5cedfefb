// SPDX-License-Identifier: MIT
// devicebench-cli: trains the published experiment's CNN on CIFAR-10 without a window.
#include "cli_distributed.h"
#include "cli_fetch.h"
#include "cli_run.h"
#include "cli_support.h"
#include "cli_sweep.h"

#include "devicebench/version.h"

#include <CLI/CLI.hpp>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

namespace {

std::atomic<bool> g_stopRequested{false};

extern "C" void onStopSignal(int /*signal*/) { g_stopRequested.store(true); }

} // namespace

int main(int argc, char **argv) {
    using namespace devicebench;
    using namespace devicebench::cli;

    CLI::App app{"DeviceBench: how much faster does training run on this device than on "
                 "that one?\nTrains the published experiment's small CNN on CIFAR-10 and "
                 "times every epoch.",
                 "devicebench-cli"};
    app.set_version_flag("--version", std::string("devicebench-cli ") + kVersion);
    app.require_subcommand(1);
    std::string logLevel = "warn";
    app.add_option("--log-level", logLevel,
                   "Engine log messages on stderr: trace, debug, info, warn, error, off")
        ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "off"}))
        ->default_str("warn");
    app.footer(
        "Exit codes: 0 ok; 1 a run or sweep cell failed or diverged, or an export failed; 2 bad "
        "usage; 3 no usable data set (none found, or a bad folder or batch file); 130 stopped "
        "by SIGINT/SIGTERM.");

    RunOptions options;
    RunConfig &c = options.base;
    auto *run = app.add_subcommand(
        "run", "Train a model (default: the article's small-cnn) and time each epoch; with "
               "WORLD_SIZE and RANK set (launch, torchrun, Slurm), as one rank of a "
               "data-parallel job (docs/DISTRIBUTED.md)");
    run->add_option("--device", options.devices,
                    "Device(s): cpu, cuda or cuda:N; a comma-separated list runs each in turn")
        ->default_str("cpu"); // split by splitList, which refuses empty items
    run->add_option("--epochs", c.epochs, "Epochs (each = training pass + test pass)")
        ->default_val(kDefaultEpochs);
    run->add_option("--batch-size", c.batchSize, "Images per step")->default_val(kDefaultBatchSize);
    run->add_option("--lr", c.learningRate, "Learning rate (SGD, no momentum)")
        ->default_val(kDefaultLearningRate);
    run->add_option("--warmup-epochs", c.warmupEpochs,
                    "First N epochs are warm-up: kept, but left out of the stable mean "
                    "(default 2, or epochs - 1 when fewer)")
        ->default_str("2");
    std::vector<std::string> threadsText{"0"}; // split and parsed after CLI11, see splitList
    run->add_option("--threads", threadsText,
                    "CPU threads; 0 = all cores; a comma-separated list runs each in turn")
        ->default_str("0");
    run->add_option("--seed", c.seed, "Seed of the initial weights (0 or more)")
        ->check(CLI::NonNegativeNumber)
        ->default_val(kDefaultSeed);
    run->add_option("--data-dir", c.dataDir,
                    "CIFAR-10 binary folder (default: $DEVICEBENCH_DATA, then "
                    "~/.cache/devicebench/cifar-10-batches-bin)");
    run->add_option("--train-images", c.trainImages,
                    "Use only the first N training images (0 = all 50,000)")
        ->default_val(0);
    run->add_option("--test-images", c.testImages,
                    "Use only the first N test images (0 = all 10,000)")
        ->default_val(0);
    std::string workload = "faithful";
    run->add_option("--workload", workload,
                    "faithful: the article's computation; tuned: the same training computed the "
                    "fastest way measured (channels-last, no per-step allocation, ...)")
        ->check(CLI::IsMember({"faithful", "tuned"}))
        ->default_str("faithful");
    // Issue 13: the model and the image size (run_types.h; the models' layers: models.h).
    run->add_option("--model", c.model,
                    "small-cnn: the article's network; resnet18: ResNet-18, CIFAR form (11.2 M "
                    "parameters); vit-tiny: a Vision Transformer of ViT-Tiny's shape, patch 4 "
                    "(5.4 M parameters)")
        ->check(
            CLI::IsMember(std::vector<std::string>(std::begin(kModelNames), std::end(kModelNames))))
        ->default_str(kDefaultModel);
    run->add_option("--image-size", c.imageSize,
                    "Pixels per image side: 32 (CIFAR-10's own), 64 or 128 (the data upsampled "
                    "once by bilinear interpolation, before epoch 1 and outside the timed epochs)")
        ->check(CLI::IsMember(std::vector<int>(std::begin(kImageSizes), std::end(kImageSizes))))
        ->default_val(kDefaultImageSize);
    run->add_option("--loss-every", c.lossFetchInterval,
                    "Fetch step losses from the device every K steps")
        ->default_val(kDefaultLossFetchInterval);
    run->add_flag("--data-on-device", c.dataOnDevice,
                  "CUDA: hold the whole data set on the device, copied once before epoch 1 "
                  "(no effect on the CPU)");
    run->add_flag("--phases", c.phases,
                  "Time each phase of every step (data, forward, loss, backward, optimizer) and "
                  "the test pass; synchronises the device at every phase, so the run is slower "
                  "and never compared with normal runs");
    run->add_flag("--synthetic", c.synthetic,
                  "CIFAR-shaped generated data: times are real, accuracy is meaningless");
    run->add_option("--csv", options.csvPath, "Write the per-epoch comparison CSV to FILE");
    run->add_option("--png", options.pngPath,
                    kPngAvailable ? "Write the comparison picture (PNG) to FILE"
                                  : "Write the comparison picture (PNG) to FILE: needs the full "
                                    "build (DEVICEBENCH_BUILD_UI=ON), refused here");
    auto *recordOption = run->add_option(
        "--record", options.recordPath,
        "Write the run record (JSON, docs/run-record.md) to FILE, rewritten after every epoch; "
        "one run only");
    run->add_option("--out-dir", options.outDir,
                    "Write one run record per run to DIR/<run id>.json (DIR created if missing)")
        ->excludes(recordOption);
    run->add_option("--logdir", options.logDir,
                    "Write TensorBoard event files, one run each in DIR/<run name>/ (DIR created "
                    "if missing); view with: tensorboard --logdir DIR");
    run->add_flag("--json", options.json,
                  "Print one JSON document on stdout at the end: {\"runs\": [...], ...}; the "
                  "text goes to stderr when it is a terminal");

    addDistributedRunOptions(*run, options);
    LaunchOptions launchOptions;
    auto *launch = addLaunchCommand(app, launchOptions);

    bool devicesAsJson = false;
    auto *devices = app.add_subcommand(
        "devices", "List the devices, each probed, and this machine's fingerprint");
    devices->add_flag("--json", devicesAsJson,
                      "Print {\"devices\": [...], \"fingerprint\": {...}} as JSON");

    CompareOptions compareOptions;
    auto *compare = app.add_subcommand(
        "compare", "Compare run records (made here or elsewhere): table, PNG and CSV");
    compare->add_option("records", compareOptions.records, "Run record files (JSON)")->required();
    compare->add_option("--csv", compareOptions.csvPath,
                        "Write the per-epoch CSV to FILE and the per-run summary to "
                        "FILE-summary.csv beside it");
    compare->add_option("--png", compareOptions.pngPath,
                        kPngAvailable ? "Write the comparison picture to FILE"
                                      : "Write the comparison picture to FILE: needs the full "
                                        "build (DEVICEBENCH_BUILD_UI=ON), refused here");
    auto *baselineOption = compare->add_option(
        "--baseline", compareOptions.baseline,
        "Speed-ups against the N-th record given, from 1 (default: the slowest run)");
    compare
        ->add_option("--warmup-epochs", compareOptions.warmupEpochs,
                     "Warm-up epochs for every run (default: each run's own)")
        ->check(CLI::Range(0, 100000));
    compare->add_flag("--json", compareOptions.json,
                      "Print one JSON document on stdout: {\"runs\": [...], \"control\": [...], "
                      "...}; the table goes to stderr when it is a terminal");

    FetchDataOptions fetchOptions;
    addFetchDataCommand(app, fetchOptions);

    SweepOptions sweepOptions;
    addSweepCommand(app, sweepOptions);

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError &e) {
        // "devicebench-cli frobnicate": CLI11 would say "A subcommand is required"; name the
        // word instead.
        if (app.get_subcommands().empty()) {
            for (const std::string &word : app.remaining()) {
                if (!word.empty() && word[0] != '-') {
                    std::string names;
                    for (const CLI::App *sub :
                         app.get_subcommands([](CLI::App *) { return true; })) {
                        names += (names.empty() ? "" : ", ") + sub->get_name();
                    }
                    std::cerr << "devicebench-cli: error: unknown subcommand '" << word
                              << "' (the subcommands are " << names << ")\n";
                    return kExitUsage;
                }
            }
        }
        if (launch->parsed() && dynamic_cast<const CLI::ExtrasError *>(&e) != nullptr)
            std::cerr << "devicebench-cli launch: put `--` before the run command: "
                         "devicebench-cli launch --nproc-per-node N -- run ...\n";
        const int code = app.exit(e);
        return code == 0 ? kExitOk : kExitUsage;
    }
    // Log lines go to stderr, so stdout stays the results only.
    spdlog::set_default_logger(spdlog::stderr_color_mt("devicebench"));
    spdlog::set_level(spdlog::level::from_str(logLevel));

    options.dataDirGiven = run->count("--data-dir") > 0;
    compareOptions.baselineGiven = baselineOption->count() > 0;
    {
        std::vector<std::string> items;
        std::string problem = splitList("--device", "cpu, cuda or cuda:N", options.devices, &items);
        options.devices = items;
        if (problem.empty()) {
            problem = splitList("--threads", "a whole number (0 = all cores)", threadsText, &items);
        }
        if (problem.empty()) {
            problem = parseWholeNumbers("--threads", items, &options.threads);
        }
        if (!problem.empty()) {
            std::cerr << "devicebench-cli: error: " << problem << "\n";
            return kExitUsage;
        }
    }
    parseWorkload(workload, &c.workload);
    if (run->count("--warmup-epochs") == 0) {
        // The article's 2 warm-up epochs, but never all of them: a 1-epoch quick run keeps
        // its only epoch as the stable one. An explicit value is checked as given.
        c.warmupEpochs = std::max(0, std::min(kDefaultWarmupEpochs, c.epochs - 1));
    }

    std::signal(SIGINT, onStopSignal);
    std::signal(SIGTERM, onStopSignal);

    if (app.got_subcommand("compare")) {
        return compareCommand(compareOptions, std::cout, std::cerr);
    }
    if (app.got_subcommand("devices")) {
        return devicesCommand(std::cout, devicesAsJson);
    }
    if (app.got_subcommand("fetch-data")) {
        return fetchDataCommand(fetchOptions, std::cout, std::cerr, stderrIsTerminal(),
                                g_stopRequested);
    }
    if (app.got_subcommand("sweep")) {
        return sweepCommand(std::move(sweepOptions), std::cout, std::cerr, g_stopRequested);
    }
    if (app.got_subcommand("launch")) {
        std::signal(SIGHUP, onStopSignal); // a closed terminal stops the job as Ctrl-C does
        std::error_code ec;
        const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
        return launchCommand(launchOptions, ec ? std::string(argv[0]) : self.string(), std::cout,
                             std::cerr, g_stopRequested);
    }
    // A rank of a data-parallel job (torchrun, Slurm, `launch`): WORLD_SIZE and RANK are set.
    LaunchEnvironment environment;
    try {
        environment = readLaunchEnvironment();
    } catch (const DistributedError &e) {
        std::cerr << "devicebench-cli: error: " << e.what() << "\n";
        return kExitUsage;
    }
    if (!environment.present &&
        (options.globalBatchSize > 0 || !options.backend.empty() || run->count("--timeout") > 0)) {
        std::cerr << "devicebench-cli: error: --global-batch-size, --backend and --timeout are "
                     "for a rank of a data-parallel job (WORLD_SIZE and RANK set: use `launch`, "
                     "torchrun or Slurm)\n";
        return kExitUsage;
    }
    if (environment.present)
        return distributedRunCommand(std::move(options), environment, std::cout, std::cerr,
                                     g_stopRequested);
    return runCommand(std::move(options), std::cout, std::cerr, g_stopRequested);
}
