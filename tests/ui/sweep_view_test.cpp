// SPDX-License-Identifier: MIT
// The Sweep view: the images/s chart, the speed-up heat map, the sweep PNG
// and the panel's progress, from cell records made in memory (sweep_support.h): no training.
#include "charts/sweep_chart.h"
#include "charts/sweep_heat_map.h"
#include "export/sweep_export.h"
#include "export/sweep_png.h"
#include "sweep/sweep_form.h"
#include "sweep/sweep_panel.h"
#include "sweep_support.h"
#include "theme/theme.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QTemporaryDir>
#include <QValueAxis>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

using namespace devicebench;
using test::sweepRecord;
using test::twoDeviceSweep;

namespace {

QLineSeries *seriesNamed(const SweepChart &chart, const QString &name) {
    for (QLineSeries *series : chart.series())
        if (series->name() == name)
            return series;
    return nullptr;
}

} // namespace

TEST(SweepChart, DrawsOneLinePerModelAndDeviceWithEachCellsImagesPerSecondAtItsBatchSize) {
    SweepChart chart;
    chart.sync(twoDeviceSweep());
    ASSERT_EQ(chart.series().size(), 4);
    QLineSeries *cnn2 = seriesNamed(chart, QStringLiteral("small-cnn · cpu x2"));
    QLineSeries *resnet1 = seriesNamed(chart, QStringLiteral("resnet18 · cpu x1"));
    ASSERT_NE(cnn2, nullptr);
    ASSERT_NE(resnet1, nullptr);
    EXPECT_EQ(cnn2->points(), (QList<QPointF>{{16.0, 2000.0}, {64.0, 3200.0}}));
    EXPECT_EQ(resnet1->points(), (QList<QPointF>{{16.0, 50.0}, {64.0, 80.0}}));
    EXPECT_TRUE(cnn2->pointsVisible() || !cnn2->lightMarker().isNull()) << "point markers";
    // One colour per model, one pen style per device.
    QLineSeries *cnn1 = seriesNamed(chart, QStringLiteral("small-cnn · cpu x1"));
    ASSERT_NE(cnn1, nullptr);
    EXPECT_EQ(cnn1->pen().color(), cnn2->pen().color());
    EXPECT_NE(cnn1->pen().color(), resnet1->pen().color());
    EXPECT_NE(cnn1->pen().style(), cnn2->pen().style());
    EXPECT_TRUE(chart.leftOut().isEmpty());
    EXPECT_TRUE(chart.leftOutNote().isEmpty());
}

TEST(SweepChart, BatchSizeIsOnABaseTwoLogAxisAndImagesPerSecondOnALogAxisWhenTheySpanTenfold) {
    SweepChart chart;
    chart.sync(twoDeviceSweep()); // 50 to 3,200 images/s
    const auto horizontal = chart.axes(Qt::Horizontal);
    ASSERT_EQ(horizontal.size(), 1);
    const auto *x = qobject_cast<QLogValueAxis *>(horizontal.front());
    ASSERT_NE(x, nullptr);
    EXPECT_EQ(x->base(), 2.0);
    EXPECT_LT(x->min(), 16.0);
    EXPECT_GT(x->max(), 64.0);
    EXPECT_TRUE(chart.logY());
    ASSERT_NE(qobject_cast<QLogValueAxis *>(chart.axes(Qt::Vertical).front()), nullptr);

    // Within a factor of ten: a linear axis from 0.
    chart.sync({sweepRecord("small-cnn", 16, 1, 1000.0), sweepRecord("small-cnn", 64, 1, 1600.0)});
    EXPECT_FALSE(chart.logY());
    const auto *y = qobject_cast<QValueAxis *>(chart.axes(Qt::Vertical).front());
    ASSERT_NE(y, nullptr);
    EXPECT_EQ(y->min(), 0.0);
    EXPECT_GE(y->max(), 1600.0);
}

