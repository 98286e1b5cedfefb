// SPDX-License-Identifier: MIT
// Repeated runs in the dashboard (RunStore::groups, run_groups.h): one bar per group with n and
// the interval over the runs, one mean loss curve with a min-max band, "runs one by one", the
// horizontal bar chart beyond the bars that fit with labels that never overlap, the legend's
// cap, the control summarised, and the groups CSV beside the export.
#include "charts/charts.h"
#include "export/comparison_export.h"
#include "panels/charts_panel.h"
#include "store/run_store.h"
#include "test_support.h"
#include "window/main_window.h"

#include "devicebench/csv_export.h"
#include "devicebench/run_record.h"

#include <QAction>
#include <QAreaSeries>
#include <QCheckBox>
#include <QDir>
#include <QFile>
#include <QLineSeries>
#include <QSettings>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

using namespace devicebench;

namespace {

// A finished CPU run with `threads` threads (the machine key: runs of one thread count are one
// group), 4 epochs (the first warm-up) of `seconds` each but for small differences, 8 steps per
// epoch of loss 2 - step/40 + `lossShift`, and test loss 1 + `testShift` per epoch.
RunRecord cpuRun(const std::string &id, int threads, double seconds, double lossShift = 0.0,
                 double testShift = 0.0) {
    RunRecord r;
    r.runId = id;
    r.status = "finished";
    r.config.device = "cpu";
    r.config.threads = threads;
    r.config.epochs = 4;
    r.config.warmupEpochs = 1;
    r.started.device = "cpu";
    r.started.threads = threads;
    r.started.trainImages = 512;
    r.started.testImages = 100;
    r.started.stepsPerEpoch = 8;
    r.fingerprint.hostName = "host";
    r.data = {"", "synthetic", 512, 100, ""};
    const double jitter[] = {1.0, 1.01, 0.99, 1.0};
    for (int epoch = 1; epoch <= 4; ++epoch) {
        EpochResult e;
        e.epoch = epoch;
        e.seconds = seconds * jitter[epoch - 1] * (epoch == 1 ? 1.5 : 1.0);
        e.warmup = epoch == 1;
        e.testLoss = 1.0 + testShift;
        r.epochs.push_back(e);
        for (int s = 1; s <= 8; ++s) {
            const std::int64_t step = (epoch - 1) * 8 + s;
            r.steps.push_back({epoch, step, 2.0 - static_cast<double>(step) / 40.0 + lossShift,
                               static_cast<double>(step) * 0.1});
        }
    }
    return r;
}

// Three repeats on one thread (#1-#3, 10-11 s) and two on four threads (#4, #5, 4 s).
void addTwoGroups(RunStore &store) {
    store.addRecords({cpuRun("a1", 1, 10.0, 0.0), cpuRun("a2", 1, 10.5, 0.1),
                      cpuRun("a3", 1, 11.0, 0.2), cpuRun("b1", 4, 4.0), cpuRun("b2", 4, 4.1)},
                     {});
}

// `count` repeats of one configuration, seconds 10 to 12.
void addRepeats(RunStore &store, int count, int threads = 1) {
    std::vector<RunRecord> records;
    for (int i = 0; i < count; ++i)
        records.push_back(cpuRun("r" + std::to_string(threads) + "-" + std::to_string(i), threads,
                                 10.0 + 2.0 * i / count));
    store.addRecords(records, {});
}

} // namespace

TEST(GroupBars, RepeatedRunsAreOneBarWithTheirCountAndTheIntervalOverTheRuns) {
    RunStore store;
    addTwoGroups(store);
    ASSERT_EQ(store.groups().groups.size(), 2u);
    SpeedChart chart;
    chart.setGeometry(0, 0, 900, 500);
    chart.sync(store);
    ASSERT_EQ(chart.barValues().size(), 2u);
    const GroupStats &slow = store.groups().groups[0].stats;
    EXPECT_DOUBLE_EQ(chart.barValues()[0], slow.mean);
    EXPECT_TRUE(chart.categories()[0].contains(QStringLiteral("n = 3")));
    EXPECT_TRUE(chart.categories()[1].contains(QStringLiteral("n = 2")));
    ASSERT_EQ(chart.errorBars().size(), 2u);
    EXPECT_DOUBLE_EQ(chart.errorBars()[0].first, slow.ciLow);
    EXPECT_DOUBLE_EQ(chart.errorBars()[0].second, slow.ciHigh);
    EXPECT_EQ(chart.runsOfBar(0).size(), 3u);
    EXPECT_EQ(chart.barOfRun(store.run(2).id), 0);
    EXPECT_EQ(chart.barOfRun(store.run(4).id), 1);
    // The speed-up between the groups, with its interval, under the faster group's bar.
    const SpeedUp up = store.groups().groups[1].speedUp;
    EXPECT_TRUE(chart.categories()[1].contains(QStringLiteral("%1x").arg(up.ratio, 0, 'f', 2)));
    EXPECT_TRUE(chart.hoverText(0).contains(QStringLiteral("min-max")) ||
                chart.hoverText(0).contains(QStringLiteral("thin whisker")));
    EXPECT_TRUE(chart.hoverText(0).contains(QStringLiteral("#1-#3")));
}

