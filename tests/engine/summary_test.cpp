// SPDX-License-Identifier: MIT
#include "devicebench/summary.h"

#include <gtest/gtest.h>

#include <cmath>

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

TEST(Summary, OneStableEpochHasZeroStandardDeviation) {
    const Summary s = summarize(std::vector<double>{9.0, 4.0}, 1, 1.0);
    EXPECT_DOUBLE_EQ(s.stableMean, 4.0);
    EXPECT_DOUBLE_EQ(s.stddev, 0.0);
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
