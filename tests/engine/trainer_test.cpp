// SPDX-License-Identifier: MIT
#include "devicebench/trainer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

using namespace devicebench;

namespace {

// Records every event, in order.
class RecordingObserver : public TrainingObserver {
public:
    void onRunStarted(const RunStarted &info) override {
        events.push_back("started");
        started = info;
    }
    void onStepLosses(const std::vector<StepLoss> &losses) override {
        events.push_back("steps");
        steps.insert(steps.end(), losses.begin(), losses.end());
        if (stopAfterSteps > 0 && static_cast<int>(steps.size()) >= stopAfterSteps) {
            stop->store(true);
        }
    }
    void onEpochFinished(const EpochResult &e) override {
        events.push_back("epoch");
        epochs.push_back(e);
    }
    void onRunEnded(const RunOutcome &o) override {
        events.push_back("ended");
        ++ended;
        outcome = o;
    }
    std::vector<std::string> events;
    RunStarted started;
    std::vector<StepLoss> steps;
    std::vector<EpochResult> epochs;
    RunOutcome outcome;
    int ended = 0;
    int stopAfterSteps = 0;
    std::atomic<bool> *stop = nullptr;
};

RunConfig tinyConfig() {
    RunConfig c;
    c.synthetic = true;
    c.epochs = 2;
    c.warmupEpochs = 1;
    c.batchSize = 16;
    c.trainImages = 160; // 10 steps per epoch
    c.testImages = 40;
    c.threads = 1;
    c.lossFetchInterval = 4;
    return c;
}

} // namespace

TEST(Trainer, RunsEveryEpochAndEndsOnceAsFinished) {
    RecordingObserver obs;
    std::atomic<bool> stop{false};
    const RunOutcome out = runTraining(tinyConfig(), obs, stop);
    EXPECT_EQ(out.status, RunStatus::Finished) << out.reason;
    EXPECT_EQ(obs.ended, 1);
    EXPECT_EQ(obs.events.front(), "started");
    EXPECT_EQ(obs.events.back(), "ended");
    ASSERT_EQ(obs.epochs.size(), 2u);
    EXPECT_TRUE(obs.epochs[0].warmup);
    EXPECT_FALSE(obs.epochs[1].warmup);
    EXPECT_GT(obs.epochs[1].seconds, 0.0);
    EXPECT_NEAR(obs.epochs[1].imagesPerSecond * obs.epochs[1].seconds, 200.0, 1e-6);
    EXPECT_TRUE(obs.started.synthetic);
    EXPECT_EQ(obs.started.stepsPerEpoch, 10);
    EXPECT_EQ(obs.started.threads, 1);
    EXPECT_TRUE(out.summary.hasStable);
    EXPECT_DOUBLE_EQ(out.summary.stableMean, obs.epochs[1].seconds);
}

TEST(Trainer, DeliversEveryStepLossInBatchesOfK) {
    RecordingObserver obs;
    std::atomic<bool> stop{false};
    runTraining(tinyConfig(), obs, stop);
    ASSERT_EQ(obs.steps.size(), 20u);
    for (std::size_t i = 0; i < obs.steps.size(); ++i) {
        EXPECT_EQ(obs.steps[i].step, static_cast<std::int64_t>(i) + 1);
        EXPECT_EQ(obs.steps[i].epoch, i < 10 ? 1 : 2);
        EXPECT_TRUE(std::isfinite(obs.steps[i].loss));
    }
    // 10 steps per epoch with K = 4: batches of 4, 4, 2 per epoch -> 6 "steps" events.
    EXPECT_EQ(std::count(obs.events.begin(), obs.events.end(), "steps"), 6);
    // The epoch's training loss is the mean of its step losses.
    double sum = 0.0;
    for (int i = 0; i < 10; ++i) {
        sum += obs.steps[static_cast<std::size_t>(i)].loss;
    }
    EXPECT_NEAR(obs.epochs[0].trainLoss, sum / 10.0, 1e-9);
}

