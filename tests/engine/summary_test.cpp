// SPDX-License-Identifier: MIT
#include "devicebench/summary.h"

#include "log_statistics.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <utility>
#include <vector>

using namespace devicebench;

TEST(Summary, StableMeanLeavesOutTheWarmupEpochs) {
    // Two slow warm-up epochs, then 10, 12, 11, 13.
    const Summary s = summarize(std::vector<double>{30.0, 20.0, 10.0, 12.0, 11.0, 13.0}, 2, 600.0);
    EXPECT_DOUBLE_EQ(s.meanAll, 16.0);
    EXPECT_TRUE(s.hasStable);
    EXPECT_DOUBLE_EQ(s.stableMean, 11.5);
    EXPECT_DOUBLE_EQ(s.median, 11.5);
    // sample sd of {10,12,11,13}: sqrt(5/3)
    EXPECT_NEAR(s.stddev, std::sqrt(5.0 / 3.0), 1e-12);
    EXPECT_NEAR(s.imagesPerSecond, 600.0 / 11.5, 1e-12);
    EXPECT_EQ(s.epochSeconds.size(), 6u);
}

TEST(Summary, MedianOfAnOddCountIsTheMiddleValue) {
    const Summary s = summarize(std::vector<double>{5.0, 1.0, 9.0}, 0, 1.0);
    EXPECT_DOUBLE_EQ(s.median, 5.0);
    EXPECT_DOUBLE_EQ(s.stableMean, 5.0);
}

TEST(Summary, OneStableEpochHasAnUndefinedStandardDeviationAndCvNotZero) {
    const Summary s = summarize(std::vector<double>{9.0, 4.0}, 1, 1.0);
    EXPECT_DOUBLE_EQ(s.stableMean, 4.0);
    EXPECT_EQ(s.stableCount, 1);
    EXPECT_TRUE(std::isnan(s.stddev)) << s.stddev;
    EXPECT_TRUE(std::isnan(s.cv)) << s.cv;
}

TEST(Summary, AllWarmupEpochsLeaveNoStableMean) {
    const Summary s = summarize(std::vector<double>{9.0, 4.0}, 2, 1.0);
    EXPECT_FALSE(s.hasStable);
    EXPECT_TRUE(std::isnan(s.stableMean));
    EXPECT_DOUBLE_EQ(s.meanAll, 6.5);
}

TEST(Summary, NegativeWarmupIsAnError) {
    EXPECT_THROW(summarize(std::vector<double>{1.0}, -1, 1.0), std::invalid_argument);
}

TEST(Summary, SummarisesEpochResultsBySeconds) {
    std::vector<EpochResult> epochs(3);
    epochs[0].seconds = 3.0;
    epochs[1].seconds = 2.0;
    epochs[2].seconds = 4.0;
    const Summary s = summarize(epochs, 1, 10.0);
    EXPECT_DOUBLE_EQ(s.stableMean, 3.0);
    EXPECT_DOUBLE_EQ(s.meanAll, 3.0);
}

namespace {
// Mean and sample standard deviation of the natural logs (log_statistics.h).
std::pair<double, double> logMeanAndSd(const std::vector<double> &values) {
    const auto [mean, variance] = devicebench::testing::logMeanAndVariance(values);
    return {mean, std::sqrt(variance)};
}
} // namespace

TEST(Summary, StableStatisticsIncludeMinMaxCvAndAStudentTIntervalOnTheLogOfTheTimes) {
    // Stable epochs {10, 12, 11, 13}: mean 11.5, sd sqrt(5/3), t(0.975, 3) = 3.1824.
    const Summary s = summarize(std::vector<double>{30.0, 20.0, 10.0, 12.0, 11.0, 13.0}, 2, 1.0);
    EXPECT_EQ(s.stableCount, 4);
    EXPECT_DOUBLE_EQ(s.min, 10.0);
    EXPECT_DOUBLE_EQ(s.max, 13.0);
    EXPECT_NEAR(s.cv, std::sqrt(5.0 / 3.0) / 11.5, 1e-12);
    const auto [mean, sd] = logMeanAndSd({10.0, 12.0, 11.0, 13.0});
    EXPECT_NEAR(s.logMean, mean, 1e-12);
    EXPECT_NEAR(s.logStddev, sd, 1e-12);
    const double half = 3.1824 * sd / 2.0;
    EXPECT_NEAR(s.ciLow, std::exp(mean - half), 1e-9);
    EXPECT_NEAR(s.ciHigh, std::exp(mean + half), 1e-9);
    EXPECT_LT(s.ciLow, s.stableMean);
    EXPECT_GT(s.ciHigh, s.stableMean);
}

// The arithmetic interval of 1, 9, 1, 9 s was [-2.35, 12.35] s.
TEST(Summary, EpochsOfOneAndNineSecondsGiveAnIntervalWithAPositiveLowerBound) {
    const Summary s = summarize(std::vector<double>{1.0, 9.0, 1.0, 9.0}, 0, 1.0);
    EXPECT_DOUBLE_EQ(s.stableMean, 5.0);
    const auto [mean, sd] = logMeanAndSd({1.0, 9.0, 1.0, 9.0});
    EXPECT_NEAR(s.ciLow, std::exp(mean - 3.1824 * sd / 2.0), 1e-9);  // 0.398
    EXPECT_NEAR(s.ciHigh, std::exp(mean + 3.1824 * sd / 2.0), 1e-9); // 22.6
    EXPECT_GT(s.ciLow, 0.0);
    EXPECT_LT(s.ciLow, s.stableMean);
    EXPECT_GT(s.ciHigh, s.stableMean);
}

TEST(Summary, AnEpochOfZeroSecondsLeavesTheIntervalUnknown) {
    const Summary s = summarize(std::vector<double>{0.0, 1.0, 2.0}, 0, 1.0);
    EXPECT_TRUE(std::isnan(s.ciLow));
    EXPECT_TRUE(std::isnan(s.ciHigh));
    EXPECT_DOUBLE_EQ(s.stableMean, 1.0);
}

TEST(Summary, OneStableEpochHasNoInterval) {
    const Summary s = summarize(std::vector<double>{9.0, 4.0}, 1, 1.0);
    EXPECT_TRUE(std::isnan(s.ciLow));
    EXPECT_TRUE(std::isnan(s.ciHigh));
    EXPECT_DOUBLE_EQ(s.min, 4.0);
}

TEST(Summary, StudentTQuantilesMatchTablesAndApproachTheNormal) {
    EXPECT_NEAR(studentT975(1), 12.7062, 1e-4);
    EXPECT_NEAR(studentT975(7), 2.3646, 1e-4);
    EXPECT_NEAR(studentT975(40), 2.0211, 2e-4);  // table value
    EXPECT_NEAR(studentT975(120), 1.9799, 2e-4); // table value
    EXPECT_TRUE(std::isnan(studentT975(0)));
}
