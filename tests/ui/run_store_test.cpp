// SPDX-License-Identifier: MIT
#include "charts/charts.h"
#include "store/run_store.h"
#include "test_support.h"

#include <gtest/gtest.h>

#include <QLineSeries>
#include <QSignalSpy>
#include <QValueAxis>

#include "devicebench/summary.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

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

TEST(RunStore, LabelsNameTheRunTheDeviceAndTheMachine) {
    RunRecord record;
    record.fingerprint.hostName = "host-a";
    record.fingerprint.gpus.push_back(GpuInfo{0, "Tesla T4", 7, 5, 16LL << 30});
    record.started = startedOn("cuda:0", 1);
    EXPECT_EQ(RunStore::defaultLabel(2, record), QStringLiteral("#2 Tesla T4 @ host-a"));
    record.started = startedOn("cpu", 8);
    EXPECT_EQ(RunStore::defaultLabel(1, record), QStringLiteral("#1 CPU x8 @ host-a"));

    // A live run is labelled with this machine's host name, numbered in order of arrival.
    RunStore store;
    store.addRecord(record, QStringLiteral("a.json"));
    test::addLiveRun(store, 5, configWithWarmup(2, 1), startedOn("cpu", 2));
    const QString host = QString::fromStdString(collectFingerprint().hostName);
    EXPECT_EQ(store.findRun(5)->label, QStringLiteral("#2 CPU x2 @ ") + host);
    EXPECT_EQ(store.run(0).origin, QStringLiteral("a.json"));
    EXPECT_EQ(store.findRun(5)->record.fingerprint.intraOpThreads, 2);
    EXPECT_FALSE(store.findRun(5)->record.runId.empty());
}

TEST(RunStore, KeepsEveryPointSummarizesAndEmitsChanged) {
    RunStore store;
    QSignalSpy changed(&store, &RunStore::changed);
    EXPECT_EQ(test::addLiveRun(store, 7, configWithWarmup(3, 1), startedOn("cpu", 2)), 0);
    std::vector<StepLoss> losses;
    for (int i = 1; i <= 5000; ++i)
        losses.push_back({1 + (i - 1) / 10, i, 1.0});
    store.liveRun(7)->onStepLosses(losses);
    store.liveRun(7)->onEpochFinished(epochOf(1, 9.0, true));
    store.liveRun(7)->onEpochFinished(epochOf(2, 4.0, false));
    store.liveRun(7)->onEpochFinished(epochOf(3, 6.0, false));
    EXPECT_TRUE(store.isRunGoing());
    EXPECT_EQ(store.followedRun(), 7);
    // Its end: the record as its recorder wrote it, here the live one with its status.
    RecordedRun ended;
    ended.outcome.status = RunStatus::Cancelled;
    ended.outcome.reason = "stopped";
    ended.record = store.findRun(7)->record;
    ended.record.status = "cancelled";
    ended.record.reason = "stopped";
    EXPECT_TRUE(store.finishRun(7, ended));
    EXPECT_FALSE(store.finishRun(99, ended));
    EXPECT_FALSE(store.isRunGoing());
    EXPECT_EQ(store.followedRun(), 0);

    const StoredRun *run = store.findRun(7);
    ASSERT_NE(run, nullptr);
    EXPECT_EQ(run->record.steps.size(), 5000U);
    EXPECT_EQ(run->record.epochs.size(), 3U);
    EXPECT_EQ(run->record.status, "cancelled");
    EXPECT_EQ(run->record.reason, "stopped");
    EXPECT_EQ(run->state, RunState::Cancelled);
    EXPECT_EQ(run->reason, QStringLiteral("stopped"));
    EXPECT_TRUE(run->summary.hasStable);
    EXPECT_DOUBLE_EQ(run->summary.stableMean, 5.0);
    EXPECT_DOUBLE_EQ(run->summary.imagesPerSecond, 740.0 / 5.0);
    EXPECT_GE(changed.count(), 5);
}

