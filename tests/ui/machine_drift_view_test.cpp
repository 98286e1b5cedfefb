// SPDX-License-Identifier: MIT
// A machine that changes speed (the canary, machine_drift.h and machine_speed.h) in the
// dashboard: an epoch flagged speedChanged is marked in the epoch table (its seconds and its
// own column, with a tooltip saying how far the canary moved), its test-loss dot is ringed on
// the loss chart, the bar of a run with such stable epochs gets a red note, a speed-up between
// runs made at two machine speeds is marked biased, and the compare panel and the exported
// picture list both. Also: the exported picture's loss legend names a coinciding curve as the
// window's does.
#include "charts/charts.h"
#include "csv_cells.h"
#include "export/comparison_export.h"
#include "panels/compare_panel.h"
#include "panels/epoch_table.h"
#include "store/run_store.h"
#include "theme/theme.h"

#include "devicebench/machine_drift.h"

#include "record_builder.h"

#include <gtest/gtest.h>

#include <QBrush>
#include <QGraphicsScene>
#include <QGuiApplication>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QScatterSeries>

#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

namespace devicebench {
namespace {

CanaryTime canaryOf(double seconds, double noise = 0.01) {
    CanaryTime c;
    c.measured = true;
    c.seconds = seconds;
    c.runThreadsSeconds = seconds; // a one-thread run: the same measurement
    c.noise = noise;
    return c;
}

// A finished one-thread CPU run on "host" (first epoch warm-up) with a canary of `first`
// seconds before epoch 1 and `canaries[i]` after epoch i + 1; an epoch whose canary is more than
// the noise plus kCanaryMargin away from the first is flagged, as the engine does. An empty
// `canaries`: a record from before the canary. Four steps per epoch, losses from `lossBase`.
RunRecord runOf(const std::string &id, const std::vector<double> &seconds, double first,
                const std::vector<double> &canaries, double lossBase = 2.0) {
    RunRecord r = testing::finishedCpuRun(id, seconds);
    r.started.stepsPerEpoch = 4;
    r.fingerprint.cpuModel = "Test CPU";
    if (!canaries.empty())
        r.started.canary = canaryOf(first);
    double clock = 0.0;
    for (std::size_t i = 0; i < seconds.size(); ++i) {
        EpochResult &e = r.epochs[i];
        e.trainLoss = lossBase - 0.1 * e.epoch;
        e.testLoss = lossBase - 0.1 * e.epoch;
        if (!canaries.empty()) {
            e.canary = canaryOf(canaries[i]);
            e.canaryChange = canaries[i] / first - 1.0;
            e.speedChanged = std::abs(e.canaryChange) > 0.01 + kCanaryMargin;
        }
        for (int k = 1; k <= 4; ++k) {
            clock += seconds[i] / 4.0;
            r.steps.push_back({e.epoch, (e.epoch - 1) * 4 + k, lossBase - 0.02 * k, clock});
        }
    }
    return r;
}

int sectionOf(EpochColumn column) {
    for (int section = 0; section < kEpochTableShownColumns; ++section) {
        if (epochTableColumn(section) == column)
            return section;
    }
    return -1;
}

// #1 the baseline (slower device, canary 10 ms throughout); #2 twice as fast, on a machine
// 20 % slower (canary 12 ms), with epochs 3 and 4 a further 22 % slower (flagged).
void fillDriftingRuns(RunStore &store) {
    store.addRecord(runOf("base", {2.0, 2.0, 2.0, 2.0}, 0.010, {0.010, 0.010, 0.010, 0.010}),
                    QStringLiteral("base.json"));
    store.addRecord(runOf("drift", {1.0, 1.0, 1.0, 1.0}, 0.012, {0.012, 0.012, 0.01464, 0.01464}),
                    QStringLiteral("drift.json"));
}

TEST(MachineDriftTable, AFlaggedEpochSaysItsCanaryChangeAndItsSecondsAreMarked) {
    RunStore store;
    fillDriftingRuns(store);
    store.addRecord(runOf("old", {1.0, 1.0}, 0.0, {}), QStringLiteral("old.json"));
    EpochTableModel table(store);
    table.refresh();
    ASSERT_EQ(table.rowCount(), 10);
    const int seconds = sectionOf(EpochColumn::Seconds);
    const int speed = sectionOf(EpochColumn::SpeedChanged);
    ASSERT_EQ(speed, kEpochTableShownColumns - 2) << "beside contended, the last";
    EXPECT_EQ(table.headerData(speed, Qt::Horizontal).toString(), QStringLiteral("machine speed"));

    const int flagged = 6; // #2, epoch 3
    EXPECT_EQ(table.data(table.index(flagged, speed)).toString(), QStringLiteral("canary +22 %"));
    EXPECT_EQ(table.data(table.index(flagged, seconds)).toString(), QStringLiteral("⚠ 1.00"));
    const QColor error =
        theme::colour(theme::Role::ErrorText, theme::themeOf(QGuiApplication::palette()));
    EXPECT_EQ(table.data(table.index(flagged, seconds), Qt::ForegroundRole).value<QBrush>().color(),
              error);
    EXPECT_EQ(table.data(table.index(flagged, speed), Qt::ForegroundRole).value<QBrush>().color(),
              error);
    EXPECT_TRUE(table.data(table.index(flagged, seconds), Qt::ToolTipRole)
                    .toString()
                    .startsWith(QStringLiteral("machine speed changed: canary +22 % against the "
                                               "run's first canary (noise 1 %)")))
        << table.data(table.index(flagged, seconds), Qt::ToolTipRole).toString().toStdString();

    const int steady = 5; // #2, epoch 2
    EXPECT_EQ(table.data(table.index(steady, speed)).toString(), QString());
    EXPECT_EQ(table.data(table.index(steady, seconds)).toString(), QStringLiteral("1.00"));
    EXPECT_FALSE(table.data(table.index(steady, seconds), Qt::ToolTipRole).isValid());
    EXPECT_TRUE(table.data(table.index(8, speed), Qt::ToolTipRole)
                    .toString()
                    .startsWith(QStringLiteral("No canary")))
        << "an older record: unknown, not steady";

    // The same epochs in the exported CSV.
    const StoredRun &drift = store.run(1);
    const StoredRun &old = store.run(2);
    EXPECT_EQ(test::csvCell(drift, drift.record.epochs[2], "speed_changed"), QStringLiteral("1"));
    EXPECT_EQ(test::csvCell(drift, drift.record.epochs[1], "speed_changed"), QStringLiteral("0"));
    EXPECT_EQ(test::csvCell(old, old.record.epochs[1], "speed_changed"), QString());
    EXPECT_EQ(epochCell(old, old.record.epochs[1], EpochColumn::SpeedChanged), QString());
    EXPECT_EQ(test::csvCell(drift, drift.record.epochs[2], "seconds"), QStringLiteral("1.0000"))
        << "no mark inside a CSV number";
    EXPECT_EQ(epochColumnKey(EpochColumn::SpeedChanged), QStringLiteral("speed_changed"));
}

TEST(MachineDriftBars, ARunWithChangedStableEpochsGetsARedLineAndABiasedSpeedUp) {
    RunStore store;
    fillDriftingRuns(store);
    ASSERT_EQ(store.baselineIndex(), 0);
    ASSERT_TRUE(store.run(1).machineSpeed.biased) << "a 20 % slower machine during #2";
    SpeedChart bars;
    bars.setRunsOneByOne(true); // repeats of one configuration: a group otherwise
    bars.sync(store);
    ASSERT_EQ(bars.categories().size(), 2);
    const QString category = bars.categories()[1];
    EXPECT_TRUE(category.contains(
        QStringLiteral("⚠ machine speed changed:<br>epochs 3, 4 (canary up to +22 %)")))
        << category.toStdString();
    EXPECT_TRUE(category.contains(QStringLiteral("2.00x")));
    EXPECT_TRUE(category.contains(QStringLiteral("⚠ biased</span>"))) << category.toStdString();
    EXPECT_FALSE(bars.categories()[0].contains(QStringLiteral("machine speed")));
    EXPECT_FALSE(bars.categories()[0].contains(QStringLiteral("biased")));

    const QString hover = bars.hoverText(1);
    EXPECT_TRUE(hover.contains(QStringLiteral("machine speed changed: canary up to +22 % over the "
                                              "stable epochs, 2 of 3 (3, 4) flagged")))
        << hover.toStdString();
    EXPECT_TRUE(hover.contains(QStringLiteral("the machine was 20 % slower during run #2 than "
                                              "during run #1")))
        << hover.toStdString();
    EXPECT_TRUE(bars.hoverText(0).contains(QStringLiteral("machine speed steady")))
        << bars.hoverText(0).toStdString();
}

TEST(MachineDriftBars, BeyondThreeRunsTheCompactLabelSaysBiasedAndSpeedChanged) {
    RunStore store;
    fillDriftingRuns(store);
    store.addRecord(runOf("c", {2.0, 2.0, 2.0, 2.0}, 0.010, {0.010, 0.010, 0.010, 0.010}),
                    QStringLiteral("c.json"));
    store.addRecord(runOf("d", {2.0, 2.0, 2.0, 2.0}, 0.010, {0.010, 0.010, 0.010, 0.010}),
                    QStringLiteral("d.json"));
    SpeedChart bars;
    bars.setRunsOneByOne(true); // repeats of one configuration: a group otherwise
    bars.sync(store);
    ASSERT_EQ(bars.categories().size(), 4);
    EXPECT_TRUE(bars.categories()[1].contains(QStringLiteral("⚠ biased")));
    EXPECT_TRUE(bars.categories()[1].contains(QStringLiteral("⚠ speed changed")));
    EXPECT_FALSE(bars.categories()[2].contains(QStringLiteral("⚠")));
}

TEST(MachineDriftLossChart, TheTestDotsOfFlaggedEpochsAreRingedAndTheirHoverSaysSo) {
    RunStore store;
    fillDriftingRuns(store);
    LossChart chart;
    ChartOptions options;
    options.runsOneByOne = true; // repeats of one configuration: a group otherwise
    chart.setOptions(options);
    chart.sync(store);
    const int base = store.run(0).id;
    const int drift = store.run(1).id;
    ASSERT_NE(chart.speedChangedSeries(drift), nullptr);
    EXPECT_EQ(chart.speedChangedSeries(base)->count(), 0);
    const QList<QPointF> rings = chart.speedChangedSeries(drift)->points();
    ASSERT_EQ(rings.size(), 2);
    EXPECT_EQ(rings[0], QPointF(3.0, 2.0 - 0.3)) << "epoch 3's test loss, at the epoch's end";
    EXPECT_EQ(rings[1].x(), 4.0);
    QScatterSeries *series = chart.speedChangedSeries(drift);
    EXPECT_GT(series->markerSize(), chart.testSeries(drift)->markerSize());
    EXPECT_EQ(series->pen().color(), theme::colour(theme::Role::ErrorText, theme::themeOf(chart)));
    for (QLegendMarker *marker : chart.legend()->markers(series))
        EXPECT_FALSE(marker->isVisible()) << "one legend entry per run";

    EXPECT_TRUE(chart.showHover(drift, 3.0)
                    .contains(QStringLiteral("epoch 3: machine speed changed (canary +22 %)")))
        << chart.hoverText().toStdString();
    EXPECT_FALSE(chart.showHover(drift, 2.0).contains(QStringLiteral("machine speed")));

    store.setRunHidden(drift, true);
    chart.sync(store);
    EXPECT_FALSE(chart.speedChangedSeries(drift)->isVisible());
}

TEST(MachineDriftNotes, TheComparePanelAndThePictureListDriftAndTheBiasedSpeedUp) {
    RunStore store;
    fillDriftingRuns(store);
    const QStringList notes = machineSpeedNotes(store);
    ASSERT_EQ(notes.size(), 2) << notes.join(QLatin1Char('\n')).toStdString();
    EXPECT_TRUE(
        notes[0].startsWith(QStringLiteral("#2: machine speed changed: canary up to +22 %")))
        << notes[0].toStdString();
    EXPECT_TRUE(notes[1].startsWith(
        QStringLiteral("the machine was 20 % slower during run #2 than during run #1")))
        << notes[1].toStdString();

    ComparePanel panel(store);
    panel.syncRuns();
    const QLabel *label = panel.findChild<QLabel *>(QStringLiteral("machineSpeedNotesLabel"));
    ASSERT_NE(label, nullptr);
    EXPECT_FALSE(label->isHidden());
    EXPECT_TRUE(label->text().contains(QStringLiteral("#2: machine speed changed")));
    EXPECT_TRUE(label->text().contains(QStringLiteral("the speed-up is biased")));

    store.removeRun(store.run(1).id);
    panel.syncRuns();
    EXPECT_TRUE(machineSpeedNotes(store).isEmpty());
    EXPECT_TRUE(label->isHidden());
}

// The legend texts of the loss chart the picture draws (renderComparison's scene).
QStringList pictureLegendLabels(const RunStore &store) {
    QGraphicsScene scene;
    ChartOptions options;
    options.runsOneByOne = true; // repeats of one configuration: a group otherwise
    QChart *loss = pictureLossChart(scene, store, options,
                                    QRectF(0, 0, kExportWidth, kExportHeight * 57 / 100));
    QStringList labels;
    for (QLegendMarker *marker : loss->legend()->markers())
        if (marker->isVisible())
            labels.append(marker->label());
    return labels;
}

TEST(PictureLegend, TheExportedLossLegendSaysIdenticalToAsTheWindowDoes) {
    ChartOptions options;
    options.runsOneByOne = true; // repeats of one configuration: a group otherwise
    RunStore store;
    store.addRecord(runOf("a", {1.0, 1.0, 1.0}, 0.010, {0.010, 0.010, 0.010}),
                    QStringLiteral("a.json"));
    store.addRecord(runOf("b", {0.5, 0.5, 0.5}, 0.010, {0.010, 0.010, 0.010}),
                    QStringLiteral("b.json"));
    LossChart window;
    window.setOptions(options);
    window.sync(store);
    const QString second = window.trainSeries(store.run(1).id)->name();
    ASSERT_TRUE(second.endsWith(QStringLiteral("(identical to #1)"))) << second.toStdString();

    const QStringList labels = pictureLegendLabels(store);
    ASSERT_EQ(labels.size(), 2) << labels.join(QLatin1Char('|')).toStdString();
    EXPECT_EQ(labels[0], window.trainSeries(store.run(0).id)->name());
    EXPECT_EQ(labels[1], second);
}

} // namespace
} // namespace devicebench
