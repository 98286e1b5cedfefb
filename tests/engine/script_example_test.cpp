// SPDX-License-Identifier: MIT
// The article's CNN written with DeviceBench's module (resources/python/examples/article_cnn.py)
// trains what the article-script workload trains: on the same small synthetic files of
// CIFAR-10's layout, seed, batch size, learning rate and one thread, its step losses at the
// steps the article logs and its epoch-1 test accuracy are the article script's. Needs a Python
// with torch and torchvision (DEVICEBENCH_TEST_PYTHON overrides CMake's); skips without one.
#include "cifar_files.h"
#include "python_test_support.h"

#include "devicebench/article_script.h"
#include "devicebench/recorded_run.h"
#include "devicebench/resource_files.h"
#include "devicebench/script_run.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <string>

using devicebench::testing::TempDir;

namespace devicebench {
namespace {

std::string testPython() { return devicebench::testing::testPythonOr(DEVICEBENCH_TEST_PYTHON); }

TEST(ArticleCnnExample, StepLossesAndEpochOneAccuracyAreTheArticleScriptWorkloads) {
    setenv(kResourcesVariable, DEVICEBENCH_SOURCE_RESOURCES, 1);
    if (const std::string why = checkArticleScriptPython(testPython(), "cpu"); !why.empty())
        GTEST_SKIP() << "no Python with torch and torchvision: " << why;
    TempDir dir("devicebench-script-example");
    setenv("XDG_CACHE_HOME", (dir.path() / "cache").c_str(), 1);
    const auto data = dir.path() / "bin";
    std::filesystem::create_directories(data);
    for (int b = 1; b <= 5; ++b) // 250 training images: 125 steps of 2, steps 100 and 200 logged
        testing::writeBatchFile(data / ("data_batch_" + std::to_string(b) + ".bin"), 50,
                                testing::cyclicLabel);
    testing::writeBatchFile(data / "test_batch.bin", 50, testing::cyclicLabel);
    RunRequest article;
    article.config.workload = Workload::ArticleScript;
    article.config.python = testPython();
    article.config.dataDir = data.string();
    article.config.epochs = 2;
    article.config.warmupEpochs = 1;
    article.config.batchSize = 2;
    article.config.threads = 1;
    RunRequest mine;
    mine.config = article.config;
    mine.config.workload = Workload::Script;
    mine.config.dataDir.clear();
    mine.config.script =
        std::string(DEVICEBENCH_SOURCE_RESOURCES) + "/python/examples/article_cnn.py";
    mine.config.scriptArgs = {"--data-dir=" + data.string(), "--batch-size=2", "--lr=0.01"};
    std::atomic<bool> stop{false};
    const RecordedRun a = runRecorded(article, nullptr, stop);
    const RecordedRun m = runRecorded(mine, nullptr, stop);
    unsetenv("XDG_CACHE_HOME");
    unsetenv(kResourcesVariable);
    ASSERT_EQ(a.outcome.status, RunStatus::Finished) << a.outcome.reason;
    ASSERT_EQ(m.outcome.status, RunStatus::Finished) << m.outcome.reason;
    ASSERT_EQ(a.record.steps.size(), 2u);
    ASSERT_EQ(m.record.steps.size(), 250u); // every step
    for (const TimedStepLoss &logged : a.record.steps) {
        const TimedStepLoss &same = m.record.steps[static_cast<std::size_t>(logged.step - 1)];
        EXPECT_EQ(same.step, logged.step);
        EXPECT_NEAR(same.loss, logged.loss, 1e-6 * std::max(1.0, logged.loss)) << logged.step;
    }
    // float32 division in the example, float64 in the article's: equal to float32's precision.
    EXPECT_NEAR(m.record.epochs[0].testAccuracy, a.record.epochs[0].testAccuracy, 1e-7);
    EXPECT_NEAR(m.record.epochs[0].testLoss, a.record.epochs[0].testLoss, 1e-5);
    EXPECT_EQ(m.record.model, "article-cnn");
    EXPECT_EQ(m.record.started.modelParameters, a.record.started.modelParameters);
}

} // namespace
} // namespace devicebench
