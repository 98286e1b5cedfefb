// SPDX-License-Identifier: MIT
// The loss chart as people use a training dashboard: smoothing (ui/chart_math.h),
// zoom kept across live updates, every step of a zoomed-in epoch, hover values, runs shown and
// hidden, coinciding curves, log scale and the time axis. No timings here
// (bench/dashboard_scale measures the redraw).
#include "charts/chart_math.h"
#include "charts/charts.h"
#include "export/comparison_export.h"
#include "panels/charts_panel.h"
#include "store/run_store.h"
#include "test_support.h"
#include "theme/theme.h"
#include "window/main_window.h"

#include "devicebench/run_record.h"

#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QFontMetricsF>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QListWidget>
#include <QLogValueAxis>
#include <QPushButton>
#include <QSettings>
#include <QSlider>
#include <QTemporaryDir>
#include <QTest>
#include <QValueAxis>
#include <QWheelEvent>

#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

using namespace devicebench;

namespace {

// TensorBoard's loop, as written there: the reference the dashboard's smoothing must match.
std::vector<double> tensorBoardSmoothing(const std::vector<double> &values, double w) {
    std::vector<double> out;
    double last = 0.0;
    int n = 0;
    for (const double x : values) {
        last = last * w + (1.0 - w) * x;
        ++n;
        out.push_back(last / (1.0 - std::pow(w, n)));
    }
    return out;
}

std::vector<double> noisyLoss(std::size_t count, unsigned seed) {
    std::mt19937 random(seed);
    std::normal_distribution<double> noise(0.0, 0.15);
    std::vector<double> values;
    for (std::size_t i = 0; i < count; ++i)
        values.push_back(2.3 * std::exp(-static_cast<double>(i) / 2000.0) + 0.3 + noise(random));
    return values;
}

RunStarted startedWith(std::int64_t stepsPerEpoch) {
    RunStarted info;
    info.device = "cpu";
    info.deviceName = "CPU";
    info.threads = 1;
    info.stepsPerEpoch = stepsPerEpoch;
    info.synthetic = true;
    return info;
}

// The record the run's recorder hands the window at its start (RunController::recordStarted).
RunRecord startedRecord(int epochs, std::int64_t stepsPerEpoch) {
    RunRecorder recorder(test::syntheticConfig(epochs, 1), std::string(), nullptr, {});
    recorder.onRunStarted(startedWith(stepsPerEpoch));
    return recorder.record();
}

// Steps first..last (global step numbers) of a run with `perEpoch` steps per epoch.
std::vector<StepLoss> stepsOf(std::int64_t first, std::int64_t last, std::int64_t perEpoch,
                              double offset = 0.0) {
    std::vector<StepLoss> losses;
    for (std::int64_t s = first; s <= last; ++s)
        losses.push_back({static_cast<int>(1 + (s - 1) / perEpoch), s,
                          2.0 / (1.0 + static_cast<double>(s) / 100.0) + offset +
                              0.05 * std::sin(static_cast<double>(s))});
    return losses;
}

} // namespace

// ---- smoothing (chart_math.h) -----------------------------------------------------------------

TEST(Smoothing, AConstantLossStaysExactlyFlatAtEverySmoothingValue) {
    for (const double constant : {2.302585092994046, 0.1, 1e-7, 17.0}) {
        const std::vector<double> flat(3000, constant);
        for (int hundredths = 0; hundredths <= 99; ++hundredths) {
            const std::vector<double> smoothed = smoothDebiasedEma(flat, hundredths / 100.0);
            ASSERT_EQ(smoothed.size(), flat.size());
            for (std::size_t i = 0; i < smoothed.size(); ++i)
                ASSERT_EQ(smoothed[i], constant)
                    << "weight " << hundredths / 100.0 << " step " << i;
        }
    }
}