TEST(GroupBars, RunsOneByOneDrawsEveryRunAgain) {
    RunStore store;
    addTwoGroups(store);
    SpeedChart chart;
    chart.setGeometry(0, 0, 900, 500);
    chart.setRunsOneByOne(true);
    chart.sync(store);
    EXPECT_EQ(chart.barValues().size(), 5u);
    chart.setRunsOneByOne(false);
    chart.sync(store);
    EXPECT_EQ(chart.barValues().size(), 2u);
}

TEST(GroupBars, BeyondTheBarsThatFitTheChartTurnsHorizontalFastestOnTop) {
    RunStore store;
    addRepeats(store, 3, 1);
    SpeedChart chart;
    chart.setGeometry(0, 0, 700, 400);
    chart.setRunsOneByOne(true);
    chart.sync(store);
    EXPECT_FALSE(chart.horizontal());
    addRepeats(store, 30, 2);
    chart.sync(store);
    ASSERT_GT(33, chart.barsThatFit());
    EXPECT_TRUE(chart.horizontal());
    const std::vector<double> values = chart.barValues();
    ASSERT_EQ(values.size(), 33u);
    // From the bottom row up: the slowest first, so the fastest is the top row.
    EXPECT_TRUE(std::is_sorted(values.rbegin(), values.rend()));
}

TEST(GroupBars, HorizontalRowLabelsNeverOverlap) {
    RunStore store;
    addRepeats(store, 200, 1);
    SpeedChart chart;
    chart.setGeometry(0, 0, 700, 400);
    chart.setRunsOneByOne(true);
    chart.sync(store);
    ASSERT_TRUE(chart.horizontal());
    QList<QRectF> rects = chart.rowLabelRects();
    ASSERT_GT(rects.size(), 3);
    EXPECT_LT(rects.size(), 200); // 200 rows in 400 pixels: only every k-th has room
    for (qsizetype i = 0; i < rects.size(); ++i)
        for (qsizetype j = i + 1; j < rects.size(); ++j)
            EXPECT_FALSE(rects[i].intersects(rects[j])) << i << " and " << j;
    // With room for a line per row, every row is labelled.
    RunStore few;
    addRepeats(few, 12, 1);
    SpeedChart tall;
    tall.setGeometry(0, 0, 500, 900);
    tall.setRunsOneByOne(true);
    tall.sync(few);
    ASSERT_TRUE(tall.horizontal());
    EXPECT_EQ(tall.rowLabelRects().size(), 12);
}

TEST(GroupLossCurves, AGroupIsItsMeanCurveWithAMinMaxBand) {
    RunStore store;
    addTwoGroups(store);
    LossChart chart;
    ChartOptions options;
    options.smoothing = 0.0;
    options.xAxis = XAxisMode::Steps;
    chart.setOptions(options);
    chart.sync(store);
    const int first = store.run(0).id;
    EXPECT_EQ(chart.trainSeries(first), nullptr); // no line of its own
    ASSERT_NE(chart.groupMeanSeries(first), nullptr);
    ASSERT_NE(chart.groupBandSeries(first), nullptr);
    EXPECT_EQ(chart.groupRunCount(first), 3);
    // Step 1: the runs' losses are 1.975 + 0, 0.1, 0.2: mean +0.1, band from +0 to +0.2.
    const QPointF mean = chart.groupMeanSeries(first)->at(0);
    EXPECT_DOUBLE_EQ(mean.x(), 1.0);
    EXPECT_NEAR(mean.y(), 2.075, 1e-12);
    EXPECT_NEAR(chart.groupBandSeries(first)->lowerSeries()->at(0).y(), 1.975, 1e-12);
    EXPECT_NEAR(chart.groupBandSeries(first)->upperSeries()->at(0).y(), 2.175, 1e-12);
    EXPECT_TRUE(chart.legendLabels()
                    .join(QStringLiteral("|"))
                    .contains(QStringLiteral("n = 3, mean, band min-max")));
    // One by one: each run's own line again, no group.
    options.runsOneByOne = true;
    chart.setOptions(options);
    chart.sync(store);
    EXPECT_EQ(chart.groupMeanSeries(first), nullptr);
    EXPECT_NE(chart.trainSeries(first), nullptr);
}

TEST(GroupLossCurves, ALongLegendListsTheFirstNamesAndHowManyMore) {
    RunStore store;
    for (int threads = 1; threads <= 20; ++threads)
        addRepeats(store, 1, threads); // 20 groups of one run
    LossChart chart;
    chart.sync(store);
    const QStringList labels = chart.legendLabels();
    ASSERT_EQ(labels.size(), LossChart::kMaxLegendEntries);
    EXPECT_EQ(labels.back(),
              QStringLiteral("… and %1 more").arg(20 - LossChart::kMaxLegendEntries + 1));
    EXPECT_TRUE(labels.front().startsWith(QStringLiteral("#1 ")));
}

