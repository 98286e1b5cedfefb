// SPDX-License-Identifier: MIT
// The article's script as a workload (article_script.h): a recorded run of it is a child Python
// process whose epochs, step losses and Python make the record; Stop ends it; a child killed
// mid-run fails keeping its epochs; a Python without torchvision, a missing Python and a
// CUDA device without CUDA are refused before any run; settings the script cannot train are
// refused by validateRunConfig. The runs use small synthetic files of CIFAR-10's layout and
// the Python CMake found with torch and torchvision (DEVICEBENCH_TEST_PYTHON overrides it);
// without one, the tests that need it skip.
#include "cifar_files.h"
#include "python_test_support.h"

#include "devicebench/article_script.h"
#include "devicebench/interleaved_run.h"
#include "devicebench/recorded_run.h"
#include "devicebench/resource_files.h"
#include "devicebench/run_record.h"
#include "devicebench/trainer.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

using devicebench::testing::TempDir;

namespace devicebench {
namespace {

using Clock = std::chrono::steady_clock;

std::string testPython() { return devicebench::testing::testPythonOr(DEVICEBENCH_TEST_PYTHON); }

// The program from the source tree, the cache in a folder of the test's own.
class ArticleScript : public ::testing::Test {
protected:
    void SetUp() override {
        setenv(kResourcesVariable, DEVICEBENCH_SOURCE_RESOURCES, 1);
        setenv("XDG_CACHE_HOME", (m_dir.path() / "cache").c_str(), 1);
        const auto data = m_dir.path() / "bin";
        std::filesystem::create_directories(data);
        for (int b = 1; b <= 5; ++b) // 250 training images: 125 steps of 2, step 100 in epoch 1
            testing::writeBatchFile(data / ("data_batch_" + std::to_string(b) + ".bin"), 50,
                                    testing::cyclicLabel);
        testing::writeBatchFile(data / "test_batch.bin", 50, testing::cyclicLabel);
        m_config.workload = Workload::ArticleScript;
        m_config.python = testPython();
        m_config.dataDir = data.string();
        m_config.epochs = 3;
        m_config.warmupEpochs = 1;
        m_config.batchSize = 2;
        m_config.threads = 1;
    }
    void TearDown() override {
        unsetenv(kResourcesVariable);
        unsetenv("XDG_CACHE_HOME");
    }
    // "" when the test Python can run the script; else the reason (the test skips).
    std::string unusable() const { return checkArticleScriptPython(testPython(), "cpu"); }