TEST(Smoothing, TheFirstPointsAreNotPulledTowardZero) {
    const std::vector<double> loss = {2.30, 2.28, 2.31, 2.25, 2.27};
    for (const double w : {0.6, 0.9, 0.99}) {
        const std::vector<double> smoothed = smoothDebiasedEma(loss, w);
        EXPECT_EQ(smoothed[0], loss[0]) << "the first shown value is the first value";
        for (std::size_t i = 0; i < loss.size(); ++i) {
            EXPECT_GE(smoothed[i], 2.25 - 1e-12) << "weight " << w << " point " << i;
            EXPECT_LE(smoothed[i], 2.31 + 1e-12) << "weight " << w << " point " << i;
        }
    }
}

TEST(Smoothing, MatchesTensorBoardsDebiasedExponentialMovingAverage) {
    const std::vector<double> loss = noisyLoss(7820, 7);
    for (const double w : {0.0, 0.3, 0.6, 0.9, 0.99}) {
        const std::vector<double> ours = smoothDebiasedEma(loss, w);
        const std::vector<double> reference = tensorBoardSmoothing(loss, w);
        for (std::size_t i = 0; i < loss.size(); ++i)
            ASSERT_NEAR(ours[i], reference[i], 1e-9) << "weight " << w << " step " << i;
    }
}

TEST(Smoothing, ZeroIsTheRawCurveAndNonFiniteValuesStayOutOfTheAverage) {
    const std::vector<double> loss = noisyLoss(50, 3);
    EXPECT_EQ(smoothDebiasedEma(loss, 0.0), loss);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const std::vector<double> smoothed = smoothDebiasedEma({2.0, nan, 2.0, 2.0}, 0.9);
    EXPECT_EQ(smoothed[0], 2.0);
    EXPECT_TRUE(std::isnan(smoothed[1]));
    EXPECT_EQ(smoothed[2], 2.0);
    EXPECT_EQ(smoothed[3], 2.0);
    EXPECT_EQ(smoothDebiasedEma(loss, 5.0), smoothDebiasedEma(loss, kMaxSmoothing))
        << "weights above the slider's end count as its end";
}

// ---- points for the visible range, coincidence ------------------------------------------------

TEST(VisibleRange, AZoomedInEpochIsDrawnWithEveryStep) {
    QList<QPointF> points;
    for (int s = 1; s <= 7820; ++s)
        points.append(QPointF(s / 782.0, std::sin(s)));
    EXPECT_LE(decimateVisible(points, 0.0, 10.0, kMaxDrawnPoints).size(), kMaxDrawnPoints);
    const QList<QPointF> epoch4 = decimateVisible(points, 3.0, 4.0, kMaxDrawnPoints);
    // Steps 2346..3128 lie in [3, 4], plus one neighbour on each side.
    ASSERT_EQ(epoch4.size(), 782 + 1 + 2);
    EXPECT_EQ(epoch4, points.mid(2344, 785));
    const IndexRange outside = visibleIndexRange(points, 20.0, 30.0);
    EXPECT_EQ(outside.last - outside.first, 1);
    EXPECT_EQ(visibleIndexRange({}, 0.0, 1.0).last, 0);
}

TEST(VisibleRange, StepsTimedTogetherAreSpreadOverTheIntervalBeforeThem) {
    QList<QPointF> points = {{2.0, 1.0}, {2.0, 1.1}, {4.0, 1.2},
                             {4.0, 1.3}, {4.0, 1.4}, {5.0, 1.5}};
    spreadTiedX(points);
    const QList<double> xs = {points[0].x(), points[1].x(), points[2].x(),
                              points[3].x(), points[4].x(), points[5].x()};
    EXPECT_EQ(xs, (QList<double>{2.0, 2.0, 2.0 + 2.0 / 3.0, 2.0 + 4.0 / 3.0, 4.0, 5.0}));
    EXPECT_EQ(points[3].y(), 1.3) << "the losses are kept";
}

TEST(Coincidence, ACurveOnTopOfAnEarlierOneIsFoundAndADifferentOneIsNot) {
    const std::vector<double> a = noisyLoss(100, 1);
    std::vector<double> sameAsA = a;
    sameAsA[50] += 1e-6; // float rounding between thread counts
    const std::vector<double> prefixOfA(a.begin(), a.begin() + 40); // a live run, not done yet
    const std::vector<double> other = noisyLoss(100, 2);
    const std::vector<int> found =
        findCoincidingCurves({&a, &other, &sameAsA, nullptr, &prefixOfA}, 1e-4);
    EXPECT_EQ(found, (std::vector<int>{-1, -1, 0, -1, 0}));
    const std::vector<double> empty;
    EXPECT_EQ(findCoincidingCurves({&empty, &empty}, 1e-4), (std::vector<int>{-1, -1}));
}

