// SPDX-License-Identifier: MIT
#include "devicebench/time_to_target.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

using namespace devicebench;

namespace {

// Epochs of `seconds` each (testSeconds of each: `test`), reaching the accuracies given.
std::vector<EpochResult> epochs(const std::vector<double> &accuracies, double seconds,
                                double test) {
    std::vector<EpochResult> out;
    for (std::size_t i = 0; i < accuracies.size(); ++i) {
        EpochResult e;
        e.epoch = static_cast<int>(i) + 1;
        e.seconds = seconds;
        e.testSeconds = test;
        e.testAccuracy = accuracies[i];
        out.push_back(e);
    }
    return out;
}

} // namespace

TEST(TimeToTarget, SumsTheEpochsUpToTheFirstThatReachesItEvaluationsIncluded) {
    const TargetResult r = timeToTarget(epochs({0.30, 0.45, 0.51, 0.49}, 10.0, 1.5), 50.0);
    EXPECT_TRUE(r.set);
    EXPECT_TRUE(r.reached);
    EXPECT_EQ(r.epoch, 3);
    EXPECT_EQ(r.epochs, 4);
    EXPECT_DOUBLE_EQ(r.seconds, 30.0);
    EXPECT_DOUBLE_EQ(r.trainingSeconds, 25.5);
}

TEST(TimeToTarget, NotReachedSaysInHowManyEpochsAndHasNoTime) {
    const TargetResult r = timeToTarget(epochs({0.30, 0.45}, 10.0, 1.0), 50.0);
    EXPECT_TRUE(r.set);
    EXPECT_FALSE(r.reached);
    EXPECT_EQ(r.epoch, 0);
    EXPECT_EQ(r.epochs, 2);
    EXPECT_TRUE(std::isnan(r.seconds));
    EXPECT_EQ(describeTarget(r), "50 % not reached in 2 epochs");
}

TEST(TimeToTarget, WithoutATargetNothingIsSet) {
    const TargetResult r = timeToTarget(epochs({0.9}, 1.0, 0.1), std::nullopt);
    EXPECT_FALSE(r.set);
    EXPECT_EQ(describeTarget(r), "");
}

TEST(TimeToTarget, UnknownTestTimeLeavesTheTrainingTimeUnknownNotTheTimeToTarget) {
    auto e = epochs({0.2, 0.6}, 4.0, 0.5);
    e[0].testSeconds = std::nan(""); // a script that does not time its evaluation
    const TargetResult r = timeToTarget(e, 50.0);
    EXPECT_DOUBLE_EQ(r.seconds, 8.0);
    EXPECT_TRUE(std::isnan(r.trainingSeconds));
    EXPECT_EQ(describeTarget(r), "50 % reached in epoch 2: 8 s to target");
}

TEST(TimeToTarget, AnAccuracyOfExactlyTheTargetReachesItDespiteRounding) {
    // 9400 of 10,000 test images: 0.94 * 100 is 93.99999999999999 in binary floating point.
    EXPECT_TRUE(reachesTarget(9400.0 / 10000.0, 94.0));
    EXPECT_TRUE(reachesTarget(0.94, 94.0));
    EXPECT_FALSE(reachesTarget(9399.0 / 10000.0, 94.0));
    EXPECT_FALSE(reachesTarget(std::nan(""), 1.0));
}

TEST(AccuracyOverTime, EachEpochEndsAtTheSumOfTheSecondsSoFarInPercent) {
    std::vector<EpochResult> e = epochs({0.30, 0.45, 0.51}, 10.0, 1.5);
    e[1].seconds = 12.0;
    const std::vector<AccuracyPoint> points = accuracyOverTime(e);
    ASSERT_EQ(points.size(), 3U);
    EXPECT_EQ(points[0].epoch, 1);
    EXPECT_DOUBLE_EQ(points[0].seconds, 10.0);
    EXPECT_DOUBLE_EQ(points[1].seconds, 22.0);
    EXPECT_DOUBLE_EQ(points[2].seconds, 32.0);
    EXPECT_DOUBLE_EQ(points[2].accuracy, 51.0);
    // The point that reaches a target is where timeToTarget says it was reached.
    EXPECT_DOUBLE_EQ(points[2].seconds, timeToTarget(e, 50.0).seconds);
}