TEST(GroupControl, TheControlSaysTheLargestPairAndTheWarningsNotEveryPair) {
    RunStore store;
    store.addRecords({cpuRun("a", 1, 10.0), cpuRun("b", 1, 10.0, 0.0, 1e-7),
                      cpuRun("c", 1, 10.0, 0.0, 2e-7), cpuRun("d", 1, 10.0, 0.0, 0.5)},
                     {});
    const QString text = comparisonControlText(store);
    EXPECT_TRUE(text.contains(QStringLiteral("6 pairs"))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("largest #1 vs #4: 0.5"))) << text.toStdString();
    // The three pairs with #4 are above the warning; #1 vs #2 is not listed.
    EXPECT_EQ(text.count(QStringLiteral("WARNING")), 3) << text.toStdString();
    EXPECT_FALSE(text.contains(QStringLiteral("#1 vs #2"))) << text.toStdString();
}

TEST(GroupControl, RunsThatAgreeExactlyNameTwoRunsAsTheirLargestPair) {
    RunStore store;
    store.addRecords({cpuRun("a", 1, 10.0), cpuRun("b", 1, 10.0), cpuRun("c", 1, 10.0)}, {});
    const QString text = comparisonControlText(store);
    EXPECT_TRUE(text.contains(QStringLiteral("largest #1 vs #2: 0"))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("no pair above"))) << text.toStdString();
}

TEST(GroupExport, TheCsvExportWritesTheGroupSummaryBesideTheRuns) {
    RunStore store;
    addTwoGroups(store);
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("out.csv"));
    QString error;
    ASSERT_TRUE(exportComparisonCsv(store, path, &error)) << error.toStdString();
    QFile groups(QString::fromStdString(groupsCsvPath(path.toStdString())));
    ASSERT_TRUE(groups.open(QIODevice::ReadOnly));
    const QStringList lines =
        QString::fromUtf8(groups.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    EXPECT_EQ(lines.size(), 3); // a header and one line per group
}

TEST(GroupToggle, TheCheckBoxAndTheViewMenuAgreeDriveBothChartsAndAreRemembered) {
    QTemporaryDir dir;
    QSettings settings(dir.filePath(QStringLiteral("s.conf")), QSettings::IniFormat);
    {
        MainWindow window(nullptr, test::scratchRunsFolder());
        auto *check = window.findChild<QCheckBox *>(QStringLiteral("runsOneByOneCheck"));
        auto *action = window.findChild<QAction *>(QStringLiteral("runsOneByOneAction"));
        ASSERT_NE(check, nullptr);
        ASSERT_NE(action, nullptr);
        EXPECT_FALSE(check->isChecked()) << "groups by default";
        action->setChecked(true); // the View menu
        EXPECT_TRUE(check->isChecked());
        EXPECT_TRUE(window.speedChart()->runsOneByOne());
        EXPECT_TRUE(window.lossChart()->options().runsOneByOne);
        check->setChecked(false);
        EXPECT_FALSE(action->isChecked());
        EXPECT_FALSE(window.speedChart()->runsOneByOne());
        check->setChecked(true);
        window.saveSettings(settings);
    }
    MainWindow again(nullptr, test::scratchRunsFolder());
    again.restoreSettings(settings);
    EXPECT_TRUE(again.chartsPanel()->chartOptions().runsOneByOne);
    EXPECT_TRUE(again.speedChart()->runsOneByOne());
}

TEST(BulkImport, AddingManyRecordsAtOnceDerivesWhatAddingThemOneByOneDoes) {
    std::vector<RunRecord> records = {cpuRun("a1", 1, 10.0), cpuRun("a2", 1, 10.5),
                                      cpuRun("b1", 4, 4.0), cpuRun("a1", 1, 99.0)};
    RunStore one;
    for (const RunRecord &record : records)
        one.addRecord(record, QStringLiteral("f.json"));
    RunStore bulk;
    const std::vector<int> indices =
        bulk.addRecords(records, {QStringLiteral("f.json"), QStringLiteral("f.json"),
                                  QStringLiteral("f.json"), QStringLiteral("f.json")});
    EXPECT_EQ(indices, (std::vector<int>{0, 1, 2, 0})) << "a runId already in is not added twice";
    ASSERT_EQ(bulk.runCount(), one.runCount());
    for (int i = 0; i < one.runCount(); ++i) {
        EXPECT_EQ(bulk.run(i).label, one.run(i).label);
        EXPECT_DOUBLE_EQ(bulk.run(i).summary.stableMean, one.run(i).summary.stableMean);
        EXPECT_EQ(bulk.run(i).isBaseline, one.run(i).isBaseline);
        EXPECT_EQ(bulk.run(i).origin, QStringLiteral("f.json"));
    }
    EXPECT_EQ(bulk.groups().groups.size(), 2u);
}