// ---- the chart -------------------------------------------------------------------------------

TEST(LossChartZoom, AUserZoomIsKeptWhileALiveRunAppendsSteps) {
    MainWindow window(nullptr, test::scratchRunsFolder());
    window.resize(1400, 900);
    window.show();
    window.onRunAccepted(1, {}); // the controller's order: accepted, then the record
    window.onRecordStarted(1, startedRecord(10, 100));
    window.onStepLosses(1, stepsOf(1, 250, 100));
    window.redrawNow();
    LossChart *chart = window.lossChart();
    EXPECT_DOUBLE_EQ(chart->xAxis()->max(), 10.0);

    // The user zooms with the wheel over the plot, then by a rubber band (QChart::zoomIn).
    auto *view = window.findChild<QChartView *>(QStringLiteral("lossChartView"));
    ASSERT_NE(view, nullptr);
    const QPoint centre = view->mapFromScene(chart->plotArea().center());
    QWheelEvent wheel(centre, view->mapToGlobal(centre), QPoint(), QPoint(0, 240), Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(view->viewport(), &wheel);
    EXPECT_TRUE(chart->userZoomed());
    EXPECT_LT(chart->xAxis()->max() - chart->xAxis()->min(), 10.0);
    QRectF band = chart->plotArea();
    band.setWidth(band.width() / 2);
    chart->zoomIn(band);
    const double xMin = chart->xAxis()->min();
    const double xMax = chart->xAxis()->max();
    const double yMin = chart->yAxis()->min();
    const double yMax = chart->yAxis()->max();

    // Live updates, as the controller delivers them: batches of steps, an epoch, redraws.
    for (std::int64_t first = 251; first <= 600; first += 50) {
        window.onStepLosses(1, stepsOf(first, first + 49, 100));
        window.redrawNow();
    }
    EpochResult epoch;
    epoch.epoch = 1;
    epoch.seconds = 1.0;
    epoch.testLoss = 1.5;
    window.onEpochFinished(1, epoch);
    window.redrawNow();
    EXPECT_EQ(chart->xAxis()->min(), xMin);
    EXPECT_EQ(chart->xAxis()->max(), xMax);
    EXPECT_EQ(chart->yAxis()->min(), yMin);
    EXPECT_EQ(chart->yAxis()->max(), yMax);
    EXPECT_TRUE(chart->userZoomed());
    EXPECT_EQ(window.store().findRun(1)->record.steps.size(), 600U);

    window.findChild<QPushButton *>(QStringLiteral("resetViewButton"))->click();
    EXPECT_FALSE(chart->userZoomed());
    EXPECT_DOUBLE_EQ(chart->xAxis()->min(), 0.0);
    EXPECT_DOUBLE_EQ(chart->xAxis()->max(), 10.0);
}

TEST(LossChartZoom, AZoomIntoOneEpochDrawsEveryStepOfIt) {
    RunStore store;
    test::addLiveRun(store, 1, test::syntheticConfig(10, 1), startedWith(782));
    store.liveRun(1)->onStepLosses(stepsOf(1, 7820, 782));
    LossChart chart;
    chart.sync(store);
    EXPECT_LE(chart.trainSeries(1)->count(), kMaxDrawnPoints);
    chart.setXRange(3.0, 4.0);
    // Steps 2346..3128, and one neighbour each side.
    EXPECT_EQ(chart.trainSeries(1)->count(), 785);
    EXPECT_EQ(chart.rawSeries(1)->count(), 785);
    EXPECT_NEAR(chart.rawSeries(1)->at(1).y(), store.findRun(1)->record.steps[2345].loss, 0.0);
    EXPECT_GT(chart.yAxis()->max(), chart.yAxis()->min());
}

TEST(LossChartSmoothing, ChangesOnlyTheDrawingNotTheStoreNorTheCsv) {
    MainWindow window(nullptr, test::scratchRunsFolder());
    window.onRunAccepted(1, {});
    window.onRecordStarted(1, startedRecord(2, 50));
    window.onStepLosses(1, stepsOf(1, 100, 50));
    for (int e = 1; e <= 2; ++e) {
        EpochResult epoch;
        epoch.epoch = e;
        epoch.seconds = 1.0 + e;
        epoch.trainLoss = 1.0;
        epoch.testLoss = 1.2;
        window.onEpochFinished(1, epoch);
    }
    ChartsPanel *panel = window.chartsPanel();
    QTemporaryDir dir;
    QString error;
    ChartOptions raw = panel->chartOptions();
    raw.smoothing = 0.0;
    panel->setChartOptions(raw);
    ASSERT_TRUE(window.exportCsv(dir.filePath(QStringLiteral("raw.csv")), &error))
        << error.toStdString();
    const std::vector<TimedStepLoss> stepsBefore = window.store().findRun(1)->record.steps;

    window.findChild<QSlider *>(QStringLiteral("smoothingSlider"))->setValue(90);
    EXPECT_DOUBLE_EQ(panel->chartOptions().smoothing, 0.9);
    ASSERT_TRUE(window.exportCsv(dir.filePath(QStringLiteral("smoothed.csv")), &error));
    const auto read = [&](const char *name) {
        QFile file(dir.filePath(QString::fromLatin1(name)));
        EXPECT_TRUE(file.open(QIODevice::ReadOnly));
        return file.readAll();
    };
    EXPECT_EQ(read("raw.csv"), read("smoothed.csv"));
    EXPECT_EQ(read("raw-summary.csv"), read("smoothed-summary.csv"));
    const std::vector<TimedStepLoss> &stepsAfter = window.store().findRun(1)->record.steps;
    ASSERT_EQ(stepsAfter.size(), stepsBefore.size());
    for (std::size_t i = 0; i < stepsAfter.size(); ++i)
        EXPECT_EQ(stepsAfter[i].loss, stepsBefore[i].loss);

    // Drawn: the raw steps faint behind, the smoothed line over them; the title says 0.90.
    LossChart *chart = window.lossChart();
    const QList<QPointF> rawDrawn = chart->rawSeries(1)->points();
    const QList<QPointF> smoothDrawn = chart->trainSeries(1)->points();
    ASSERT_EQ(rawDrawn.size(), 100);
    ASSERT_EQ(smoothDrawn.size(), 100);
    EXPECT_EQ(rawDrawn[10].y(), stepsBefore[10].loss);
    EXPECT_NE(smoothDrawn[10].y(), stepsBefore[10].loss);
    EXPECT_EQ(smoothDrawn[0].y(), stepsBefore[0].loss);
    EXPECT_TRUE(chart->rawSeries(1)->isVisible());
    EXPECT_LT(chart->rawSeries(1)->pen().color().alphaF(),
              chart->trainSeries(1)->pen().color().alphaF());
    EXPECT_TRUE(chart->title().contains(QStringLiteral("smoothed 0.90")));
}

TEST(LossChartSmoothing, IsRememberedWithTheAxisChoices) {
    QTemporaryDir dir;
    QSettings settings(dir.filePath(QStringLiteral("s.conf")), QSettings::IniFormat);
    {
        MainWindow window(nullptr, test::scratchRunsFolder());
        EXPECT_DOUBLE_EQ(window.chartsPanel()->chartOptions().smoothing, 0.6) << "the default";
        window.findChild<QSlider *>(QStringLiteral("smoothingSlider"))->setValue(85);
        auto *combo = window.findChild<QComboBox *>(QStringLiteral("xAxisCombo"));
        combo->setCurrentIndex(combo->findData(QStringLiteral("time")));
        window.findChild<QCheckBox *>(QStringLiteral("logScaleCheck"))->setChecked(true);
        window.saveSettings(settings);
    }
    MainWindow again(nullptr, test::scratchRunsFolder());
    again.restoreSettings(settings);
    const ChartOptions options = again.chartsPanel()->chartOptions();
    EXPECT_DOUBLE_EQ(options.smoothing, 0.85);
    EXPECT_EQ(options.xAxis, XAxisMode::Seconds);
    EXPECT_TRUE(options.logScale);
    EXPECT_EQ(again.lossChart()->options().xAxis, XAxisMode::Seconds);
}

TEST(LossChartHover, ShowsRunEpochStepAndTheRawAndSmoothedLoss) {
    RunStore store;
    test::addLiveRun(store, 1, test::syntheticConfig(2, 1), startedWith(10));
    store.liveRun(1)->onStepLosses({{1, 1, 2.0}, {1, 2, 1.0}, {2, 11, 1.5}, {2, 12, 1.25}});
    LossChart chart;
    chart.setGeometry(0, 0, 800, 500);
    chart.sync(store);
    const QString text = chart.showHover(1, 1.12); // epochs: step 11 sits at 1.1
    EXPECT_EQ(chart.hoverText(), text);
    EXPECT_TRUE(text.contains(store.findRun(1)->label)) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("epoch 2 · step 11"))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("loss 1.5000"))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("smoothed "))) << text.toStdString();
    chart.hideHover();
    EXPECT_TRUE(chart.hoverText().isEmpty());
}