TEST(AccuracyOverTime, AnEpochWithoutAccuracyAddsItsSecondsButNoPoint) {
    std::vector<EpochResult> e = epochs({0.30, 0.45, 0.51}, 10.0, 1.5);
    e[1].testAccuracy = std::nan("");
    const std::vector<AccuracyPoint> points = accuracyOverTime(e);
    ASSERT_EQ(points.size(), 2U);
    EXPECT_EQ(points[1].epoch, 3);
    EXPECT_DOUBLE_EQ(points[1].seconds, 30.0);
}

TEST(TimeToTarget, TextsNameTheTargetAsGiven) {
    EXPECT_EQ(targetText(50.0), "50 %");
    EXPECT_EQ(targetText(93.5), "93.5 %");
    const TargetResult r = timeToTarget(epochs({0.6}, 12.25, 2.0), 50.0);
    EXPECT_EQ(describeTarget(r),
              "50 % reached in epoch 1: 12.2 s to target (training alone 10.2 s)");
}

TEST(TimeToTarget, ProblemsNameTheValue) {
    EXPECT_EQ(targetAccuracyProblem(94.0), "");
    EXPECT_EQ(targetAccuracyProblem(100.0), "");
    EXPECT_NE(targetAccuracyProblem(0.0).find("(got 0)"), std::string::npos);
    EXPECT_NE(targetAccuracyProblem(101.0).find("(got 101)"), std::string::npos);
    EXPECT_NE(targetAccuracyProblem(HUGE_VAL).find("must be a number"), std::string::npos);
}

namespace {

TargetResult reachedIn(double seconds) {
    TargetResult r;
    r.set = true;
    r.target = 50.0;
    r.reached = true;
    r.seconds = seconds;
    return r;
}

TargetResult notReached() {
    TargetResult r;
    r.set = true;
    r.target = 50.0;
    r.epochs = 10;
    r.seconds = std::nan("");
    return r;
}

} // namespace

TEST(TargetScore, FiveRunsScoreTheMeanAfterDroppingTheFastestAndTheSlowest) {
    const TargetScore s = scoreTimeToTarget(
        {reachedIn(10.0), reachedIn(50.0), reachedIn(12.0), reachedIn(11.0), reachedIn(1.0)});
    EXPECT_TRUE(s.olympic);
    EXPECT_EQ(s.runs, 5);
    EXPECT_EQ(s.reached, 5);
    EXPECT_DOUBLE_EQ(s.seconds, 11.0); // (10 + 11 + 12) / 3
    EXPECT_DOUBLE_EQ(s.min, 1.0);
    EXPECT_DOUBLE_EQ(s.max, 50.0);
}

TEST(TargetScore, FewerThanFiveRunsScoreTheMedian) {
    const TargetScore s =
        scoreTimeToTarget({reachedIn(10.0), reachedIn(30.0), reachedIn(14.0), reachedIn(12.0)});
    EXPECT_FALSE(s.olympic);
    EXPECT_DOUBLE_EQ(s.seconds, 13.0);
    EXPECT_NE(describeScore(s).find("the median"), std::string::npos) << describeScore(s);
}

TEST(TargetScore, OneRunThatMissedIsDroppedAsTheSlowestTwoMakeItUnreliable) {
    const TargetScore one = scoreTimeToTarget(
        {reachedIn(10.0), reachedIn(11.0), notReached(), reachedIn(12.0), reachedIn(9.0)});
    EXPECT_EQ(one.reached, 4);
    EXPECT_DOUBLE_EQ(one.seconds, 11.0); // 9 and the missed one dropped: (10 + 11 + 12) / 3
    const TargetScore two = scoreTimeToTarget(
        {reachedIn(10.0), notReached(), notReached(), reachedIn(12.0), reachedIn(9.0)});
    EXPECT_TRUE(std::isinf(two.seconds));
    EXPECT_EQ(describeScore(two), "not reached reliably (3 of 5 runs reached it)");
}

TEST(TargetScore, RunsWithoutATargetAreLeftOut) {
    const TargetScore s = scoreTimeToTarget({TargetResult{}, reachedIn(7.0)});
    EXPECT_EQ(s.runs, 1);
    EXPECT_DOUBLE_EQ(s.seconds, 7.0);
    EXPECT_TRUE(std::isnan(scoreTimeToTarget({TargetResult{}}).seconds));
}
