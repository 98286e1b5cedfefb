// SPDX-License-Identifier: MIT
// Runs of the model and image-size settings through runTraining: another image size (the data
// upsampled once before epoch 1) and the other models. Tiny synthetic runs: 8 training and 4 test
// images, batch 4, one epoch, one thread.
#include "devicebench/cifar10.h"
#include "devicebench/trainer.h"

#include <gtest/gtest.h>

#include <torch/torch.h>

#include <atomic>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

using namespace devicebench;

namespace {

class StartedObserver : public TrainingObserver {
public:
    void onRunStarted(const RunStarted &info) override {
        started = info;
        ++startedCount;
    }
    void onRunEnded(const RunOutcome & /*outcome*/) override {}
    RunStarted started;
    int startedCount = 0;
};

RunConfig tinyRun(const std::string &model, int imageSize) {
    RunConfig c;
    c.synthetic = true;
    c.model = model;
    c.imageSize = imageSize;
    c.epochs = 1;
    c.warmupEpochs = 0;
    c.batchSize = 4;
    c.trainImages = 8;
    c.testImages = 4;
    c.threads = 1;
    return c;
}

} // namespace

TEST(ResizeImages, AConstantImageStaysConstantWhenUpsampled) {
    const torch::Tensor images = torch::full({2, 3, 32, 32}, 173, torch::kUInt8);
    const torch::Tensor resized = resizeImages(images, 64);
    EXPECT_EQ(resized.sizes(), (std::vector<std::int64_t>{2, 3, 64, 64}));
    EXPECT_EQ(resized.scalar_type(), torch::kUInt8);
    EXPECT_TRUE(torch::equal(resized, torch::full({2, 3, 64, 64}, 173, torch::kUInt8)));
}

TEST(ModelRuns, ARunAtImageSize64FinishesWithTheLargerImagesCounted) {
    StartedObserver observer;
    const std::atomic<bool> stop{false};
    const RunOutcome outcome = runTraining(tinyRun("small-cnn", 64), observer, stop);
    ASSERT_EQ(outcome.status, RunStatus::Finished) << outcome.reason;
    ASSERT_EQ(outcome.epochs.size(), 1U);
    EXPECT_GT(outcome.epochs[0].seconds, 0.0);
    EXPECT_EQ(observer.started.modelParameters, 342186) << "fc1 takes 64 x 8 x 8 inputs";
    EXPECT_EQ(observer.started.multiplyAddsPerImage, (12354176 - 640) * 4 + 640);
}

TEST(ModelRuns, ResNet18AndVitTinyRunsFinishWithTheirModelDescribed) {
    for (const auto &[model, parameters] :
         {std::pair<std::string, std::int64_t>{"resnet18", 11173962}, {"vit-tiny", 5362762}}) {
        StartedObserver observer;
        const std::atomic<bool> stop{false};
        const RunOutcome outcome = runTraining(tinyRun(model, 32), observer, stop);
        ASSERT_EQ(outcome.status, RunStatus::Finished) << model << ": " << outcome.reason;
        ASSERT_EQ(outcome.epochs.size(), 1U) << model;
        EXPECT_TRUE(std::isfinite(outcome.epochs[0].testLoss)) << model;
        EXPECT_EQ(observer.startedCount, 1) << model;
        EXPECT_EQ(observer.started.modelParameters, parameters) << model;
        EXPECT_GT(observer.started.multiplyAddsPerImage, 300000000) << model;
    }
}

TEST(ModelRuns, AnUnknownModelOrImageSizeIsRefusedNamingTheValue) {
    StartedObserver observer;
    const std::atomic<bool> stop{false};
    RunConfig config = tinyRun("resnet50", 48);
    const RunOutcome outcome = runTraining(config, observer, stop);
    EXPECT_EQ(outcome.status, RunStatus::Failed);
    EXPECT_NE(outcome.reason.find("'resnet50'"), std::string::npos) << outcome.reason;
    EXPECT_NE(outcome.reason.find("48"), std::string::npos) << outcome.reason;
    EXPECT_EQ(observer.startedCount, 0);
}