TEST(SpeedChartHover, ShowsStableMeanIntervalEpochsAndSpeedUp) {
    RunStore store;
    for (int id : {1, 2}) {
        test::addLiveRun(store, id, test::syntheticConfig(4, 1), startedWith(10));
        for (int e = 1; e <= 4; ++e) {
            EpochResult epoch;
            epoch.epoch = e;
            epoch.seconds = (id == 1 ? 10.0 : 5.0) + 0.1 * e;
            epoch.testLoss = 1.0;
            store.liveRun(id)->onEpochFinished(epoch);
        }
    }
    SpeedChart chart;
    chart.setGeometry(0, 0, 800, 500);
    chart.setRunsOneByOne(true); // two runs of one configuration: a group otherwise
    chart.sync(store);
    const QString fast = chart.hoverText(1);
    EXPECT_TRUE(fast.contains(QStringLiteral("stable mean 5.300 s"))) << fast.toStdString();
    EXPECT_TRUE(fast.contains(QStringLiteral("95% interval ["))) << fast.toStdString();
    EXPECT_TRUE(fast.contains(QStringLiteral("epochs 2 to 4 (3 stable, 1 warm-up)")))
        << fast.toStdString();
    EXPECT_TRUE(fast.contains(QStringLiteral("speed-up 1.94x"))) << fast.toStdString();
    EXPECT_TRUE(chart.hoverText(0).contains(QStringLiteral("baseline")));
    chart.showHover(1);
    EXPECT_EQ(chart.shownHover(), fast);
}