TEST(SweepChart, LeavesAFailedCellOutOfItsLineAndNamesItWithItsReason) {
    std::vector<SweepCellRecord> records = twoDeviceSweep();
    records.push_back(sweepRecord("resnet18", 256, 1, 0.0, RunStatus::Failed,
                                  "out of memory at batch size 256 (try a smaller batch size)"));
    SweepChart chart;
    chart.sync(records);
    QLineSeries *resnet1 = seriesNamed(chart, QStringLiteral("resnet18 · cpu x1"));
    ASSERT_NE(resnet1, nullptr);
    EXPECT_EQ(resnet1->points().size(), 2) << "the failed cell is not a point";
    for (const QPointF &p : resnet1->points())
        EXPECT_NE(p.x(), 256.0);
    ASSERT_EQ(chart.leftOut().size(), 1);
    EXPECT_TRUE(chart.leftOut().front().startsWith(
        QStringLiteral("resnet18 · batch 256 · 32 px · cpu x1: out of memory")))
        << chart.leftOut().front().toStdString();
    EXPECT_TRUE(chart.leftOutNote().contains(QStringLiteral("out of memory at batch size 256")));
}

TEST(SweepChart, HoverShowsTheCellsImagesPerSecondIntervalAndGflops) {
    SweepChart chart;
    chart.sync(twoDeviceSweep());
    int line = -1;
    for (std::size_t i = 0; i < chart.lines().size(); ++i)
        if (chart.lines()[i].name == QStringLiteral("small-cnn · cpu x1"))
            line = static_cast<int>(i);
    ASSERT_GE(line, 0);
    const QString text = chart.hoverText(line, 1);
    EXPECT_TRUE(text.contains(QStringLiteral("batch size 64: 1600 images/s")))
        << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("95% interval [1520, 1680]"))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("GFLOP/s")));
    EXPECT_TRUE(chart.hoverText(line, 5).isEmpty());
}

TEST(SpeedUpHeatMap, ShowsEachCellsSpeedUpAgainstTheBaselineAndNaWhereThereIsNone) {
    std::vector<SweepCellRecord> records = twoDeviceSweep();
    records.push_back(sweepRecord("resnet18", 256, 1, 40.0));
    records.push_back(sweepRecord("resnet18", 256, 2, 0.0, RunStatus::Failed, "out of memory"));
    const SpeedUpTable table = speedUpTable(records, QStringLiteral("cpu x1"));
    EXPECT_EQ(table.batchSizes, (std::vector<int>{16, 64, 256}));
    ASSERT_EQ(table.rows.size(), 2U) << "cpu x2's two models; none for the baseline";
    EXPECT_EQ(table.rows[0].device, QStringLiteral("cpu x2"));
    EXPECT_EQ(table.rows[0].model, QStringLiteral("small-cnn"));
    EXPECT_EQ(table.rows[1].model, QStringLiteral("resnet18"));
    // Each value is sweepSpeedUp's for that cell.
    for (const SweepCellRecord &record : records) {
        if (record.cell.device.threads != 2)
            continue;
        const SpeedUpTable::Row &row = table.rows[record.cell.model == "small-cnn" ? 0 : 1];
        const auto column = static_cast<std::size_t>(
            std::find(table.batchSizes.begin(), table.batchSizes.end(), record.cell.batchSize) -
            table.batchSizes.begin());
        const double expected = sweepSpeedUp(records, record, "cpu x1");
        const double shown = row.speedUps[column];
        EXPECT_TRUE(shown == expected || (std::isnan(shown) && std::isnan(expected)));
    }

    SpeedUpHeatMap map;
    map.setTable(table);
    EXPECT_EQ(map.cellText(0, 0), QStringLiteral("2.00×")); // small-cnn, batch 16
    EXPECT_EQ(map.cellText(1, 1), QStringLiteral("1.50×")); // resnet18, batch 64
    EXPECT_EQ(map.cellText(1, 2), QStringLiteral("n/a")) << "the cell failed";
    EXPECT_EQ(map.cellText(0, 2), QStringLiteral("n/a")) << "no small-cnn cell at 256";
    EXPECT_TRUE(map.cellText(2, 0).isEmpty());
    EXPECT_GT(map.sizeHint().height(), 0);

    // Against cpu x2, cpu x1's cells are the slower ones.
    const SpeedUpTable other = speedUpTable(records, QStringLiteral("cpu x2"));
    ASSERT_EQ(other.rows.size(), 2U);
    EXPECT_EQ(other.rows[0].device, QStringLiteral("cpu x1"));
    EXPECT_DOUBLE_EQ(other.rows[0].speedUps[0], 0.5);
}

