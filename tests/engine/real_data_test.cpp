// SPDX-License-Identifier: MIT
// Tests on the real CIFAR-10 (../shared/datasets/cifar-10-batches-bin or
// $DEVICEBENCH_TEST_DATA); each skips with a message when it is absent.
#include "cifar_files.h"

#include "devicebench/cifar10.h"
#include "devicebench/trainer.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>

using namespace devicebench;

namespace {
std::string dataDir() { return devicebench::testing::realDataDir(DEVICEBENCH_TEST_DATA_DIR); }

constexpr const char *kNoRealData =
    "real CIFAR-10 not found (set DEVICEBENCH_TEST_DATA to a cifar-10-batches-bin folder)";

// One epoch, no warm-up, on the first 5,000 training and 2,000 test images of `dir`.
RunConfig oneEpochOnFiveThousandImages(const std::string &dir) {
    RunConfig c;
    c.dataDir = dir;
    c.epochs = 1;
    c.warmupEpochs = 0;
    c.trainImages = 5000;
    c.testImages = 2000;
    return c;
}

struct EndOnly : TrainingObserver {
    void onRunEnded(const RunOutcome &o) override { outcome = o; }
    RunOutcome outcome;
};
} // namespace

TEST(RealCifar10, LoadsTheFullDataSetWithBalancedClasses) {
    const std::string dir = dataDir();
    if (dir.empty()) {
        GTEST_SKIP() << kNoRealData;
    }
    const Cifar10 data = loadCifar10(dir);
    EXPECT_EQ(data.train.size(), 50000);
    EXPECT_EQ(data.test.size(), 10000);
    const auto counts = torch::bincount(data.test.labels);
    EXPECT_EQ(counts.size(0), 10);
    EXPECT_EQ(counts.min().item<std::int64_t>(), 1000);
    EXPECT_EQ(counts.max().item<std::int64_t>(), 1000);
}

TEST(RealCifar10, OneEpochOnFiveThousandImagesClearlyBeatsChance) {
    const std::string dir = dataDir();
    if (dir.empty()) {
        GTEST_SKIP() << kNoRealData;
    }
    RunConfig c = oneEpochOnFiveThousandImages(dir);
    EndOnly observer;
    std::atomic<bool> stop{false};
    const RunOutcome out = runTraining(c, observer, stop);
    ASSERT_EQ(out.status, RunStatus::Finished) << out.reason;
    ASSERT_EQ(out.epochs.size(), 1u);
    // Chance is 10%. One epoch of the article's loop on 5,000 images reaches about 15-20%.
    EXPECT_GT(out.epochs[0].testAccuracy, 0.13) << "accuracy " << out.epochs[0].testAccuracy;
    EXPECT_LT(out.epochs[0].testLoss, 2.30) << "test loss " << out.epochs[0].testLoss;
}

TEST(RealCifar10, TunedAndFaithfulEndEpochOneWithinHalfAPointOfAccuracy) {
    const std::string dir = dataDir();
    if (dir.empty()) {
        GTEST_SKIP() << kNoRealData;
    }
    RunConfig c = oneEpochOnFiveThousandImages(dir);
    std::atomic<bool> stop{false};
    EndOnly faithfulObserver, tunedObserver;
    const RunOutcome faithful = runTraining(c, faithfulObserver, stop);
    c.workload = Workload::Tuned;
    const RunOutcome tuned = runTraining(c, tunedObserver, stop);
    ASSERT_EQ(faithful.status, RunStatus::Finished) << faithful.reason;
    ASSERT_EQ(tuned.status, RunStatus::Finished) << tuned.reason;
    EXPECT_NEAR(tuned.epochs[0].testAccuracy, faithful.epochs[0].testAccuracy, 0.005);
    EXPECT_NEAR(tuned.epochs[0].testLoss, faithful.epochs[0].testLoss,
                1e-3 * faithful.epochs[0].testLoss);
}
