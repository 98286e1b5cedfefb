// SPDX-License-Identifier: MIT
// validateRunConfig (trainer.h): every setting of a run checked before it starts, with the
// message each front end shows.
#include "devicebench/trainer.h"

#include "run_stop.h"

#include "devicebench/cifar10_format.h"
#include "devicebench/time_to_target.h"

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <string>
#include <system_error>
#include <vector>

namespace devicebench {
namespace {

using detail::formatNumber;

constexpr int kMaxThreads = 1024;

// What the article's script cannot do: it trains its own network at CIFAR-10's size in float32
// from the data files, as published (docs/article-workload.md).
void addArticleScriptProblems(const RunConfig &c, std::vector<std::string> *errors) {
    const std::string script = "the article's script (workload article-script) ";
    if (c.model != kDefaultModel)
        errors->push_back(script + "trains small-cnn only (got model " + c.model + ")");
    if (c.imageSize != kDefaultImageSize)
        errors->push_back(script + "trains at 32 x 32 pixels only (got image size " +
                          std::to_string(c.imageSize) + ")");
    if (c.precision != Precision::Float32)
        errors->push_back(script + "trains in fp32 only (got precision " + shortName(c.precision) +
                          ")");
    if (c.tf32 != Tf32::Default)
        errors->push_back(script + "leaves TF32 as torch sets it (got tf32 " + toString(c.tf32) +
                          ")");
    if (c.phases)
        errors->push_back(script + "cannot time phases");
    if (c.dataOnDevice)
        errors->push_back(script + "reads its batches from the host (data on device is not "
                                   "offered)");
    if (c.synthetic)
        errors->push_back(script + "reads CIFAR-10's files: synthetic data is not offered "
                                   "(give a data folder)");
}

// A target accuracy: a percentage, and a budget of epochs that can say more than whether the
// first evaluation reached it.
void addTargetProblems(const RunConfig &c, std::vector<std::string> *errors) {
    if (!c.targetAccuracy)
        return;
    if (std::string problem = targetAccuracyProblem(*c.targetAccuracy); !problem.empty())
        errors->push_back(std::move(problem));
    if (c.epochs >= 1 && c.epochs < kMinTargetEpochs)
        errors->push_back("a target accuracy needs a budget of at least " +
                          std::to_string(kMinTargetEpochs) + " epochs (got " +
                          std::to_string(c.epochs) +
                          "): one epoch says only whether the first evaluation reached it");
}

// What a user's script run needs: the script, a file; the settings DeviceBench hands it
// (device, threads, epochs, warm-up, seed, loss fetch interval) are checked as for any run;
// the model, data and arithmetic are the script's own, so those settings are refused.
void addScriptProblems(const RunConfig &c, std::vector<std::string> *errors) {
    std::error_code ec;
    if (c.script.empty())
        errors->push_back("no training script given (workload script needs one)");
    else if (!std::filesystem::exists(c.script, ec))
        errors->push_back("the training script " + c.script + " does not exist");
    else if (!std::filesystem::is_regular_file(c.script, ec))
        errors->push_back("the training script " + c.script + " is not a file");
    if (c.scriptStartSeconds < 1)
        errors->push_back("the script's start time limit must be at least 1 second (got " +
                          std::to_string(c.scriptStartSeconds) + ")");
    const std::string script = "a script run (workload script) ";
    if (c.phases)
        errors->push_back(script + "cannot time phases");
    if (c.dataOnDevice)
        errors->push_back(script + "reads its own data (data on device is not offered)");
    if (c.precision != Precision::Float32)
        errors->push_back(script + "computes in the script's own precision (got precision " +
                          std::string(shortName(c.precision)) + ")");
    if (c.tf32 != Tf32::Default)
        errors->push_back(script + "leaves TF32 as the script sets it (got tf32 " +
                          toString(c.tf32) + ")");
}

// A recipe trains its own network at 32 px, on whole batches, without phase timing.
void addRecipeProblems(const RunConfig &c, const WorkloadRow &row,
                       std::vector<std::string> *errors) {
    const std::string recipe = std::string("workload ") + row.name + " ";
    if (c.model != row.recipeModel)
        errors->push_back(recipe + "trains its own network, " + row.recipeModel + " (got model '" +
                          c.model + "'; leave the model out)");
    if (c.imageSize != kDefaultImageSize)
        errors->push_back(recipe + "trains on 32 x 32 images (got image size " +
                          std::to_string(c.imageSize) + ")");
    if (c.phases)
        errors->push_back(recipe + "is not phase-timed (its steps are its own)");
}

} // namespace

std::vector<std::string> validateRunConfig(const RunConfig &c) {
    std::vector<std::string> errors;
    if (c.device.empty()) {
        errors.push_back("device must not be empty (use cpu, cuda or cuda:N)");
    }
    if (c.epochs < 1) {
        errors.push_back("epochs must be at least 1 (got " + std::to_string(c.epochs) + ")");
    }
    if (c.batchSize < 1) {
        errors.push_back("batch size must be at least 1 (got " + std::to_string(c.batchSize) + ")");
    }
    if (!std::isfinite(c.learningRate) || c.learningRate <= 0.0) {
        errors.push_back("learning rate must be a finite number above 0 (got " +
                         formatNumber(c.learningRate) + ")");
    } else if (c.learningRate > static_cast<double>(std::numeric_limits<float>::max())) {
        // The SGD step multiplies float32 tensors by it: LibTorch refuses it mid-run otherwise.
        errors.push_back("learning rate must be at most " +
                         formatNumber(static_cast<double>(std::numeric_limits<float>::max())) +
                         ", the largest float32 (got " + formatNumber(c.learningRate) + ")");
    }
    addTargetProblems(c, &errors);
    if (c.warmupEpochs < 0) {
        errors.push_back("warm-up epochs must not be negative (got " +
                         std::to_string(c.warmupEpochs) + ")");
    } else if (c.epochs >= 1 && c.warmupEpochs >= c.epochs) {
        errors.push_back("warm-up epochs (" + std::to_string(c.warmupEpochs) +
                         ") must be fewer than epochs (" + std::to_string(c.epochs) +
                         "), or no epoch is left for the stable mean");
    }
    if (c.threads < 0 || c.threads > kMaxThreads) {
        errors.push_back("threads must be between 1 and 1024, or 0 for all cores (got " +
                         std::to_string(c.threads) + ")");
    }
    if (c.trainImages < 0 || c.trainImages > kCifarTrainImages) {
        errors.push_back("training images must be between 1 and 50000, or 0 for all (got " +
                         std::to_string(c.trainImages) + ")");
    }
    if (c.testImages < 0 || c.testImages > kCifarTestImages) {
        errors.push_back("test images must be between 1 and 10000, or 0 for all (got " +
                         std::to_string(c.testImages) + ")");
    }
    const std::int64_t trainSet = c.trainImages > 0 ? c.trainImages : kCifarTrainImages;
    if (c.batchSize > trainSet) {
        errors.push_back("batch size (" + std::to_string(c.batchSize) +
                         ") is larger than the training set (" + std::to_string(trainSet) +
                         " images)");
    }
    if (c.lossFetchInterval < 1) {
        errors.push_back("loss fetch interval must be at least 1 step (got " +
                         std::to_string(c.lossFetchInterval) + ")");
    }
    // The rest as the workload's row says: a user's script has its own model and data.
    const WorkloadRow &workload = workloadRow(c.workload);
    if (workload.userScript())
        addScriptProblems(c, &errors);
    if (workload.recipe())
        addRecipeProblems(c, workload, &errors);
    else if (workload.engineModel && !isKnownModel(c.model)) {
        errors.push_back("model '" + c.model +
                         "' is not known (use small-cnn, resnet18 or vit-tiny)");
    }
    if (workload.engineModel && !isSupportedImageSize(c.imageSize)) {
        errors.push_back("image size must be 32, 64 or 128 pixels (got " +
                         std::to_string(c.imageSize) + ")");
    }
    if (!workload.ownData && !c.synthetic && c.dataDir.empty()) {
        errors.push_back("no data folder given (set one, or choose synthetic data)");
    }
    if (workload.engineModel) {
        if (std::string problem = precisionProblem(c.precision, c.device); !problem.empty())
            errors.push_back(std::move(problem));
    }
    if (workload.runner == WorkloadRunner::ArticleScript)
        addArticleScriptProblems(c, &errors);
    return errors;
}

} // namespace devicebench
