// SPDX-License-Identifier: MIT
// One sweep cell's run (step_bench.h) and the measured peak, on tiny synthetic cells.
#include "cifar_files.h"

#include "devicebench/conv_throughput.h"
#include "devicebench/step_bench.h"

#include <ATen/Parallel.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

using namespace devicebench;

namespace {

// small-cnn at 32 px, batch 4, 1 warm-up + 2 timed + 1 phase-timed step, 1 thread, synthetic.
StepBenchConfig tinyCell() {
    StepBenchConfig c;
    c.run.synthetic = true;
    c.run.batchSize = 4;
    c.run.threads = 1;
    c.warmupSteps = 1;
    c.steps = 2;
    c.phaseSteps = 1;
    return c;
}

} // namespace

TEST(StepBench, ATinyCellFinishesWithItsStepTimesRateIntervalAndPhases) {
    std::atomic<bool> stop{false};
    const StepBenchResult r = runStepBench(tinyCell(), stop);
    ASSERT_EQ(r.status, RunStatus::Finished) << r.reason;
    EXPECT_EQ(r.device, "cpu");
    EXPECT_EQ(r.threads, 1);
    EXPECT_EQ(r.multiplyAddsPerImage, 12354176);
    EXPECT_GT(r.modelParameters, 0);
    ASSERT_EQ(r.stepSeconds.size(), 2U);
    EXPECT_GT(r.setupSeconds, 0.0);
    // The median of two rates is their mean; the interval is the log-t one of Summary.
    const double rate0 = 4 / r.stepSeconds[0], rate1 = 4 / r.stepSeconds[1];
    EXPECT_NEAR(r.imagesPerSecond, (rate0 + rate1) / 2, 1e-9 * r.imagesPerSecond);
    EXPECT_LE(r.imagesPerSecondLow, std::min(rate0, rate1));
    EXPECT_GE(r.imagesPerSecondHigh, std::max(rate0, rate1));
    EXPECT_NEAR(r.achievedGflops, r.imagesPerSecond * 6.0 * 12354176 / 1e9, 1e-9);
    EXPECT_TRUE(r.phases.measured);
    EXPECT_EQ(r.phaseSteps, 1);
    EXPECT_GT(r.phases.forward, 0.0);
    EXPECT_GT(r.phases.backward, 0.0);
    EXPECT_EQ(r.phases.test, 0.0) << "a cell has no test pass";
}

TEST(StepBench, NoPhaseStepsLeavesThePhasesUnmeasured) {
    StepBenchConfig c = tinyCell();
    c.phaseSteps = 0;
    std::atomic<bool> stop{false};
    const StepBenchResult r = runStepBench(c, stop);
    ASSERT_EQ(r.status, RunStatus::Finished) << r.reason;
    EXPECT_FALSE(r.phases.measured);
    EXPECT_EQ(r.phaseSteps, 0);
}

TEST(StepBench, BadSettingsFailNamingTheSettingAndTheValue) {
    StepBenchConfig c = tinyCell();
    c.steps = 1;
    EXPECT_NE(validateStepBenchConfig(c).find("steps must be between 2 and 1000000 (got 1)"),
              std::string::npos);
    std::atomic<bool> stop{false};
    const StepBenchResult r = runStepBench(c, stop);
    EXPECT_EQ(r.status, RunStatus::Failed);
    EXPECT_EQ(r.reason.rfind("invalid settings: steps must be", 0), 0U) << r.reason;

    c = tinyCell();
    c.run.batchSize = 2048;
    EXPECT_EQ(validateStepBenchConfig(c), "batch size 2048 is not in 1..1024");
    c = tinyCell();
    c.run.model = "resnet-9000";
    EXPECT_NE(validateStepBenchConfig(c).find("model 'resnet-9000' is not known"),
              std::string::npos);
    EXPECT_EQ(validateStepBenchConfig(tinyCell()), "");
}

TEST(StepBench, AnUnusableDeviceFailsSayingWhich) {
    StepBenchConfig c = tinyCell();
    c.run.device = "cuda:7";
    std::atomic<bool> stop{false};
    const StepBenchResult r = runStepBench(c, stop);
    EXPECT_EQ(r.status, RunStatus::Failed);
    EXPECT_NE(r.reason.find("cuda"), std::string::npos) << r.reason;
    EXPECT_TRUE(r.stepSeconds.empty());
}

TEST(StepBench, AStopRequestEndsTheCellCancelledBeforeAnyTimedStep) {
    std::atomic<bool> stop{true};
    const StepBenchResult r = runStepBench(tinyCell(), stop);
    EXPECT_EQ(r.status, RunStatus::Cancelled);
    EXPECT_EQ(r.reason, "stopped by the user during the warm-up steps");
    EXPECT_TRUE(r.stepSeconds.empty());
}