TEST(HiddenRuns, AHiddenRunLeavesBothChartsAndIsRememberedByRunId) {
    QTemporaryDir dir;
    QSettings settings(dir.filePath(QStringLiteral("s.conf")), QSettings::IniFormat);
    std::string hiddenRunId;
    {
        MainWindow window(nullptr, test::scratchRunsFolder());
        window.show(); // legend entries are laid out (and visible) in a shown chart
        ChartOptions options = window.chartsPanel()->chartOptions();
        options.runsOneByOne = true; // two runs of one configuration: a group otherwise
        window.chartsPanel()->setChartOptions(options);
        for (int id : {1, 2}) {
            window.onRunAccepted(id, {});
            window.onRecordStarted(id, startedRecord(2, 10));
            window.onStepLosses(id, stepsOf(1, 20, 10, id * 0.5));
        }
        window.redrawNow();
        hiddenRunId = window.store().findRun(2)->record.runId;
        // The legend entry of run #2 is clicked.
        LossChart *chart = window.lossChart();
        const QList<QLegendMarker *> markers = chart->legend()->markers(chart->trainSeries(2));
        ASSERT_EQ(markers.size(), 1);
        Q_EMIT markers[0]->clicked();
        EXPECT_TRUE(window.store().isRunHidden(2));
        EXPECT_FALSE(chart->trainSeries(2)->isVisible());
        EXPECT_FALSE(chart->rawSeries(2)->isVisible());
        const QList<QLegendMarker *> after = chart->legend()->markers(chart->trainSeries(2));
        ASSERT_EQ(after.size(), 1);
        // The legend lays its entries out (and shows them) from the event loop.
        EXPECT_TRUE(test::waitUntil([&] { return after[0]->isVisible(); }, 2000))
            << "its legend entry stays, to show it again";
        EXPECT_TRUE(chart->trainSeries(1)->isVisible());
        ASSERT_EQ(window.speedChart()->categories().size(), 1) << "run #2 has no bar";
        EXPECT_TRUE(
            window.speedChart()->categories()[0].startsWith(window.store().findRun(1)->label));
        // The run list's box follows, and unchecking run #1 there hides it too.
        auto *list = window.findChild<QListWidget *>(QStringLiteral("runList"));
        ASSERT_EQ(list->count(), 2);
        EXPECT_EQ(list->item(1)->checkState(), Qt::Unchecked);
        EXPECT_EQ(list->item(0)->checkState(), Qt::Checked);
        list->item(0)->setCheckState(Qt::Unchecked);
        EXPECT_TRUE(window.store().isRunHidden(1));
        list->item(0)->setCheckState(Qt::Checked);
        EXPECT_FALSE(window.store().isRunHidden(1));
        window.saveSettings(settings);
    }
    MainWindow again(nullptr, test::scratchRunsFolder());
    again.restoreSettings(settings);
    RunRecord record = startedRecord(2, 10);
    record.runId = hiddenRunId; // the same run, imported again
    again.onRunAccepted(7, {});
    again.onRecordStarted(7, record);
    again.redrawNow();
    EXPECT_TRUE(again.store().isRunHidden(7));
    EXPECT_FALSE(again.lossChart()->trainSeries(7)->isVisible());
}

