// SPDX-License-Identifier: MIT
// `devicebench-cli run`'s command line: its options into RunOptions (cli_run_options.h).
#include "cli_run_options.h"
#include "cli_support.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace devicebench::cli {
namespace {

// --workload's help: each workload's name and what it trains, from its row.
std::string workloadHelp() {
    std::string help;
    for (const WorkloadRow &row : kWorkloads)
        help += std::string(help.empty() ? "" : "; ") + row.name + ": " + row.help;
    return help;
}

// --script ...: a script run's script (workload script).
void declareScriptOptions(CLI::App &run, RunConfig &c) {
    run.add_option("--script", c.script,
                   "script: your training script (a Python file that uses DeviceBench's module; "
                   "its data, model and batches are its own)");
    run.add_option("--script-arg", c.scriptArgs,
                   "script: one argument for the script (its sys.argv[1:]), repeatable; write "
                   "one that begins with '-' as --script-arg=-x")
        ->expected(1)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    run.add_option("--script-timeout", c.scriptStartSeconds,
                   "script: seconds the script may take from its start to its first epoch "
                   "(importing torch, its data and model) before the run fails")
        ->default_val(kDefaultScriptStartSeconds);
}

// --device ... --image-size: what is trained, on what and how long.
void declareTrainingOptions(CLI::App &run, RunArguments &args) {
    RunConfig &c = args.options.base;
    run.add_option("--device", args.options.devices,
                   "Device(s): cpu, cuda or cuda:N; a comma-separated list runs each in turn")
        ->default_str("cpu"); // split by splitList, which refuses empty items
    run.add_option("--epochs", c.epochs, "Epochs (each = training pass + test pass)")
        ->default_val(kDefaultEpochs);
    run.add_option("--batch-size", c.batchSize, "Images per step")->default_val(kDefaultBatchSize);
    run.add_option("--lr", c.learningRate, "Learning rate (SGD, no momentum)")
        ->default_val(kDefaultLearningRate);
    run.add_option("--target-accuracy", args.targetAccuracy,
                   "Time to accuracy: stop after the first epoch whose test accuracy reaches "
                   "this percentage (above 0, at most 100); --epochs is then the budget, and the "
                   "run reports its seconds to target (docs/MEASURING.md)");
    run.add_option("--warmup-epochs", c.warmupEpochs,
                   "First N epochs are warm-up: kept, but left out of the stable mean "
                   "(default 2, or epochs - 1 when fewer)")
        ->default_str("2");
    run.add_option("--threads", args.threads,
                   "CPU threads; 0 = all cores; a comma-separated list runs each in turn")
        ->default_str("0");
    run.add_option("--seed", c.seed, "Seed of the initial weights (0 or more)")
        ->check(CLI::NonNegativeNumber)
        ->default_val(kDefaultSeed);
    run.add_option("--data-dir", c.dataDir,
                   "CIFAR-10 binary folder (default: $DEVICEBENCH_DATA, then "
                   "~/.cache/devicebench/cifar-10-batches-bin)");
    run.add_option("--train-images", c.trainImages,
                   "Use only the first N training images (0 = all 50,000)")
        ->default_val(0);
    run.add_option("--test-images", c.testImages,
                   "Use only the first N test images (0 = all 10,000)")
        ->default_val(0);
    run.add_option("--workload", args.workload, workloadHelp())
        ->check(CLI::IsMember(workloadNames()))
        ->default_str(toString(Workload::Faithful));
    run.add_option("--python", c.python,
                   "article-script and script: the Python that runs the script (needs torch; "
                   "the article's script torchvision too; checked before any run)")
        ->default_str("$DEVICEBENCH_PYTHON, else python3");
    declareScriptOptions(run, c);
    run.add_option("--precision", args.precision,
                   "fp32: the article's arithmetic; bf16: mixed precision (autocast to "
                   "bfloat16), CPU and CUDA; fp16: mixed precision with loss scaling, CUDA only")
        ->check(CLI::IsMember({"fp32", "bf16", "fp16"}))
        ->default_str("fp32");
    run.add_option("--tf32", args.tf32,
                   "CUDA: TensorFloat-32 for float32 matrix products and convolutions (Ampere "
                   "and later); default: LibTorch's own setting")
        ->check(CLI::IsMember({"default", "on", "off"}))
        ->default_str("default");
    // The model and the image size (run_types.h; the models' layers: models.h).
    run.add_option("--model", c.model,
                   "small-cnn: the article's network; resnet18: ResNet-18, CIFAR form (11.2 M "
                   "parameters); vit-tiny: a Vision Transformer of ViT-Tiny's shape, patch 4 "
                   "(5.4 M parameters)")
        ->check(
            CLI::IsMember(std::vector<std::string>(std::begin(kModelNames), std::end(kModelNames))))
        ->default_str(kDefaultModel);
    run.add_option("--image-size", c.imageSize,
                   "Pixels per image side: 32 (CIFAR-10's own), 64 or 128 (the data upsampled "
                   "once by bilinear interpolation, before epoch 1 and outside the timed epochs)")
        ->check(CLI::IsMember(std::vector<int>(std::begin(kImageSizes), std::end(kImageSizes))))
        ->default_val(kDefaultImageSize);
}

// --loss-every ... --synthetic: how the run is measured and fed.
void declareMeasuringOptions(CLI::App &run, RunConfig &c) {
    run.add_option("--loss-every", c.lossFetchInterval,
                   "Fetch step losses from the device every K steps")
        ->default_val(kDefaultLossFetchInterval);
    run.add_flag("--data-on-device", c.dataOnDevice,
                 "CUDA: hold the whole data set on the device, copied once before epoch 1 "
                 "(no effect on the CPU)");
    run.add_flag("--phases", c.phases,
                 "Time each phase of every step (data, forward, loss, backward, optimizer) and "
                 "the test pass; synchronises the device at every phase, so the run is slower "
                 "and never compared with normal runs");
    run.add_flag("--synthetic", c.synthetic,
                 "CIFAR-shaped generated data: times are real, accuracy is meaningless");
}

// --interleave: how several runs share the machine.
void declareSchedulingOptions(CLI::App &run, RunOptions &options) {
    run.add_flag("--interleave", options.interleave,
                 "Several runs (--device or --threads lists): run their epochs in alternation "
                 "(run 1 epoch 1, run 2 epoch 1, run 1 epoch 2, ...), so that a machine whose "
                 "speed drifts slows all of them alike");
}

// --csv ... --json: what the run writes.
void declareOutputOptions(CLI::App &run, RunOptions &options) {
    run.add_option("--csv", options.csvPath, "Write the per-epoch comparison CSV to FILE");
    run.add_option("--png", options.pngPath,
                   kPngAvailable ? "Write the comparison picture (PNG) to FILE"
                                 : "Write the comparison picture (PNG) to FILE: needs the full "
                                   "build (DEVICEBENCH_BUILD_UI=ON), refused here");
    run.add_option("--html", options.htmlPath,
                   "Write the HTML report of the runs (one self-contained page: answer, tables, "
                   "charts, settings; as `report`) to FILE");
    auto *recordOption = run.add_option(
        "--record", options.recordPath,
        "Write the run record (JSON, docs/run-record.md) to FILE, rewritten after every epoch; "
        "one run only");
    run.add_option("--out-dir", options.outDir,
                   "Write one run record per run to DIR/<run id>.json (DIR created if missing)")
        ->excludes(recordOption);
    run.add_option("--logdir", options.logDir,
                   "Write TensorBoard event files, one run each in DIR/<run name>/ (DIR created "
                   "if missing); view with: tensorboard --logdir DIR");
    run.add_flag("--json", options.json,
                 "Print one JSON document on stdout at the end: {\"runs\": [...], ...}; the "
                 "text goes to stderr when it is a terminal");
    addRunPublishedOptions(run, options.published);
    addCostOptions(run, options.cost);
}

// The flags of `flags` given on the command line, as "--a, --b"; "" when none, else
// `problem` of them.
template <typename Problem>
std::string givenFlags(const CLI::App &run, std::initializer_list<const char *> flags,
                       Problem problem) {
    std::string given;
    for (const char *flag : flags)
        if (run.count(flag) > 0)
            given += (given.empty() ? "" : ", ") + std::string(flag);
    return given.empty() ? given : problem(given);
}

// A user's script trains what it trains: --model, --image-size, --batch-size and --lr are
// refused with it. A recipe workload (the speedrun) trains its own network at its own learning
// rate: --model, --image-size and --lr are refused with it; its batch size, target and
// precision are the recipe's unless given. "" or the problem.
std::string applyRecipeDefaults(const CLI::App &run, RunOptions &options) {
    const WorkloadRow &row = workloadRow(options.base.workload);
    if (row.userScript())
        return givenFlags(run, {"--model", "--image-size", "--batch-size", "--lr"}, [](auto given) {
            return given + ": your script trains its own model at its own batch size and "
                           "learning rate (tell them to devicebench.run(), docs/YOUR-SCRIPT.md); "
                           "give them to the script with --script-arg";
        });
    if (!row.recipe())
        return {};
    if (std::string problem =
            givenFlags(run, {"--model", "--image-size", "--lr"},
                       [&](auto given) { return recipeFlagsProblem(row, given); });
        !problem.empty())
        return problem;
    options.base.model = row.recipeModel;
    if (run.count("--batch-size") == 0)
        options.base.batchSize = row.defaultBatchSize;
    if (run.count("--target-accuracy") == 0)
        options.base.targetAccuracy = row.defaultTargetPercent;
    options.precisionPerDevice = run.count("--precision") == 0;
    return {};
}

} // namespace