    TempDir m_dir{"devicebench-article-script"};
    RunConfig m_config;
};

#define SKIP_WITHOUT_TORCH()                                                                       \
    if (const std::string why = unusable(); !why.empty())                                          \
    GTEST_SKIP() << "no Python with torch and torchvision for the article's script: " << why

using devicebench::testing::AfterFirstEpoch;

TEST_F(ArticleScript, RecordedRunHoldsTheScriptsEpochsStepLossesAndPython) {
    SKIP_WITHOUT_TORCH();
    RunRequest request;
    request.config = m_config;
    ASSERT_TRUE(checkRunRequest(request).empty());
    std::atomic<bool> stop{false};
    const RecordedRun run = runRecorded(request, nullptr, stop);
    ASSERT_EQ(run.outcome.status, RunStatus::Finished) << run.outcome.reason;
    const RunRecord &r = run.record;
    EXPECT_EQ(r.workload, "article-script");
    EXPECT_EQ(r.status, "finished");
    ASSERT_EQ(r.epochs.size(), 3u);
    EXPECT_TRUE(r.epochs[0].warmup);
    EXPECT_FALSE(r.epochs[1].warmup);
    EXPECT_EQ(r.started.trainImages, 250);
    EXPECT_EQ(r.started.stepsPerEpoch, 125);
    // The script logs every 100th step, counted across epochs: 100, 200, 300.
    ASSERT_EQ(r.steps.size(), 3u);
    EXPECT_EQ(r.steps[0].step, 100);
    EXPECT_EQ(r.steps[2].step, 300);
    EXPECT_EQ(r.steps[1].epoch, 2);
    ASSERT_TRUE(r.fingerprint.python.has_value());
    EXPECT_FALSE(r.fingerprint.python->torch.empty());
    EXPECT_FALSE(r.fingerprint.python->torchvision.empty());
    EXPECT_TRUE(r.fingerprint.libtorchVersion.empty()); // not DeviceBench's LibTorch
    EXPECT_EQ(r.fingerprint.intraOpThreads, 1);
    EXPECT_FALSE(r.fingerprint.cpuModel.empty()); // the machine, collected here
    // Through the file format and back, with the Python and the interpreter asked for.
    const RunRecord back = parseRunRecord(toJson(r), "article-script record");
    ASSERT_TRUE(back.fingerprint.python.has_value());
    EXPECT_EQ(back.fingerprint.python->torch, r.fingerprint.python->torch);
    EXPECT_EQ(back.config.workload, Workload::ArticleScript);
    EXPECT_EQ(back.config.python, testPython());
}

TEST_F(ArticleScript, InterleavedWithAnEngineRunTheEpochsAlternate) {
    SKIP_WITHOUT_TORCH();
    m_config.epochs = 2;
    RunRequest script;
    script.config = m_config;
    RunRequest engine;
    engine.config.synthetic = true;
    engine.config.trainImages = 256;
    engine.config.testImages = 64;
    engine.config.epochs = 2;
    engine.config.warmupEpochs = 1;
    engine.config.threads = 1;
    std::atomic<bool> stop{false};
    const std::vector<RecordedRun> runs = runRecordedInterleaved({script, engine}, {}, stop);
    ASSERT_EQ(runs.size(), 2u);
    ASSERT_EQ(runs[0].outcome.status, RunStatus::Finished) << runs[0].outcome.reason;
    ASSERT_EQ(runs[1].outcome.status, RunStatus::Finished) << runs[1].outcome.reason;
    EXPECT_EQ(runs[0].record.workload, "article-script");
    ASSERT_TRUE(runs[0].record.fingerprint.python.has_value());
    EXPECT_FALSE(runs[1].record.fingerprint.python.has_value());
    // Turns: script epoch 1, engine epoch 1, script epoch 2, engine epoch 2.
    const auto &a = runs[0].record.epochs;
    const auto &b = runs[1].record.epochs;
    ASSERT_EQ(a.size(), 2u);
    ASSERT_EQ(b.size(), 2u);
    EXPECT_LT(a[0].startedUnixSeconds, b[0].startedUnixSeconds);
    EXPECT_LT(b[0].startedUnixSeconds, a[1].startedUnixSeconds);
    EXPECT_LT(a[1].startedUnixSeconds, b[1].startedUnixSeconds);
}

TEST_F(ArticleScript, StopEndsTheChildCancelledWithinASecondKeepingFinishedEpochs) {
    SKIP_WITHOUT_TORCH();
    m_config.epochs = 50;
    RunRequest request;
    request.config = m_config;
    std::atomic<bool> stop{false};
    Clock::time_point stopped{};
    AfterFirstEpoch stopper([&] {
        stopped = Clock::now();
        stop = true;
    });
    const RecordedRun run = runRecorded(request, &stopper, stop);
    const double seconds = std::chrono::duration<double>(Clock::now() - stopped).count();
    EXPECT_EQ(run.outcome.status, RunStatus::Cancelled) << run.outcome.reason;
    EXPECT_LT(seconds, 1.5);
    EXPECT_GE(run.record.epochs.size(), 1u);
    EXPECT_EQ(run.record.status, "cancelled");
}

TEST_F(ArticleScript, AChildKilledMidRunEndsFailedKeepingItsEpochsAndLastMessages) {
    SKIP_WITHOUT_TORCH();
    m_config.epochs = 50;
    RunRequest request;
    request.config = m_config;
    std::atomic<bool> stop{false};
    // The cache folder is this test's own: it names this child alone ("[a]" keeps the shell
    // that runs pkill, whose command line holds the pattern, from matching it).
    const std::string kill =
        "pkill -KILL -f '[a]rticle_workload.py.*" + m_dir.path().string() + "'";
    AfterFirstEpoch killer([&] { EXPECT_EQ(std::system(kill.c_str()), 0); });
    const RecordedRun run = runRecorded(request, &killer, stop);
    EXPECT_EQ(run.outcome.status, RunStatus::Failed);
    EXPECT_NE(run.outcome.reason.find("killed by signal 9"), std::string::npos)
        << run.outcome.reason;
    EXPECT_GE(run.record.epochs.size(), 1u);
    EXPECT_EQ(run.record.status, "failed");
}

TEST_F(ArticleScript, APythonWithoutTorchvisionIsRefusedNamingItAndHowToInstall) {
    SKIP_WITHOUT_TORCH();
    // A Python whose torchvision cannot be imported: the test Python with a shadowing package.
    const auto shadow = m_dir.path() / "shadow" / "torchvision";
    std::filesystem::create_directories(shadow);
    std::ofstream(shadow / "__init__.py") << "raise ImportError('no torchvision (simulated)')\n";
    const auto wrapper = m_dir.path() / "python-without-torchvision";
    std::ofstream(wrapper) << "#!/bin/sh\nPYTHONPATH='" << (m_dir.path() / "shadow").string()
                           << "' exec '" << testPython() << "' \"$@\"\n";
    std::filesystem::permissions(wrapper, std::filesystem::perms::owner_all);
    RunRequest request;
    request.config = m_config;
    request.config.python = wrapper.string();
    const std::vector<std::string> problems = checkRunRequest(request);
    ASSERT_EQ(problems.size(), 1u);
    EXPECT_NE(problems[0].find(wrapper.string()), std::string::npos) << problems[0];
    EXPECT_NE(problems[0].find("torchvision cannot be imported"), std::string::npos);
    EXPECT_NE(problems[0].find("install"), std::string::npos);
}

TEST_F(ArticleScript, AMissingPythonIsRefusedNamingIt) {
    RunRequest request;
    request.config = m_config;
    request.config.python = (m_dir.path() / "no-such-python3").string();
    const std::vector<std::string> problems = checkRunRequest(request);
    ASSERT_EQ(problems.size(), 1u);
    EXPECT_NE(problems[0].find("no-such-python3 cannot be started"), std::string::npos)
        << problems[0];
}

TEST_F(ArticleScript, ACudaDeviceIsRefusedWhenThePythonsTorchCannotUseOne) {
    SKIP_WITHOUT_TORCH();
    const std::string problem = checkArticleScriptPython(testPython(), "cuda");
    if (problem.empty())
        GTEST_SKIP() << "this Python's torch sees a GPU";
    EXPECT_NE(problem.find(testPython()), std::string::npos) << problem;
    EXPECT_TRUE(problem.find("without CUDA") != std::string::npos ||
                problem.find("sees no GPU") != std::string::npos)
        << problem;
}

TEST_F(ArticleScript, AMissingProgramFileIsRefusedNamingTheDataFolder) {
    setenv(kResourcesVariable, (m_dir.path() / "empty").c_str(), 1);
    const std::string problem = checkArticleScriptPython(testPython(), "cpu");
    EXPECT_NE(problem.find(kArticleScriptResource), std::string::npos) << problem;
    EXPECT_NE(problem.find("DEVICEBENCH_RESOURCES"), std::string::npos) << problem;
}

TEST_F(ArticleScript, SettingsTheScriptCannotTrainAreRefusedEachByName) {
    RunConfig c = m_config;
    EXPECT_TRUE(validateRunConfig(c).empty());
    c.model = "resnet18";
    c.imageSize = 64;
    c.precision = Precision::BFloat16;
    c.phases = true;
    c.synthetic = true;
    const std::vector<std::string> problems = validateRunConfig(c);
    std::string all;
    for (const std::string &p : problems)
        all += p + "\n";
    for (const char *named : {"small-cnn only", "32 x 32", "fp32 only", "phases", "synthetic"})
        EXPECT_NE(all.find(named), std::string::npos) << named << " in:\n" << all;
}

TEST_F(ArticleScript, TheEngineLoopRefusesToTrainIt) {
    struct Quiet : TrainingObserver {
        void onRunEnded(const RunOutcome & /*outcome*/) override {}
    } observer;
    std::atomic<bool> stop{false};
    const RunOutcome outcome = runTraining(m_config, observer, stop);
    EXPECT_EQ(outcome.status, RunStatus::Failed);
    EXPECT_NE(outcome.reason.find("child Python process"), std::string::npos) << outcome.reason;
}

// The real data set, seed 0, 2 threads, 1 epoch: the script and the engine's faithful workload
// train the same network from the same initial weights on the same images in the same order,
// so they end epoch 1 at the same test accuracy to within a few of the 10,000 test images
// (27.42-27.44 % on an AMD EPYC, 27.44 % on an Intel Xeon). Not exactly: the two processes'
// kernels may add in a different order, and after 782 steps that moves an image or two across
// a decision boundary (seen: 27.43 % against 27.42 %).
constexpr double kOneTestImage = 1.0 / 10000;
class RealCifar10ArticleScript : public ArticleScript {};

TEST_F(RealCifar10ArticleScript, EndsEpochOneAtTheFaithfulWorkloadsTestAccuracy) {
    const std::string data = testing::realDataDir(DEVICEBENCH_TEST_DATA_DIR);
    if (data.empty())
        GTEST_SKIP() << "no real CIFAR-10 (set DEVICEBENCH_TEST_DATA)";
    SKIP_WITHOUT_TORCH();
    RunRequest script;
    script.config = m_config;
    script.config.dataDir = data;
    script.config.epochs = 1;
    script.config.warmupEpochs = 0;
    script.config.batchSize = kDefaultBatchSize;
    script.config.threads = 2;
    RunRequest faithful = script;
    faithful.config.workload = Workload::Faithful;
    faithful.config.python.clear();
    std::atomic<bool> stop{false};
    const RecordedRun a = runRecorded(script, nullptr, stop);
    const RecordedRun b = runRecorded(faithful, nullptr, stop);
    ASSERT_EQ(a.outcome.status, RunStatus::Finished) << a.outcome.reason;
    ASSERT_EQ(b.outcome.status, RunStatus::Finished) << b.outcome.reason;
    ASSERT_EQ(a.record.epochs.size(), 1u);
    ASSERT_EQ(b.record.epochs.size(), 1u);
    EXPECT_NEAR(a.record.epochs[0].testAccuracy, b.record.epochs[0].testAccuracy,
                5 * kOneTestImage);
    EXPECT_NEAR(a.record.epochs[0].testAccuracy, 0.2744, 0.0011);
    EXPECT_NEAR(a.record.epochs[0].testLoss, b.record.epochs[0].testLoss, 1e-3);
}

TEST(ArticleScriptProgram, PassesTheRunsSettingsAndCountsThreadsZeroAsTheEngineDoes) {
    TempDir resources("devicebench-resources");
    std::filesystem::create_directories(resources.path() / "python");
    std::ofstream(resources.path() / kArticleScriptResource) << "# stand-in\n";
    setenv(kResourcesVariable, resources.path().c_str(), 1);
    unsetenv(kArticleScriptPythonVariable);
    RunConfig c;
    c.workload = Workload::ArticleScript;
    c.dataDir = "/data/bin";
    c.learningRate = 0.1;
    const ChildProgram program = articleScriptProgram(c, true);
    unsetenv(kResourcesVariable);
    ASSERT_GE(program.argv.size(), 2u);
    EXPECT_EQ(program.argv[0], "python3"); // "" = python3
    const auto value = [&](const std::string &option) {
        for (std::size_t i = 0; i + 1 < program.argv.size(); ++i)
            if (program.argv[i] == option)
                return program.argv[i + 1];
        return std::string("(absent)");
    };
    EXPECT_EQ(value("--data-dir"), "/data/bin");
    EXPECT_EQ(value("--lr"), "0.10000000000000001"); // exactly the run's double
    EXPECT_NE(value("--threads"), "0");
    EXPECT_EQ(value("--epochs"), "10");
    EXPECT_EQ(program.argv.back(), "--turns");
}

TEST(ArticleScriptProgram, TheBundlesPythonIsTheDefaultAndAGivenPythonWins) {
    RunConfig c;
    setenv(kArticleScriptPythonVariable, "/box/bin/python3", 1);
    EXPECT_EQ(articleScriptPython(c), "/box/bin/python3");
    c.python = "/mine/python";
    EXPECT_EQ(articleScriptPython(c), "/mine/python");
    unsetenv(kArticleScriptPythonVariable);
    c.python.clear();
    EXPECT_EQ(articleScriptPython(c), "python3");
}

TEST(UserCacheDir, FollowsXdgCacheHomeThenHome) {
    EXPECT_EQ(userCacheDirFor("/x/cache", "/home/u"), "/x/cache/devicebench");
    EXPECT_EQ(userCacheDirFor(nullptr, "/home/u"), "/home/u/.cache/devicebench");
    EXPECT_EQ(userCacheDirFor("", "/home/u"), "/home/u/.cache/devicebench");
    EXPECT_EQ(userCacheDirFor(nullptr, nullptr), "");
}

} // namespace
} // namespace devicebench