TEST(HiddenRuns, TheBarChartLeavesOutAHiddenRunsBar) {
    RunStore store;
    for (int id : {1, 2}) {
        test::addLiveRun(store, id, test::syntheticConfig(3, 1), startedWith(10));
        for (int e = 1; e <= 3; ++e) {
            EpochResult epoch;
            epoch.epoch = e;
            epoch.seconds = id + 0.1 * e;
            store.liveRun(id)->onEpochFinished(epoch);
        }
    }
    SpeedChart chart;
    chart.setRunsOneByOne(true); // two runs of one configuration: a group otherwise
    chart.sync(store);
    ASSERT_EQ(chart.barValues().size(), 2U);
    store.setRunHidden(1, true);
    chart.sync(store);
    ASSERT_EQ(chart.barValues().size(), 1U);
    EXPECT_TRUE(chart.categories()[0].startsWith(store.findRun(2)->label));
    EXPECT_EQ(chart.barColour(0).rgb(), theme::runColour(2).rgb()) << "it keeps its colour";
}

TEST(CoincidingCurves, TheLaterRunIsDashedAndItsLegendSaysIdenticalToTheFirst) {
    RunStore store;
    // #4 differs from #1 by 2e-4 nats (the rounding of another thread count, grown over the
    // run): far under a pixel of the loss axis.
    const double offsets[] = {0.0, 0.0, 0.3, 2e-4};
    for (int id : {1, 2, 3, 4}) {
        test::addLiveRun(store, id, test::syntheticConfig(2, 1), startedWith(10));
        store.liveRun(id)->onStepLosses(stepsOf(1, 20, 10, offsets[id - 1]));
    }
    LossChart chart;
    ChartOptions options;
    options.runsOneByOne = true; // four runs of one configuration: a group otherwise
    chart.setOptions(options);
    chart.sync(store);
    EXPECT_EQ(chart.identicalTo(2), 1);
    EXPECT_EQ(chart.identicalTo(3), 0);
    EXPECT_EQ(chart.identicalTo(4), 1);
    EXPECT_EQ(chart.trainSeries(2)->pen().style(), Qt::CustomDashLine);
    EXPECT_EQ(chart.trainSeries(1)->pen().style(), Qt::SolidLine);
    EXPECT_TRUE(chart.trainSeries(2)->name().endsWith(QStringLiteral("(identical to #1)")));
    EXPECT_NE(chart.trainSeries(1)->pen().color().rgb(), chart.trainSeries(2)->pen().color().rgb());
    store.setRunHidden(1, true);
    chart.sync(store);
    EXPECT_EQ(chart.identicalTo(2), 0) << "nothing lies under it now";
    EXPECT_EQ(chart.trainSeries(2)->pen().style(), Qt::SolidLine);
}