TEST(Trainer, SameSeedGivesTheSameLossesAndAccuracy) {
    RecordingObserver a, b;
    std::atomic<bool> stop{false};
    runTraining(tinyConfig(), a, stop);
    runTraining(tinyConfig(), b, stop);
    ASSERT_EQ(a.steps.size(), b.steps.size());
    for (std::size_t i = 0; i < a.steps.size(); ++i) {
        EXPECT_DOUBLE_EQ(a.steps[i].loss, b.steps[i].loss);
    }
    EXPECT_DOUBLE_EQ(a.epochs[1].testLoss, b.epochs[1].testLoss);
}

TEST(Trainer, StopRequestEndsTheRunAsCancelledWithinOneStep) {
    RecordingObserver obs;
    std::atomic<bool> stop{false};
    RunConfig c = tinyConfig();
    c.epochs = 3;
    c.lossFetchInterval = 1; // the observer sees each step as it happens
    obs.stop = &stop;
    obs.stopAfterSteps = 13; // mid-epoch 2
    const RunOutcome out = runTraining(c, obs, stop);
    EXPECT_EQ(out.status, RunStatus::Cancelled);
    EXPECT_EQ(obs.ended, 1);
    EXPECT_EQ(obs.steps.size(), 13u) << "no step may run after the stop request";
    ASSERT_EQ(out.epochs.size(), 1u) << "the finished epoch is kept";
    EXPECT_NE(out.reason.find("epoch 2"), std::string::npos) << out.reason;
}

TEST(Trainer, StopFromAnotherThreadEndsTheRunPromptly) {
    RecordingObserver obs;
    std::atomic<bool> stop{false};
    RunConfig c = tinyConfig();
    c.epochs = 1000;
    c.warmupEpochs = 0;
    std::thread stopper([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        stop.store(true);
    });
    const auto t0 = std::chrono::steady_clock::now();
    const RunOutcome out = runTraining(c, obs, stop);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    stopper.join();
    EXPECT_EQ(out.status, RunStatus::Cancelled);
    EXPECT_LT(seconds, 5.0);
}

TEST(Trainer, InvalidSettingsFailWithTheFieldNamedAndNoRunStarted) {
    RecordingObserver obs;
    std::atomic<bool> stop{false};
    RunConfig c = tinyConfig();
    c.batchSize = 0;
    const RunOutcome out = runTraining(c, obs, stop);
    EXPECT_EQ(out.status, RunStatus::Failed);
    EXPECT_NE(out.reason.find("batch size must be at least 1 (got 0)"), std::string::npos)
        << out.reason;
    EXPECT_EQ(obs.events, (std::vector<std::string>{"ended"}));
}

TEST(Trainer, MissingDataFolderFailsNamingThePath) {
    RecordingObserver obs;
    std::atomic<bool> stop{false};
    RunConfig c = tinyConfig();
    c.synthetic = false;
    c.dataDir = "/no/such/cifar";
    const RunOutcome out = runTraining(c, obs, stop);
    EXPECT_EQ(out.status, RunStatus::Failed);
    EXPECT_NE(out.reason.find("/no/such/cifar"), std::string::npos) << out.reason;
    EXPECT_EQ(obs.ended, 1);
}

TEST(Trainer, HugeLearningRateEndsAsDivergedKeepingFinishedEpochs) {
    RecordingObserver obs;
    std::atomic<bool> stop{false};
    RunConfig c = tinyConfig();
    c.learningRate = 1e6;
    c.epochs = 5;
    const RunOutcome out = runTraining(c, obs, stop);
    EXPECT_EQ(out.status, RunStatus::Diverged) << out.reason;
    EXPECT_NE(out.reason.find("training loss became"), std::string::npos) << out.reason;
    EXPECT_EQ(obs.ended, 1);
    EXPECT_FALSE(std::isfinite(obs.steps.back().loss));
}