TEST(SpeedUpHeatMap, ColoursFasterAndSlowerCellsTowardsTheirEndsAndNaInGrey) {
    using theme::Theme;
    const QColor background = theme::colour(theme::Role::ChartBackground, Theme::Light);
    EXPECT_EQ(speedUpCellColour(8.0, Theme::Light),
              theme::speedUpColour(theme::SpeedUpEnd::Faster));
    EXPECT_EQ(speedUpCellColour(1.0 / 8.0, Theme::Light),
              theme::speedUpColour(theme::SpeedUpEnd::Slower));
    EXPECT_EQ(speedUpCellColour(std::nan(""), Theme::Light),
              theme::colour(theme::Role::ChartGrid, Theme::Light));
    // 2x sits between the background and the faster end.
    const QColor two = speedUpCellColour(2.0, Theme::Light);
    EXPECT_NE(two, background);
    EXPECT_NE(two, theme::speedUpColour(theme::SpeedUpEnd::Faster));
    EXPECT_EQ(speedUpTextColour(background, Theme::Light),
              theme::colour(theme::Role::ChartText, Theme::Light));
    EXPECT_EQ(speedUpText(12.345), QStringLiteral("12.3×"));
}

TEST(SweepPng, WritesOnePictureWithTheChartAndTheHeatMap) {
    QTemporaryDir dir;
    const std::string path = QDir(dir.path()).filePath(QStringLiteral("sweep.png")).toStdString();
    std::vector<SweepCellRecord> records = twoDeviceSweep();
    records.push_back(sweepRecord("resnet18", 256, 1, 0.0, RunStatus::Failed, "out of memory"));
    std::string error;
    ASSERT_TRUE(writeSweepPng(records, "cpu x1", path, &error)) << error;
    const QImage image(QString::fromStdString(path));
    ASSERT_FALSE(image.isNull());
    EXPECT_EQ(image.width(), kSweepExportWidth);
    EXPECT_GT(image.height(), kSweepChartHeight);
    // The heat map's 2x cell colour is somewhere in the picture.
    const QRgb twice = speedUpCellColour(2.0, theme::Theme::Light).rgb();
    bool found = false;
    for (int y = kSweepChartHeight; y < image.height() && !found; ++y)
        for (int x = 0; x < image.width() && !found; ++x)
            found = image.pixel(x, y) == twice;
    EXPECT_TRUE(found);
    EXPECT_TRUE(sweepGridText(records).contains(QStringLiteral("batch sizes 16, 64, 256")));
    EXPECT_TRUE(sweepMachineText(records).contains(QStringLiteral("Test CPU 9000 @ host-a")));
}

TEST(SweepPng, AnUnwritablePathFailsNamingThePathAndLeavesNoFile) {
    QTemporaryDir dir;
    const QString path = QDir(dir.path()).filePath(QStringLiteral("missing/sweep.png"));
    std::string error;
    EXPECT_FALSE(writeSweepPng(twoDeviceSweep(), "cpu x1", path.toStdString(), &error));
    EXPECT_NE(error.find(path.toStdString()), std::string::npos) << error;
    EXPECT_FALSE(QFile::exists(path));
}

