// SPDX-License-Identifier: MIT
// What the machine did during a run, in the dashboard: the store keeps the readings (live and
// imported), the System view draws them (system_chart.h), the epoch table's CPU, memory and
// energy columns, and the System view in the exported picture.
#include "charts/system_chart.h"
#include "csv_cells.h"
#include "export/comparison_export.h"
#include "panels/charts_panel.h"
#include "panels/epoch_table.h"
#include "record_builder.h"
#include "store/run_store.h"
#include "test_support.h"
#include "window/main_window.h"

#include "devicebench/run_record.h"
#include "devicebench/system_metrics.h"

#include <QComboBox>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QValueAxis>

#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

namespace devicebench {
namespace {

constexpr double kMiB = 1024.0 * 1024.0;

// `count` readings a quarter of a second apart from `from` seconds: 2 + i/10 process cores,
// 6 machine cores, 500 MiB + i MiB resident; with `gpu`, 80 % utilisation, 2 GiB of GPU memory
// and 150 W; without, the GPU's fields stay NaN (a CPU run, or no NVIDIA driver).
std::vector<SystemSample> readings(int count, bool gpu, double from = 0.25) {
    std::vector<SystemSample> samples;
    for (int i = 0; i < count; ++i) {
        SystemSample s;
        s.seconds = from + 0.25 * i;
        s.processCores = 2.0 + i / 10.0;
        s.machineCores = 6.0;
        s.rssBytes = (500.0 + i) * kMiB;
        if (gpu) {
            s.gpuUtilization = 0.8;
            s.gpuMemoryBytes = 2048.0 * kMiB;
            s.gpuPowerWatts = 150.0;
        }
        samples.push_back(s);
    }
    return samples;
}

// A finished record sampled every 0.25 s, its readings as `readings` makes them.
RunRecord sampledRecord(const std::string &id, bool gpu) {
    RunRecord r = testing::finishedCpuRun(id, {4.0, 3.0, 3.0});
    r.sampling.sampled = true;
    r.sampling.periodSeconds = 0.25;
    if (!gpu)
        r.sampling.notes = {"gpu: no NVIDIA driver (libnvidia-ml.so.1 not found)"};
    r.samples = readings(40, gpu);
    for (EpochResult &e : r.epochs) {
        e.system.sampled = true;
        e.system.samples = 12;
        e.system.processCores = {3.21, 4.0};
        e.system.machineCores = {6.0, 7.5};
        e.system.rssBytes = {600.0 * kMiB, 812.0 * kMiB};
        e.system.cpuEnergy = {EnergyMethod::Rapl, 850.0, "package-0"};
        e.system.gpuEnergy.note = kNotTheRunsDevice;
    }
    return r;
}

std::vector<int> lineCount(const SystemChart &chart, const RunStore &store) {
    std::vector<int> counts;
    for (const StoredRun &run : store.runs()) {
        const QLineSeries *series = chart.series(run.id);
        counts.push_back(series == nullptr ? -1 : static_cast<int>(series->count()));
    }
    return counts;
}

} // namespace

// ---- the store ------------------------------------------------------------------------------

TEST(SystemStore, KeepsALiveRunsReadingsInItsRecordAndIgnoresUnknownRuns) {
    RunStore store;
    store.acceptRun(1);
    store.liveRun(1)->onRecordStarted(testing::finishedCpuRun("live", {}));
    int changes = 0;
    QObject::connect(&store, &RunStore::changed, [&] { ++changes; });
    store.liveRun(1)->onSystemSamples(readings(3, false));
    store.liveRun(1)->onSystemSamples(readings(2, false, 1.0));
    EXPECT_EQ(store.liveRun(7), nullptr); // no such run
    const RunRecord &record = store.findRun(1)->record;
    ASSERT_EQ(record.samples.size(), 5U);
    EXPECT_EQ(record.samples[3].seconds, 1.0) << "in the order they came";
    EXPECT_EQ(record.samples[0].processCores, 2.0);
    EXPECT_EQ(changes, 2) << "one change per delivery to a known run";
    EXPECT_TRUE(runSampled(record));
}

TEST(SystemStore, KeepsAnImportedRecordsReadingsAndHowItWasSampled) {
    RunStore store;
    const int index = store.addRecord(sampledRecord("imported", true), QStringLiteral("a.json"));
    const RunRecord &record = store.run(index).record;
    EXPECT_EQ(record.samples.size(), 40U);
    EXPECT_TRUE(record.sampling.sampled);
    EXPECT_EQ(record.sampling.periodSeconds, 0.25);
    EXPECT_TRUE(hasQuantity(record, SystemQuantity::GpuPower));
}

TEST(SystemStore, TheWindowHandsALiveRunsReadingsToTheStore) {
    MainWindow window(nullptr, test::scratchRunsFolder());
    window.onRunAccepted(1, {});
    window.onRecordStarted(1, testing::finishedCpuRun("live", {}));
    window.onSystemSamples(1, readings(4, true));
    ASSERT_NE(window.store().findRun(1), nullptr);
    EXPECT_EQ(window.store().findRun(1)->record.samples.size(), 4U);
}

// ---- the System view --------------------------------------------------------------------------

TEST(SystemView, DrawsALinePerRunForEveryQuantityItSampled) {
    RunStore store;
    store.addRecord(sampledRecord("gpu", true), QStringLiteral("gpu.json"));
    store.addRecord(sampledRecord("gpu-too", true), QStringLiteral("gpu2.json"));
    const std::vector<SystemQuantity> quantities = sampledQuantities(store);
    ASSERT_EQ(quantities.size(), static_cast<std::size_t>(kSystemQuantityCount));
    SystemChart chart;
    for (const SystemQuantity q : quantities) {
        chart.setQuantity(q);
        chart.sync(store);
        EXPECT_EQ(lineCount(chart, store), (std::vector<int>{40, 40}))
            << systemQuantityName(q).toStdString();
        EXPECT_TRUE(chart.note().isEmpty()) << chart.note().toStdString();
    }
    chart.setQuantity(SystemQuantity::Cpu);
    chart.sync(store);
    const int first = store.run(0).id;
    EXPECT_EQ(chart.machineSeries(first)->count(), 40) << "the machine's cores under the run's";
    EXPECT_EQ(chart.unit(), QStringLiteral("cores"));
    EXPECT_DOUBLE_EQ(chart.series(first)->at(10).y(), 3.0);
    EXPECT_DOUBLE_EQ(chart.series(first)->at(10).x(), 2.75) << "seconds on the run's clock";
    chart.setQuantity(SystemQuantity::Memory);
    chart.sync(store);
    EXPECT_EQ(chart.unit(), QStringLiteral("MiB"));
    EXPECT_DOUBLE_EQ(chart.series(first)->at(10).y(), 510.0);
    EXPECT_EQ(chart.machineSeries(first)->count(), 0) << "the machine's line is CPU's alone";
    chart.setQuantity(SystemQuantity::GpuMemory);
    chart.sync(store);
    EXPECT_EQ(chart.unit(), QStringLiteral("GiB"));
    EXPECT_DOUBLE_EQ(chart.series(first)->at(0).y(), 2.0);
    chart.setQuantity(SystemQuantity::GpuUtilization);
    chart.sync(store);
    EXPECT_DOUBLE_EQ(chart.series(first)->at(0).y(), 80.0) << "the record's fraction in %";
    EXPECT_DOUBLE_EQ(chart.yAxis()->max(), 100.0);
}

TEST(SystemView, LeavesTheGpuOutWhereItWasNotRead) {
    RunStore store;
    const int cpu = store.run(store.addRecord(sampledRecord("cpu", false), QStringLiteral("a"))).id;
    EXPECT_EQ(sampledQuantities(store),
              (std::vector<SystemQuantity>{SystemQuantity::Cpu, SystemQuantity::Memory}));
    SystemChart chart;
    chart.setQuantity(SystemQuantity::GpuPower);
    chart.sync(store);
    EXPECT_EQ(chart.series(cpu)->count(), 0);
    EXPECT_TRUE(chart.note().contains(QStringLiteral("No readings of GPU power")))
        << chart.note().toStdString();
    EXPECT_TRUE(chart.note().contains(QStringLiteral("no NVIDIA driver")))
        << "the sampler's note says why";

    const int gpu = store.run(store.addRecord(sampledRecord("gpu", true), QStringLiteral("b"))).id;
    chart.sync(store);
    EXPECT_EQ(chart.series(cpu)->count(), 0) << "NaN readings are not drawn";
    EXPECT_EQ(chart.series(gpu)->count(), 40);
    EXPECT_TRUE(chart.series(cpu)->name().endsWith(QStringLiteral("(no readings)")))
        << chart.series(cpu)->name().toStdString();
    EXPECT_TRUE(chart.note().isEmpty());
}

TEST(SystemView, AHiddenRunIsNotDrawnAndItsLegendEntryShowsItAgain) {
    RunStore store;
    const int a = store.run(store.addRecord(sampledRecord("a", true), QStringLiteral("a"))).id;
    const int b = store.run(store.addRecord(sampledRecord("b", true), QStringLiteral("b"))).id;
    SystemChart chart;
    int toggled = 0;
    QObject::connect(&chart, &SystemChart::runVisibilityToggled, [&](int id) { toggled = id; });
    chart.sync(store);
    store.setRunHidden(b, true);
    chart.sync(store);
    EXPECT_TRUE(chart.series(a)->isVisible());
    EXPECT_FALSE(chart.series(b)->isVisible());
    EXPECT_FALSE(chart.machineSeries(b)->isVisible());
    const QList<QLegendMarker *> markers = chart.legend()->markers(chart.series(b));
    ASSERT_EQ(markers.size(), 1) << "the hidden run keeps its legend entry";
    Q_EMIT markers[0]->clicked();
    EXPECT_EQ(toggled, b);
    EXPECT_TRUE(chart.showHover(b, 1.0).isEmpty()) << "no hover over a hidden run";
    const QString hover = chart.showHover(a, 2.55); // the reading at 2.5 s is the nearest
    EXPECT_TRUE(hover.contains(QStringLiteral("2.5 s · 2.90 cores (run) · 6.00 cores (machine)")))
        << hover.toStdString();
}

TEST(SystemView, AnOldRecordSaysNotSampledInsteadOfAnEmptyChart) {
    RunStore store;
    const int old = store
                        .run(store.addRecord(testing::finishedCpuRun("old", {3.0, 2.0}),
                                             QStringLiteral("old.json")))
                        .id;
    SystemChart chart;
    chart.sync(store);
    EXPECT_TRUE(chart.note().startsWith(QStringLiteral("Not sampled")))
        << chart.note().toStdString();
    EXPECT_TRUE(sampledQuantities(store).empty());
    EXPECT_EQ(systemPanesFor(store), SystemPanes::Omitted);

    store.addRecord(sampledRecord("new", false), QStringLiteral("new.json"));
    chart.sync(store);
    EXPECT_TRUE(chart.note().isEmpty()) << "a sampled run in view: its lines, no note";
    EXPECT_TRUE(chart.series(old)->name().endsWith(QStringLiteral("(not sampled)")));
}

TEST(SystemView, ZoomIsKeptAcrossLiveUpdatesUntilReset) {
    RunStore store;
    store.acceptRun(1);
    store.liveRun(1)->onRecordStarted(testing::finishedCpuRun("live", {}));
    store.liveRun(1)->onSystemSamples(readings(40, false));
    SystemChart chart;
    chart.sync(store);
    EXPECT_GE(chart.xAxis()->max(), 10.0);
    chart.setXRange(2.0, 4.0);
    EXPECT_EQ(chart.series(1)->count(), 11) << "the range's 9 readings and a neighbour each side";
    store.liveRun(1)->onSystemSamples(readings(40, false, 10.25));
    chart.sync(store);
    EXPECT_TRUE(chart.userZoomed());
    EXPECT_DOUBLE_EQ(chart.xAxis()->min(), 2.0);
    EXPECT_DOUBLE_EQ(chart.xAxis()->max(), 4.0);
    chart.resetView();
    EXPECT_FALSE(chart.userZoomed());
    EXPECT_GE(chart.xAxis()->max(), 20.0);
    EXPECT_EQ(chart.series(1)->count(), 80);
}

TEST(SystemView, TheChartsPanelShowsItInATabWithAQuantitySelector) {
    RunStore store;
    store.addRecord(sampledRecord("a", true), QStringLiteral("a"));
    ChartsPanel panel(store);
    panel.sync(false);
    panel.showSystemView();
    auto *combo = panel.findChild<QComboBox *>(QStringLiteral("systemQuantityCombo"));
    ASSERT_NE(combo, nullptr);
    combo->setCurrentIndex(combo->findData(systemQuantityName(SystemQuantity::GpuPower)));
    EXPECT_EQ(panel.systemChart()->quantity(), SystemQuantity::GpuPower);
    EXPECT_EQ(panel.systemChart()->series(store.run(0).id)->count(), 40);
    EXPECT_EQ(panel.systemChart()->unit(), QStringLiteral("W"));
}

// ---- the epoch table --------------------------------------------------------------------------

// Sections by column, so that a column added elsewhere moves them without breaking the tests;
// the whole order is pinned in EpochTable.EveryHeaderAndCellReadsAsPinned.
const int kCores = epochTableSection(EpochColumn::CpuCores);
const int kMemory = epochTableSection(EpochColumn::PeakMemory);
const int kEnergy = epochTableSection(EpochColumn::Energy);

TEST(SystemEpochTable, ShowsCoresPeakMemoryAndEnergyBetweenImagesPerSecondAndMachineSpeed) {
    const int images = epochTableSection(EpochColumn::ImagesPerSecond);
    EXPECT_EQ(kCores, images + 1);
    EXPECT_EQ(kMemory, images + 2);
    EXPECT_EQ(kEnergy, images + 3);
    EXPECT_EQ(epochTableSection(EpochColumn::SpeedChanged), images + 4);
}

TEST(SystemEpochTable, ASampledEpochsCoresMemoryAndEnergy) {
    RunStore store;
    RunRecord record = sampledRecord("a", false);
    record.epochs[1].system.rssBytes.peak = 1.5 * 1024.0 * kMiB;
    record.epochs[2].system.gpuEnergy = {EnergyMethod::NvmlEnergyCounter, 24000.0, "gpu 0"};
    const StoredRun &run = store.run(store.addRecord(record, QStringLiteral("a")));
    const auto display = [&](int epoch, EpochColumn column) {
        return epochCell(run, run.record.epochs[static_cast<std::size_t>(epoch)], column);
    };
    EXPECT_EQ(display(0, EpochColumn::CpuCores), QStringLiteral("3.2"));
    EXPECT_EQ(display(0, EpochColumn::PeakMemory), QStringLiteral("812 MiB"));
    EXPECT_EQ(display(1, EpochColumn::PeakMemory), QStringLiteral("1.50 GiB"));
    EXPECT_EQ(display(0, EpochColumn::Energy), QStringLiteral("850 J"));
    EXPECT_EQ(display(2, EpochColumn::Energy), QStringLiteral("24.9 kJ")) << "GPU + CPU packages";
    // The same values in the exported CSV.
    EXPECT_EQ(test::csvCell(run, run.record.epochs[0], "peak_rss_bytes"),
              QString::number(812.0 * kMiB, 'f', 0));
    EXPECT_EQ(test::csvCell(run, run.record.epochs[0], "energy_j"), QStringLiteral("850.0"));

    EpochTableModel model(store);
    const QString tip =
        model.data(model.index(0, kEnergy), Qt::ToolTipRole).toString(); // of epoch 1
    EXPECT_TRUE(tip.contains(QStringLiteral("rapl"))) << tip.toStdString();
    EXPECT_FALSE(tip.contains(QStringLiteral("GPU"))) << "a CPU run's GPU reading does not apply";
    EXPECT_EQ(model.headerData(kCores, Qt::Horizontal).toString(), QStringLiteral("CPU cores"));
}

TEST(SystemEpochTable, EnergyNotMeasuredIsNaWithTheReasonInTheTooltip) {
    RunStore store;
    RunRecord record = sampledRecord("a", false);
    record.epochs[0].system.cpuEnergy = {EnergyMethod::None, kNotSampled,
                                         "no RAPL counters (/sys/class/powercap absent)"};
    store.addRecord(record, QStringLiteral("a"));
    EpochTableModel model(store);
    EXPECT_EQ(model.data(model.index(0, kEnergy)).toString(), QStringLiteral("n/a"));
    const QString tip = model.data(model.index(0, kEnergy), Qt::ToolTipRole).toString();
    EXPECT_TRUE(tip.contains(QStringLiteral("no RAPL counters (/sys/class/powercap absent)")))
        << tip.toStdString();
    EXPECT_EQ(model.data(model.index(0, kCores)).toString(), QStringLiteral("3.2"))
        << "cores and memory were still read";
}

TEST(SystemEpochTable, AnUnsampledEpochShowsDashesAndSaysWhy) {
    RunStore store;
    store.addRecord(testing::finishedCpuRun("old", {3.0}), QStringLiteral("old"));
    EpochTableModel model(store);
    for (const int section : {kCores, kMemory, kEnergy})
        EXPECT_EQ(model.data(model.index(0, section)).toString(), QStringLiteral("–"));
    EXPECT_TRUE(model.data(model.index(0, kEnergy), Qt::ToolTipRole)
                    .toString()
                    .startsWith(QStringLiteral("Not sampled")));
    const StoredRun &run = store.run(0);
    EXPECT_EQ(test::csvCell(run, run.record.epochs[0], "process_cores"), QString());
}

// ---- the exported picture ---------------------------------------------------------------------

TEST(SystemExport, ThePictureWithTheSystemViewIsTallerThanWithout) {
    RunStore store;
    store.addRecord(sampledRecord("a", true), QStringLiteral("a"));
    store.addRecord(sampledRecord("b", false), QStringLiteral("b"));
    EXPECT_EQ(systemPanesFor(store), SystemPanes::Included);
    const QImage without = renderComparison(store);
    const QImage with = renderComparison(store, QSize(kExportWidth, kExportHeight), ChartOptions(),
                                         SystemPanes::Included);
    EXPECT_EQ(without.size(), QSize(kExportWidth, kExportHeight));
    EXPECT_EQ(with.width(), kExportWidth);
    EXPECT_EQ(with.height(), kExportHeight + 3 * kSystemPaneHeight) << "five panes, two a row";
    EXPECT_EQ(systemPanesHeight(store, SystemPanes::Omitted), 0);
}

} // namespace devicebench