TEST(RunStore, ARunIsGoingFromItsAcceptanceToItsEndAndTheStatusFollowsTheOneThatReported) {
    RunStore store;
    store.acceptRunSet(3, 2, true);
    store.acceptRun(3);
    store.acceptRun(4);
    EXPECT_TRUE(store.isRunGoing()) << "going before any record: data still loading";
    EXPECT_EQ(store.runCount(), 0);
    EXPECT_EQ(store.followedRun(), 3) << "the first until one reports";
    EXPECT_EQ(store.liveSet().runs, 2);
    EXPECT_TRUE(store.liveSet().interleaved);
    test::addLiveRun(store, 4, configWithWarmup(2, 1), startedOn("cpu", 1));
    EXPECT_EQ(store.followedRun(), 4) << "the one whose event came last";

    // Run 3 ended before it started (no record): it leaves no entry, and is no longer going.
    RecordedRun failed;
    failed.outcome.status = RunStatus::Failed;
    failed.outcome.reason = "no CIFAR-10 files in /nowhere";
    EXPECT_FALSE(store.finishRun(3, failed));
    EXPECT_EQ(store.runCount(), 1);
    EXPECT_TRUE(store.isRunGoing());
    EXPECT_EQ(store.liveRun(3), nullptr);
    EXPECT_EQ(store.followedRun(), 4);

    RecordedRun finished;
    finished.outcome.status = RunStatus::Finished;
    finished.record = store.findRun(4)->record;
    finished.record.status = "finished";
    EXPECT_TRUE(store.finishRun(4, finished));
    EXPECT_FALSE(store.isRunGoing());
    EXPECT_EQ(store.followedRun(), 0);
    EXPECT_EQ(store.liveSet().runs, 0) << "no set goes any more";
    EXPECT_EQ(store.findRun(4)->state, RunState::Finished);
}

TEST(RunStore, SpeedUpIsTheSlowestStableMeanOverThisOne) {
    RunStore store;
    test::addLiveRun(store, 1, configWithWarmup(2, 1), startedOn("cpu", 1));
    test::addLiveRun(store, 2, configWithWarmup(2, 1), startedOn("cuda:0", 1));
    test::addLiveRun(store, 3, configWithWarmup(2, 1), startedOn("cpu", 2)); // no stable epoch yet
    store.liveRun(1)->onEpochFinished(epochOf(1, 50.0, true));
    store.liveRun(1)->onEpochFinished(epochOf(2, 40.0, false));
    store.liveRun(2)->onEpochFinished(epochOf(1, 30.0, true));
    store.liveRun(2)->onEpochFinished(epochOf(2, 10.0, false));
    store.liveRun(3)->onEpochFinished(epochOf(1, 20.0, true));
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
    test::addLiveRun(store, 1, configWithWarmup(10, 2), startedOn("cpu", 1, 1000));
    std::vector<StepLoss> losses;
    for (int i = 1; i <= 10000; ++i)
        losses.push_back({1 + (i - 1) / 1000, i, 2.3 - i * 1e-4});
    store.liveRun(1)->onStepLosses(losses);
    LossChart chart;
    chart.sync(store);
    ASSERT_NE(chart.trainSeries(1), nullptr);
    EXPECT_LE(chart.trainSeries(1)->count(), kMaxDrawnPoints);
    EXPECT_GT(chart.trainSeries(1)->count(), 100);
    EXPECT_EQ(store.findRun(1)->record.steps.size(), 10000U);
    // x is in epochs: the last step of epoch 10 sits at x = 10.
    EXPECT_DOUBLE_EQ(chart.trainSeries(1)->points().back().x(), 10.0);
    EXPECT_DOUBLE_EQ(chart.xAxis()->max(), 10.0);
    EXPECT_EQ(chart.trainSeries(1)->name(), store.findRun(1)->label);
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
    test::addLiveRun(store, 1, configWithWarmup(2, 1), startedOn("cpu", 1, 4));
    store.liveRun(1)->onStepLosses({{1, 1, 2.3}, {1, 2, 1.5}, {1, 3, nan}, {1, 4, inf}});
    EpochResult e = epochOf(1, 1.0, true);
    e.testLoss = nan;
    store.liveRun(1)->onEpochFinished(e);
    LossChart chart;
    chart.sync(store);
    EXPECT_TRUE(std::isfinite(chart.yAxis()->min()));
    EXPECT_TRUE(std::isfinite(chart.yAxis()->max()));
    EXPECT_LE(chart.yAxis()->min(), 1.5);
    EXPECT_GE(chart.yAxis()->max(), 2.3);
    EXPECT_LT(chart.yAxis()->max(), 3.0);
    EXPECT_EQ(chart.trainSeries(1)->count(), 2) << "non-finite losses are not drawn";
    EXPECT_EQ(chart.testSeries(1)->count(), 0);
    EXPECT_EQ(store.findRun(1)->record.steps.size(), 4U) << "but they are kept";
}