TEST(SweepPanel, ProgressSaysWhichCellOfHowManyAndAboutHowLongIsLeft) {
    SweepProgress progress;
    progress.done = 2;
    progress.total = 27;
    progress.secondsLeft = 240.0;
    EXPECT_EQ(sweepProgressText(progress, false),
              QStringLiteral("cell 3 of 27 — about 4 min left"));
    progress.secondsLeft = std::nan(""); // before the first cell ran
    EXPECT_EQ(sweepProgressText(progress, false), QStringLiteral("cell 3 of 27"));
    progress.done = 27;
    progress.skipped = 3;
    EXPECT_EQ(sweepProgressText(progress, true, 1),
              QStringLiteral("27 of 27 cells done (3 found finished, 1 failed)"));
    EXPECT_EQ(aboutDuration(40.4), QStringLiteral("about 40 s"));
    EXPECT_EQ(aboutDuration(4880.0), QStringLiteral("about 1 h 21 min"));

    SweepPanel panel;
    panel.onSweepAccepted(7, 27, panel.folder());
    EXPECT_TRUE(panel.isRunning());
    SweepCell cell = sweepRecord("resnet18", 64, 2, 1.0).cell;
    progress = SweepProgress{};
    progress.done = 2;
    progress.total = 27;
    progress.secondsLeft = 240.0;
    panel.onCellStarted(7, cell, progress);
    EXPECT_EQ(panel.progressText(), QStringLiteral("cell 3 of 27 — about 4 min left"));
    panel.onCellStarted(6, cell, SweepProgress{}); // another sweep's: dropped
    EXPECT_EQ(panel.progressText(), QStringLiteral("cell 3 of 27 — about 4 min left"));
}

TEST(SweepPanel, ShowsTheRecordsInTheChartAndTheHeatMapAgainstTheChosenBaseline) {
    SweepPanel panel;
    std::vector<SweepCellRecord> records = twoDeviceSweep();
    records.push_back(sweepRecord("resnet18", 256, 1, 0.0, RunStatus::Failed, "out of memory"));
    panel.setRecords(records);
    EXPECT_EQ(panel.chart()->series().size(), 4);
    EXPECT_EQ(panel.baseline(), QStringLiteral("cpu x1")) << "the first device by default";
    EXPECT_EQ(panel.heatMap()->cellText(0, 0), QStringLiteral("2.00×"));
    const auto *note = panel.findChild<QLabel *>(QStringLiteral("sweepNoteLabel"));
    ASSERT_NE(note, nullptr);
    EXPECT_TRUE(note->text().contains(QStringLiteral("out of memory")));
    ASSERT_TRUE(panel.setBaseline(QStringLiteral("cpu x2")));
    EXPECT_EQ(panel.heatMap()->table().baseline, QStringLiteral("cpu x2"));
    EXPECT_EQ(panel.heatMap()->cellText(0, 0), QStringLiteral("0.50×"));
    EXPECT_FALSE(panel.setBaseline(QStringLiteral("cuda:0")));
    EXPECT_EQ(panel.baseline(), QStringLiteral("cpu x2"));
}

TEST(SweepForm, ReadsTheGridWithEachCpuThreadCountAsADevice) {
    SweepForm form;
    SweepSpec spec;
    spec.base.synthetic = true; // the panel's base settings
    QStringList problems;
    ASSERT_TRUE(form.readSpec(&spec, &problems))
        << problems.join(QStringLiteral("; ")).toStdString();
    EXPECT_EQ(spec.models, (std::vector<std::string>{"small-cnn"}));
    EXPECT_EQ(spec.batchSizes, (std::vector<int>{16, 64, 256}));
    EXPECT_EQ(spec.imageSizes, (std::vector<int>{32}));
    ASSERT_EQ(spec.devices.size(), 2U);
    EXPECT_EQ(spec.devices[1].label(), "cpu x2");

    std::vector<int> values;
    QString problem;
    EXPECT_TRUE(parseIntList(QStringLiteral(" 16, 64 ,256"), QStringLiteral("batch sizes"), &values,
                             &problem));
    EXPECT_FALSE(
        parseIntList(QStringLiteral("16,x"), QStringLiteral("batch sizes"), &values, &problem));
    EXPECT_EQ(problem, QStringLiteral("batch sizes: 'x' is not a whole number"));
    EXPECT_FALSE(
        parseIntList(QStringLiteral("16,16"), QStringLiteral("batch sizes"), &values, &problem));
    EXPECT_EQ(problem, QStringLiteral("batch sizes: 16 is given twice"));
    EXPECT_FALSE(parseIntList(QString(), QStringLiteral("batch sizes"), &values, &problem));
    EXPECT_EQ(problem, QStringLiteral("batch sizes: none given"));
}