void declareRunOptions(CLI::App &run, RunArguments &args) {
    declareTrainingOptions(run, args);
    declareMeasuringOptions(run, args.options.base);
    declareSchedulingOptions(run, args.options);
    declareOutputOptions(run, args.options);
}

std::string finishRunOptions(const CLI::App &run, RunArguments &args) {
    RunOptions &options = args.options;
    options.dataDirGiven = run.count("--data-dir") > 0;
    std::vector<std::string> items;
    std::string problem = splitList("--device", "cpu, cuda or cuda:N", options.devices, &items);
    options.devices = items;
    if (problem.empty())
        problem = splitList("--threads", "a whole number (0 = all cores)", args.threads, &items);
    if (problem.empty())
        problem = parseWholeNumbers("--threads", items, &options.threads);
    if (!problem.empty())
        return problem;
    parseWorkload(args.workload, &options.base.workload);
    if (run.count("--target-accuracy") > 0) // checked with the other settings (validateRunConfig)
        options.base.targetAccuracy = args.targetAccuracy;
    const bool scriptOptions = run.count("--script") > 0 || run.count("--script-arg") > 0 ||
                               run.count("--script-timeout") > 0;
    if (scriptOptions && !workloadRow(options.base.workload).userScript())
        return "--script, --script-arg and --script-timeout are for --workload " +
               workloadChoices([](const WorkloadRow &row) { return row.userScript(); });
    parsePrecision(args.precision, &options.base.precision);
    parseTf32(args.tf32, &options.base.tf32);
    if (problem = applyRecipeDefaults(run, options); !problem.empty())
        return problem;
    if (run.count("--warmup-epochs") == 0) {
        // The article's 2 warm-up epochs, but never all of them: a 1-epoch quick run keeps
        // its only epoch as the stable one. An explicit value is checked as given.
        options.base.warmupEpochs =
            std::max(0, std::min(kDefaultWarmupEpochs, options.base.epochs - 1));
    }
    return {};
}

std::string recipeFlagsProblem(const WorkloadRow &row, const std::string &given) {
    return given + ": workload " + row.name + " trains its own network (" + row.recipeModel +
           ", 32 px) with its own learning-rate schedule (docs/SPEEDRUN.md); leave " + given +
           " out";
}

} // namespace devicebench::cli
