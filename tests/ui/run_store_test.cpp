// SPDX-License-Identifier: MIT
#include "charts.h"
#include "run_store.h"

#include <gtest/gtest.h>

#include <QLineSeries>
#include <QSignalSpy>
#include <QValueAxis>

#include <cmath>
#include <limits>

namespace devicebench {
namespace {

RunStarted startedOn(const std::string &device, int threads, std::int64_t stepsPerEpoch = 10) {
    RunStarted info;
    info.device = device;
    info.deviceName = device == "cpu" ? "CPU" : "Tesla T4";
    info.threads = threads;
    info.trainImages = 640;
    info.testImages = 100;
    info.stepsPerEpoch = stepsPerEpoch;
    return info;
}

EpochResult epochOf(int n, double seconds, bool warmup) {
    EpochResult e;
    e.epoch = n;
    e.seconds = seconds;
    e.warmup = warmup;
    e.trainLoss = 2.0;
    e.testLoss = 1.9;
    e.testAccuracy = 0.25;
    e.imagesPerSecond = 740.0 / seconds;
    return e;
}

RunConfig configWithWarmup(int epochs, int warmup) {
    RunConfig config;
    config.epochs = epochs;
    config.warmupEpochs = warmup;
    return config;
}

TEST(RunStore, LabelsNameTheRunAndTheDevice) {
    EXPECT_EQ(RunStore::defaultLabel(1, startedOn("cpu", 2)), QStringLiteral("#1 cpu x2 threads"));
    EXPECT_EQ(RunStore::defaultLabel(1, startedOn("cpu", 1)), QStringLiteral("#1 cpu x1 thread"));
    EXPECT_EQ(RunStore::defaultLabel(2, startedOn("cuda:0", 1)),
              QStringLiteral("#2 cuda:0 Tesla T4"));
}

TEST(RunStore, KeepsEveryPointSummarizesAndEmitsChanged) {
    RunStore store;
    QSignalSpy changed(&store, &RunStore::changed);
    EXPECT_EQ(store.addRun(7, configWithWarmup(3, 1), startedOn("cpu", 2)), 0);
    std::vector<StepLoss> losses;
    for (int i = 1; i <= 5000; ++i)
        losses.push_back({1 + (i - 1) / 10, i, 1.0});
    store.appendStepLosses(7, losses);
    store.addEpoch(7, epochOf(1, 9.0, true));
    store.addEpoch(7, epochOf(2, 4.0, false));
    store.addEpoch(7, epochOf(3, 6.0, false));
    RunOutcome outcome;
    outcome.status = RunStatus::Cancelled;
    outcome.reason = "stopped";
    EXPECT_TRUE(store.endRun(7, outcome)); // fewer epochs in the outcome: stored ones are kept
    EXPECT_FALSE(store.endRun(99, outcome));

    const RunRecord *run = store.findRun(7);
    ASSERT_NE(run, nullptr);
    EXPECT_EQ(run->steps.size(), 5000U);
    EXPECT_EQ(run->epochs.size(), 3U);
    EXPECT_EQ(run->state, RunState::Cancelled);
    EXPECT_EQ(run->reason, QStringLiteral("stopped"));
    EXPECT_TRUE(run->summary.hasStable);
    EXPECT_DOUBLE_EQ(run->summary.stableMean, 5.0);
    EXPECT_DOUBLE_EQ(run->summary.imagesPerSecond, 740.0 / 5.0);
    EXPECT_GE(changed.count(), 5);
}

TEST(RunStore, SpeedUpIsTheSlowestStableMeanOverThisOne) {
    RunStore store;
    store.addRun(1, configWithWarmup(2, 1), startedOn("cpu", 1));
    store.addRun(2, configWithWarmup(2, 1), startedOn("cuda:0", 1));
    store.addRun(3, configWithWarmup(2, 1), startedOn("cpu", 2)); // no stable epoch yet
    store.addEpoch(1, epochOf(1, 50.0, true));
    store.addEpoch(1, epochOf(2, 40.0, false));
    store.addEpoch(2, epochOf(1, 30.0, true));
    store.addEpoch(2, epochOf(2, 10.0, false));
    store.addEpoch(3, epochOf(1, 20.0, true));
    EXPECT_DOUBLE_EQ(store.speedUp(0), 1.0);
    EXPECT_DOUBLE_EQ(store.speedUp(1), 4.0);
    EXPECT_TRUE(std::isnan(store.speedUp(2)));

    SpeedChart chart;
    chart.sync(store);
    ASSERT_EQ(chart.barValues().size(), 3U);
    EXPECT_DOUBLE_EQ(chart.barValues()[1], 10.0);
    EXPECT_DOUBLE_EQ(chart.barValues()[2], 0.0);
    EXPECT_TRUE(chart.categories()[1].contains(QStringLiteral("4.00x")));
    EXPECT_TRUE(chart.categories()[2].contains(QStringLiteral("no stable epochs")));
}

TEST(Decimation, KeepsFirstAndLastPointsAndBoundsTheDrawnCount) {
    QList<QPointF> points;
    for (int i = 0; i < 100000; ++i)
        points.append(QPointF(i, std::sin(i * 0.01) + (i == 54321 ? 10.0 : 0.0)));
    const QList<QPointF> drawn = decimateMinMax(points, kMaxDrawnPoints);
    ASSERT_FALSE(drawn.isEmpty());
    EXPECT_LE(drawn.size(), kMaxDrawnPoints);
    EXPECT_GE(drawn.size(), kMaxDrawnPoints / 2);
    EXPECT_EQ(drawn.front(), points.front());
    EXPECT_EQ(drawn.back(), points.back());
    bool spikeKept = false;
    for (qsizetype i = 0; i < drawn.size(); ++i) {
        if (i > 0) {
            EXPECT_LT(drawn[i - 1].x(), drawn[i].x()) << "x order kept";
        }
        spikeKept = spikeKept || drawn[i].y() > 9.0;
    }
    EXPECT_TRUE(spikeKept) << "min/max buckets keep spikes visible";

    const QList<QPointF> few = {QPointF(0, 1), QPointF(1, 2)};
    EXPECT_EQ(decimateMinMax(few, kMaxDrawnPoints), few);
}

TEST(LossChart, DrawsADecimatedCopyAndKeepsAllPointsInTheStore) {
    RunStore store;
    store.addRun(1, configWithWarmup(10, 2), startedOn("cpu", 1, 1000));
    std::vector<StepLoss> losses;
    for (int i = 1; i <= 10000; ++i)
        losses.push_back({1 + (i - 1) / 1000, i, 2.3 - i * 1e-4});
    store.appendStepLosses(1, losses);
    LossChart chart;
    chart.sync(store);
    ASSERT_NE(chart.trainSeries(1), nullptr);
    EXPECT_LE(chart.trainSeries(1)->count(), kMaxDrawnPoints);
    EXPECT_GT(chart.trainSeries(1)->count(), 100);
    EXPECT_EQ(store.findRun(1)->steps.size(), 10000U);
    // x is in epochs: the last step of epoch 10 sits at x = 10.
    EXPECT_DOUBLE_EQ(chart.trainSeries(1)->points().back().x(), 10.0);
    EXPECT_DOUBLE_EQ(chart.xAxis()->max(), 10.0);
    EXPECT_EQ(chart.trainSeries(1)->name(), QStringLiteral("#1 cpu x1 thread"));
}

TEST(LossChart, AxisRangesIgnoreNaNAndInfinity) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    const ValueRange range = finiteYRange(
        {QPointF(0, nan), QPointF(1, 2.0), QPointF(2, inf), QPointF(3, 0.5), QPointF(4, -inf)});
    ASSERT_TRUE(range.valid);
    EXPECT_DOUBLE_EQ(range.min, 0.5);
    EXPECT_DOUBLE_EQ(range.max, 2.0);
    EXPECT_FALSE(finiteYRange({QPointF(0, nan)}).valid);

    RunStore store;
    store.addRun(1, configWithWarmup(2, 1), startedOn("cpu", 1, 4));
    store.appendStepLosses(1, {{1, 1, 2.3}, {1, 2, 1.5}, {1, 3, nan}, {1, 4, inf}});
    EpochResult e = epochOf(1, 1.0, true);
    e.testLoss = nan;
    store.addEpoch(1, e);
    LossChart chart;
    chart.sync(store);
    EXPECT_TRUE(std::isfinite(chart.yAxis()->min()));
    EXPECT_TRUE(std::isfinite(chart.yAxis()->max()));
    EXPECT_LE(chart.yAxis()->min(), 1.5);
    EXPECT_GE(chart.yAxis()->max(), 2.3);
    EXPECT_LT(chart.yAxis()->max(), 3.0);
    EXPECT_EQ(chart.trainSeries(1)->count(), 2) << "non-finite losses are not drawn";
    EXPECT_EQ(chart.testSeries(1)->count(), 0);
    EXPECT_EQ(store.findRun(1)->steps.size(), 4U) << "but they are kept";
}

} // namespace
} // namespace devicebench