TEST(RunConfigValidation, DefaultsAreTheArticlesAndValid) {
    RunConfig c;
    c.dataDir = "/some/dir";
    EXPECT_TRUE(validateRunConfig(c).empty());
    EXPECT_EQ(c.epochs, 10);
    EXPECT_EQ(c.batchSize, 64);
    EXPECT_DOUBLE_EQ(c.learningRate, 0.01);
    EXPECT_EQ(c.warmupEpochs, 2);
    EXPECT_EQ(c.seed, 0u);
}

struct BadConfigCase {
    const char *name;
    void (*mutate)(RunConfig &);
    const char *expected;
};

// Readable test names in ctest output instead of the struct's bytes.
void PrintTo(const BadConfigCase &c, std::ostream *os) { *os << c.name; }

class RunConfigRejects : public ::testing::TestWithParam<BadConfigCase> {};

TEST_P(RunConfigRejects, NamesTheFieldAndValue) {
    RunConfig c;
    c.synthetic = true;
    GetParam().mutate(c);
    const auto errors = validateRunConfig(c);
    ASSERT_FALSE(errors.empty());
    std::string all;
    for (const auto &e : errors) {
        all += e + "\n";
    }
    EXPECT_NE(all.find(GetParam().expected), std::string::npos) << all;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, RunConfigRejects,
    ::testing::Values(
        BadConfigCase{"ZeroEpochs", [](RunConfig &c) { c.epochs = 0; },
                      "epochs must be at least 1 (got 0)"},
        BadConfigCase{"NegativeEpochs", [](RunConfig &c) { c.epochs = -3; }, "(got -3)"},
        BadConfigCase{"NegativeBatch", [](RunConfig &c) { c.batchSize = -1; },
                      "batch size must be at least 1 (got -1)"},
        BadConfigCase{"BatchOverTrainingSet",
                      [](RunConfig &c) {
                          c.trainImages = 100;
                          c.batchSize = 101;
                      },
                      "larger than the training set (100 images)"},
        BadConfigCase{"ZeroLr", [](RunConfig &c) { c.learningRate = 0.0; },
                      "learning rate must be a finite number above 0 (got 0)"},
        BadConfigCase{"NegativeLr", [](RunConfig &c) { c.learningRate = -0.1; }, "(got -0.1)"},
        BadConfigCase{"NanLr", [](RunConfig &c) { c.learningRate = std::nan(""); }, "(got nan)"},
        BadConfigCase{"InfLr", [](RunConfig &c) { c.learningRate = HUGE_VAL; }, "(got inf)"},
        BadConfigCase{"LrBeyondFloat32", [](RunConfig &c) { c.learningRate = 1e308; },
                      "the largest float32 (got 1e+308)"},
        BadConfigCase{"TooManyThreads", [](RunConfig &c) { c.threads = 1025; },
                      "threads must be between 1 and 1024"},
        BadConfigCase{"NegativeThreads", [](RunConfig &c) { c.threads = -1; }, "(got -1)"},
        BadConfigCase{"WarmupNotBelowEpochs",
                      [](RunConfig &c) {
                          c.epochs = 2;
                          c.warmupEpochs = 2;
                      },
                      "warm-up epochs (2) must be fewer than epochs (2)"},
        BadConfigCase{"TrainImagesBeyondSplit", [](RunConfig &c) { c.trainImages = 50001; },
                      "training images must be between 1 and 50000"},
        BadConfigCase{"TestImagesBeyondSplit", [](RunConfig &c) { c.testImages = 10001; },
                      "test images must be between 1 and 10000"},
        BadConfigCase{"EmptyDevice", [](RunConfig &c) { c.device = ""; },
                      "device must not be empty"},
        BadConfigCase{"TargetAtZero", [](RunConfig &c) { c.targetAccuracy = 0.0; },
                      "above 0 and at most 100 (got 0)"},
        BadConfigCase{"TargetOver100", [](RunConfig &c) { c.targetAccuracy = 100.5; },
                      "above 0 and at most 100 (got 100.5)"},
        BadConfigCase{"TargetNegative", [](RunConfig &c) { c.targetAccuracy = -5.0; }, "(got -5)"},
        BadConfigCase{"TargetNotANumber", [](RunConfig &c) { c.targetAccuracy = std::nan(""); },
                      "target accuracy must be a number"},
        BadConfigCase{"TargetWithOneEpoch",
                      [](RunConfig &c) {
                          c.epochs = 1;
                          c.warmupEpochs = 0;
                          c.targetAccuracy = 50.0;
                      },
                      "a target accuracy needs a budget of at least 2 epochs (got 1)"},
        BadConfigCase{"NoDataFolder",
                      [](RunConfig &c) {
                          c.synthetic = false;
                          c.dataDir.clear();
                      },
                      "no data folder given"}),
    [](const ::testing::TestParamInfo<BadConfigCase> &caseInfo) {
        return std::string(caseInfo.param.name);
    });