TEST(StepBench, RealDataLoadsOnlyTheImagesTheStepsTake) {
    const std::string dir = devicebench::testing::realDataDir(DEVICEBENCH_TEST_DATA_DIR);
    if (dir.empty()) {
        GTEST_SKIP() << "real CIFAR-10 not found (set DEVICEBENCH_TEST_DATA)";
    }
    // The set-up hashes every data file (its identity in the record): read them once first, so
    // that a cold disk cache (this test run alone) is not what the bound measures.
    for (const auto &file : std::filesystem::directory_iterator(dir)) {
        std::ifstream in(file.path(), std::ios::binary);
        std::ostringstream sink;
        sink << in.rdbuf();
    }
    StepBenchConfig c = tinyCell();
    c.run.synthetic = false;
    c.run.dataDir = dir;
    std::atomic<bool> stop{false};
    const StepBenchResult r = runStepBench(c, stop);
    ASSERT_EQ(r.status, RunStatus::Finished) << r.reason;
    EXPECT_LT(r.setupSeconds, 1.0) << "16 images decoded, not 50,000";
}

namespace {

// One timed repetition of batch 2 on one thread: the shapes and counts, not the speed.
ConvTimingOptions onceOnTwoImages() {
    at::set_num_threads(1);
    ConvTimingOptions o;
    o.batch = 2;
    o.warmups = 0;
    o.reps = 1;
    return o;
}

} // namespace

TEST(PeakThroughput, TheSmallCnnConvolutionsAreTimedInBothFormats) {
    const std::vector<ConvTiming> t = measureSmallCnnConvolutions(onceOnTwoImages());
    ASSERT_EQ(t.size(), 6U);
    EXPECT_EQ(t[0].layer.name, "conv1 3->32 @32x32");
    EXPECT_FALSE(t[0].channelsLast);
    EXPECT_TRUE(t[1].channelsLast);
    // conv1: 2 x 2 x 32 x 32 x 32 x 3 x 25 FLOP forward; backward once (no input gradient).
    EXPECT_DOUBLE_EQ(t[0].forwardFlop, 2.0 * 2 * 32 * 32 * 32 * 3 * 25);
    EXPECT_DOUBLE_EQ(t[0].backwardFlop, t[0].forwardFlop);
    EXPECT_DOUBLE_EQ(t[2].backwardFlop, 2 * t[2].forwardFlop);
    for (const ConvTiming &c : t) {
        ASSERT_EQ(c.bothSeconds.size(), 1U);
        ASSERT_EQ(c.forwardSeconds.size(), 1U);
        EXPECT_GT(c.bothSeconds[0], 0.0);
    }
}

TEST(PeakThroughput, TheSpeedrunsConvolutionsAreItsNetworksSixAtItsArithmetic) {
    const std::vector<ConvLayerShape> layers = speedrunConvolutions();
    ASSERT_EQ(layers.size(), 6U);
    double macs = 0.0;
    for (const ConvLayerShape &l : layers)
        macs += convMultiplyAdds(l, 1);
    // the recipe's 118.1 M multiply-adds per image less the whitening (0.27 M) and the linear
    // layer (2,560): 3x3 convolutions at padding 1 keep their size
    EXPECT_NEAR(macs / 1e6, 117.87, 0.01);
    EXPECT_DOUBLE_EQ(convMultiplyAdds(layers[2], 2), 2.0 * 256 * 15 * 15 * 64 * 9);
    EXPECT_FALSE(layers[0].inputNeedsGrad) << "no gradient reaches the whitening once frozen";
}

TEST(PeakThroughput, ConvolutionsAreTimedInBfloat16AndFloat16IsRefused) {
    ConvTimingOptions o = onceOnTwoImages();
    o.precision = Precision::BFloat16;
    const std::vector<ConvTiming> t = measureConvolutions({speedrunConvolutions().back()}, o);
    ASSERT_EQ(t.size(), 2U);
    EXPECT_GT(t[1].bothSeconds.at(0), 0.0);
    EXPECT_DOUBLE_EQ(t[0].backwardFlop, 2 * t[0].forwardFlop);
    o.precision = Precision::Float16;
    EXPECT_THROW(measureConvolutions(smallCnnConvolutions(), o), std::invalid_argument);
}

TEST(PeakThroughput, TheCpuPeakIsTheBestConvolutionAndSaysWhichOne) {
    const PeakThroughput peak = measurePeakThroughput("cpu", 1);
    EXPECT_GT(peak.gflops, 0.0);
    EXPECT_TRUE(std::isfinite(peak.gflops));
    EXPECT_EQ(peak.method.rfind("conv ", 0), 0U) << peak.method;
    EXPECT_NE(peak.method.find("1 thread"), std::string::npos) << peak.method;
}

TEST(PeakThroughput, AnUnknownDeviceThrowsNamingIt) {
    try {
        measurePeakThroughput("gpu", 1);
        FAIL() << "no exception";
    } catch (const std::runtime_error &e) {
        EXPECT_NE(std::string(e.what()).find("cannot measure the peak of gpu"), std::string::npos)
            << e.what();
    }
}