// A finished record as another machine would have written it: same workload unless changed.
RunRecord recordOf(const std::string &host, int threads, const std::vector<double> &seconds,
                   int warmup, double testLossOffset = 0.0, int batchSize = 64) {
    RunRecord r;
    r.runId = host + "-" + std::to_string(threads) + "-" + std::to_string(batchSize) + "-" +
              std::to_string(seconds.size()) + "-" + std::to_string(testLossOffset);
    r.config.epochs = static_cast<int>(seconds.size());
    r.config.warmupEpochs = warmup;
    r.config.batchSize = batchSize;
    r.config.threads = threads;
    r.config.synthetic = true;
    r.started.device = "cpu";
    r.started.deviceName = "CPU";
    r.started.threads = threads;
    r.started.trainImages = 900;
    r.started.testImages = 100;
    r.started.synthetic = true;
    r.fingerprint.hostName = host;
    r.data.variant = "synthetic";
    r.data.trainImages = 900;
    r.data.testImages = 100;
    for (std::size_t i = 0; i < seconds.size(); ++i) {
        EpochResult e = epochOf(static_cast<int>(i) + 1, seconds[i], static_cast<int>(i) < warmup);
        e.testLoss = 2.0 - 0.1 * static_cast<double>(i) + testLossOffset;
        r.epochs.push_back(e);
    }
    r.status = "finished";
    return r;
}

TEST(RunStore, FlagsABatchSizeDifferenceWithTheFieldNamed) {
    RunStore store;
    store.addRecord(recordOf("host-a", 1, {12.0, 8.0, 10.0, 12.0}, 1), QStringLiteral("a"));
    store.addRecord(recordOf("host-a", 2, {7.0, 4.0, 5.0, 6.0}, 1), QStringLiteral("b"));
    store.addRecord(recordOf("host-b", 1, {9.0, 3.0, 3.0, 3.0}, 1, 0.0, 32), QStringLiteral("c"));
    ASSERT_EQ(store.runCount(), 3);
    EXPECT_EQ(store.baselineIndex(), 0) << "the slowest run is the default baseline";
    EXPECT_TRUE(store.run(0).isBaseline);
    EXPECT_TRUE(store.run(1).comparable());
    ASSERT_FALSE(store.run(2).comparable());
    EXPECT_EQ(store.run(2).differences, std::vector<std::string>{"batch size"});

    SpeedChart chart;
    chart.sync(store);
    ASSERT_EQ(chart.categories().size(), 3);
    EXPECT_TRUE(chart.categories()[0].contains(QStringLiteral("baseline")));
    EXPECT_TRUE(chart.categories()[1].contains(QStringLiteral("CPU x2 @ host-a")));
    EXPECT_TRUE(chart.categories()[1].contains(QStringLiteral("2.00x [")))
        << chart.categories()[1].toStdString();
    EXPECT_TRUE(QString(chart.categories()[2])
                    .replace(QStringLiteral("<br>"), QStringLiteral(" "))
                    .contains(QStringLiteral("not comparable: batch size")))
        << chart.categories()[2].toStdString();
    EXPECT_FALSE(chart.categories()[2].contains(QStringLiteral("x [")))
        << "no speed-up for a different workload";
    EXPECT_EQ(chart.errorBars().size(), 3U) << "one error bar per run with an interval";

    // Choosing the third run as baseline flags the other two, naming the field.
    store.setBaseline(store.run(2).id);
    EXPECT_EQ(store.baselineIndex(), 2);
    EXPECT_EQ(store.run(0).differences, std::vector<std::string>{"batch size"});
    EXPECT_TRUE(store.run(2).comparable());
}

TEST(RunStore, WarmupSettingReDerivesTheStableMeanWithoutReRunning) {
    RunStore store;
    store.addRecord(recordOf("h", 1, {10.0, 4.0, 5.0, 6.0}, 1), QStringLiteral("a"));
    const StoredRun &run = store.run(0);
    EXPECT_EQ(run.warmupEpochs, 1) << "default: the run's own setting";
    EXPECT_DOUBLE_EQ(run.summary.stableMean, (4.0 + 5.0 + 6.0) / 3.0);
    EXPECT_EQ(run.summary.stableCount, 3);

    store.setWarmupEpochs(2);
    EXPECT_EQ(store.run(0).warmupEpochs, 2);
    EXPECT_DOUBLE_EQ(store.run(0).summary.stableMean, (5.0 + 6.0) / 2.0);
    EXPECT_TRUE(store.run(0).isWarmup(2));
    EXPECT_FALSE(store.run(0).isWarmup(3));

    store.setWarmupEpochs(0);
    EXPECT_DOUBLE_EQ(store.run(0).summary.stableMean, (10.0 + 4.0 + 5.0 + 6.0) / 4.0);
    EXPECT_DOUBLE_EQ(store.run(0).summary.min, 4.0);
    EXPECT_DOUBLE_EQ(store.run(0).summary.max, 10.0);

    store.setWarmupEpochs(-1);
    EXPECT_DOUBLE_EQ(store.run(0).summary.stableMean, 5.0);
    EXPECT_EQ(store.run(0).record.epochs.size(), 4U) << "every epoch is kept";
}