namespace {
RunOutcome runWith(Workload workload, RecordingObserver &obs) {
    std::atomic<bool> stop{false};
    RunConfig c = tinyConfig();
    c.workload = workload;
    c.lossFetchInterval = 1;
    return runTraining(c, obs, stop);
}
} // namespace

TEST(Workloads, TunedComputesTheSameTrainingAsFaithfulWithinFloatTolerance) {
    RecordingObserver faithful, tuned;
    ASSERT_EQ(runWith(Workload::Faithful, faithful).status, RunStatus::Finished);
    ASSERT_EQ(runWith(Workload::Tuned, tuned).status, RunStatus::Finished);
    ASSERT_EQ(faithful.steps.size(), tuned.steps.size());
    for (std::size_t i = 0; i < faithful.steps.size(); ++i) {
        EXPECT_NEAR(tuned.steps[i].loss, faithful.steps[i].loss, 1e-4) << "step " << i + 1;
    }
    ASSERT_EQ(tuned.epochs.size(), 2u);
    EXPECT_NEAR(tuned.epochs[1].testLoss, faithful.epochs[1].testLoss, 1e-4);
    EXPECT_NEAR(tuned.epochs[1].testAccuracy, faithful.epochs[1].testAccuracy, 0.03);
}

TEST(TimeToAccuracy, RunStopsAfterTheFirstEpochThatReachesTheTargetAsFinished) {
    RecordingObserver obs;
    std::atomic<bool> stop{false};
    RunConfig c = tinyConfig();
    c.epochs = 3;
    c.targetAccuracy = 0.01; // any first evaluation reaches it
    const RunOutcome out = runTraining(c, obs, stop);
    EXPECT_EQ(out.status, RunStatus::Finished) << out.reason;
    ASSERT_EQ(out.epochs.size(), 1u);
    EXPECT_EQ(obs.ended, 1);
    EXPECT_GT(out.epochs[0].testSeconds, 0.0);
    EXPECT_LT(out.epochs[0].testSeconds, out.epochs[0].seconds);
}

TEST(TimeToAccuracy, TargetNotReachedRunsTheWholeBudgetAndStillFinishes) {
    RecordingObserver obs;
    std::atomic<bool> stop{false};
    RunConfig c = tinyConfig();
    c.targetAccuracy = 100.0; // 40 test images of random classes: not all right
    const RunOutcome out = runTraining(c, obs, stop);
    EXPECT_EQ(out.status, RunStatus::Finished) << out.reason;
    EXPECT_EQ(out.epochs.size(), 2u);
}

TEST(Workloads, NamesParseBothWaysAndUnknownNamesAreRefused) {
    Workload w = Workload::Faithful;
    EXPECT_TRUE(parseWorkload("tuned", &w));
    EXPECT_EQ(w, Workload::Tuned);
    EXPECT_STREQ(toString(w), "tuned");
    EXPECT_TRUE(parseWorkload("faithful", &w));
    EXPECT_EQ(w, Workload::Faithful);
    EXPECT_FALSE(parseWorkload("fast", &w));
    EXPECT_EQ(w, Workload::Faithful);
}