TEST(LossChartAxes, LogScaleAndTheTimeAxisWhereTheFasterRunEndsEarlier) {
    RunStore store;
    RunRecord slow = startedRecord(1, 4);
    RunRecord fast = startedRecord(1, 4);
    slow.runId = "slow";
    fast.runId = "fast";
    for (std::int64_t s = 1; s <= 4; ++s) {
        slow.steps.push_back({1, s, 2.0 / static_cast<double>(s), 2.0 * static_cast<double>(s)});
        fast.steps.push_back({1, s, 2.0 / static_cast<double>(s), 0.5 * static_cast<double>(s)});
    }
    store.addRecord(slow, QStringLiteral("slow.json"));
    store.addRecord(fast, QStringLiteral("fast.json"));
    const int slowId = store.run(0).id;
    const int fastId = store.run(1).id;
    LossChart chart;
    ChartOptions options;
    options.smoothing = 0.0;
    options.xAxis = XAxisMode::Seconds;
    options.runsOneByOne = true; // two runs of one configuration: a group otherwise
    chart.setOptions(options);
    chart.sync(store);
    EXPECT_DOUBLE_EQ(chart.trainSeries(slowId)->points().back().x(), 8.0);
    EXPECT_DOUBLE_EQ(chart.trainSeries(fastId)->points().back().x(), 2.0);
    EXPECT_DOUBLE_EQ(chart.xAxis()->max(), 8.0);
    EXPECT_EQ(chart.identicalTo(fastId), 0) << "a time axis separates equal losses";

    options.xAxis = XAxisMode::Steps;
    options.logScale = true;
    chart.setOptions(options);
    chart.sync(store);
    EXPECT_DOUBLE_EQ(chart.trainSeries(slowId)->points().back().x(), 4.0);
    EXPECT_TRUE(chart.axes(Qt::Vertical).contains(chart.logYAxis()));
    EXPECT_FALSE(chart.axes(Qt::Vertical).contains(chart.yAxis()));
    EXPECT_GT(chart.logYAxis()->min(), 0.0);
    EXPECT_LE(chart.logYAxis()->min(), 0.5);
    EXPECT_GE(chart.logYAxis()->max(), 2.0);
    EXPECT_TRUE(chart.trainSeries(slowId)->attachedAxes().contains(chart.logYAxis()));
    // Losses within one decade still get labelled ticks: a base that fits about five.
    const double ticks = std::log(chart.logYAxis()->max() / chart.logYAxis()->min()) /
                         std::log(chart.logYAxis()->base());
    EXPECT_GE(ticks, 3.0);
    EXPECT_LE(ticks, 6.0);
    options.logScale = false;
    chart.setOptions(options);
    EXPECT_TRUE(chart.axes(Qt::Vertical).contains(chart.yAxis()));
}

TEST(SpeedChartTitle, ANarrowChartGetsAShorterTitleInsteadOfACutOne) {
    SpeedChart chart;
    chart.setGeometry(0, 0, 1400, 400);
    const QString wide = chart.title();
    EXPECT_TRUE(wide.startsWith(QStringLiteral("Stable mean seconds per epoch")))
        << wide.toStdString();
    chart.setGeometry(0, 0, 380, 400);
    const QString narrow = chart.title();
    EXPECT_LT(narrow.size(), wide.size());
    const QFontMetricsF metrics(chart.titleFont());
    EXPECT_LE(metrics.horizontalAdvance(narrow), 380.0);
}