TEST(RunStore, SpeedUpAndItsIntervalOnKnownRecords) {
    RunStore store;
    store.addRecord(recordOf("a", 1, {20.0, 8.0, 10.0, 12.0}, 1), QStringLiteral("slow"));
    store.addRecord(recordOf("b", 2, {20.0, 4.0, 5.0, 6.0}, 1), QStringLiteral("fast"));
    // Stable epochs: slow {8, 10, 12} (mean 10), fast {4, 5, 6} (mean 5); n = 3. The
    // intervals are the engine's (on the log of the times, comparison.h), shown unchanged.
    const Summary &slow = store.run(0).summary;
    const Summary expectedSlow = summarize(std::vector<double>{20.0, 8.0, 10.0, 12.0}, 1, 1.0);
    EXPECT_NEAR(slow.ciLow, expectedSlow.ciLow, 1e-9);
    EXPECT_NEAR(slow.ciHigh, expectedSlow.ciHigh, 1e-9);
    EXPECT_GT(slow.ciLow, 0.0);
    const SpeedUp s = store.run(1).speedUp;
    const SpeedUp expected =
        speedUp(expectedSlow, summarize(std::vector<double>{20.0, 4.0, 5.0, 6.0}, 1, 1.0));
    EXPECT_DOUBLE_EQ(s.ratio, 2.0);
    EXPECT_NEAR(s.low, expected.low, 1e-9);
    EXPECT_NEAR(s.high, expected.high, 1e-9);
    EXPECT_GT(s.low, 0.0);
    EXPECT_DOUBLE_EQ(store.speedUp(1), 2.0);
    EXPECT_DOUBLE_EQ(store.speedUp(0), 1.0);

    // The other run as baseline: the ratio inverts.
    store.setBaseline(store.run(1).id);
    EXPECT_DOUBLE_EQ(store.speedUp(0), 0.5);
}

TEST(RunStore, ControlWarnsWhenComparableRunsDisagreeOnTestLoss) {
    RunStore store;
    store.addRecord(recordOf("a", 1, {3.0, 2.0, 2.0}, 1), QStringLiteral("a"));
    store.addRecord(recordOf("a", 2, {2.0, 1.0, 1.0}, 1, 1e-7), QStringLiteral("b"));
    store.addRecord(recordOf("b", 4, {2.0, 1.0, 1.1}, 1, 0.25), QStringLiteral("c"));
    store.addRecord(recordOf("b", 1, {2.0, 1.0, 1.1}, 1, 0.0, 32), QStringLiteral("d"));
    const std::vector<ControlPair> pairs = store.controlPairs();
    ASSERT_EQ(pairs.size(), 3U) << "run d differs in batch size: in no pair";
    EXPECT_EQ(pairs[0].indexA, 0);
    EXPECT_EQ(pairs[0].indexB, 1);
    EXPECT_NEAR(pairs[0].maxTestLossDiff, 1e-7, 1e-12);
    EXPECT_FALSE(pairs[0].warning);
    EXPECT_NEAR(pairs[1].maxTestLossDiff, 0.25, 1e-12);
    EXPECT_TRUE(pairs[1].warning);
    EXPECT_TRUE(pairs[2].warning);
}

TEST(RunStore, ARecordLeftRunningIsInterruptedAndAddedOnce) {
    RunRecord r = recordOf("a", 1, {3.0, 2.0}, 1);
    r.config.epochs = 5;
    r.status = "running";
    RunStore store;
    EXPECT_EQ(store.addRecord(r, QStringLiteral("x.json")), 0);
    EXPECT_EQ(store.addRecord(r, QStringLiteral("y.json")), 0) << "same runId: not added twice";
    ASSERT_EQ(store.runCount(), 1);
    EXPECT_EQ(store.run(0).state, RunState::Interrupted);
    EXPECT_EQ(runStateName(store.run(0).state), QStringLiteral("interrupted"));
    EXPECT_EQ(store.run(0).record.epochs.size(), 2U);
    EXPECT_LT(store.run(0).id, 0) << "imported ids never clash with the controller's";
}

} // namespace
} // namespace devicebench