TEST(SweepPanel, OpenFolderShowsTheReadableRecordsAndSaysWhichFilesWereSkipped) {
    QTemporaryDir dir;
    for (const SweepCellRecord &record : twoDeviceSweep())
        writeSweepCellRecord(dir.path().toStdString(), record);
    QFile bad(QDir(dir.path()).filePath(QStringLiteral("broken.json")));
    ASSERT_TRUE(bad.open(QIODevice::WriteOnly));
    bad.write("{ not json");
    bad.close();

    SweepPanel panel;
    QStringList errors;
    EXPECT_FALSE(panel.openFolder(dir.path(), &errors));
    ASSERT_EQ(errors.size(), 1);
    EXPECT_TRUE(errors.front().contains(QStringLiteral("broken.json")))
        << errors.front().toStdString();
    EXPECT_EQ(panel.records().size(), 8U) << "the readable records are shown all the same";
    EXPECT_EQ(panel.folder(), dir.path());
    SweepSpec grid; // the form shows the folder's grid, so that Run resumes it
    grid.base.synthetic = true;
    QStringList problems;
    ASSERT_TRUE(panel.form()->readSpec(&grid, &problems));
    EXPECT_EQ(grid.models, (std::vector<std::string>{"small-cnn", "resnet18"}));
    EXPECT_EQ(grid.batchSizes, (std::vector<int>{16, 64}));
    ASSERT_EQ(grid.devices.size(), 2U);
    EXPECT_EQ(grid.steps, 10);
    EXPECT_EQ(grid.warmupSteps, 2);
    const auto *message = panel.findChild<QLabel *>(QStringLiteral("sweepMessageLabel"));
    ASSERT_NE(message, nullptr);
    EXPECT_TRUE(message->text().contains(QStringLiteral("broken.json")));

    // Export CSV: one row per cell after the header.
    const QString csv = QDir(dir.path()).filePath(QStringLiteral("sweep.csv"));
    QString error;
    ASSERT_TRUE(panel.exportCsv(csv, &error)) << error.toStdString();
    QFile written(csv);
    ASSERT_TRUE(written.open(QIODevice::ReadOnly));
    EXPECT_EQ(written.readAll().count('\n'), 9);

    EXPECT_FALSE(panel.openFolder(QDir(dir.path()).filePath(QStringLiteral("missing")), &errors));
    EXPECT_TRUE(panel.records().empty());
}

TEST(SweepPanel, ASweepStartedWithATargetInTheRunSettingsSaysTheTargetIsForRunsNotCells) {
    QTemporaryDir dir;
    // The message under the buttons once a sweep is started on `base`.
    const auto messageAfterStart = [&dir](const RunConfig &base) {
        SweepPanel panel;
        panel.setFolder(dir.path());
        panel.setBaseConfigProvider([base] { return base; });
        int requested = 0;
        QObject::connect(&panel, &SweepPanel::startSweepRequested, [&requested] { ++requested; });
        EXPECT_TRUE(panel.startSweep());
        EXPECT_EQ(requested, 1) << "the sweep of steps starts all the same";
        const auto *message = panel.findChild<QLabel *>(QStringLiteral("sweepMessageLabel"));
        return message == nullptr ? QStringLiteral("no label") : message->text();
    };
    RunConfig base;
    base.synthetic = true;
    base.targetAccuracy = 35.0;
    const QString note = messageAfterStart(base);
    EXPECT_TRUE(note.contains(QStringLiteral("devicebench-cli sweep --target-accuracy")))
        << note.toStdString();
    base.targetAccuracy.reset();
    EXPECT_EQ(messageAfterStart(base), QString()) << "no target: no note";
}
