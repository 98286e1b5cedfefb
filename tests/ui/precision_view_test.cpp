// SPDX-License-Identifier: MIT
// Precision as a run setting, in the dashboard: the Precision and TF32 combos of the run
// settings (remembered under run/*), the precision note of a run's start, the sweep form's
// precision axis (remembered under sweep/precisions, restored from records), and the heat map
// of a grid with several precisions: speed-ups precision by precision, or bf16 / fp16 over fp32.
#include "charts/sweep_chart.h"
#include "charts/sweep_heat_map.h"
#include "run_controller.h"
#include "sweep/sweep_form.h"
#include "sweep/sweep_panel.h"
#include "sweep_support.h"
#include "test_support.h"
#include "theme/theme.h"
#include "window/main_window.h"
#include "wiring_support.h"

#include "devicebench/trainer.h"

#include <gtest/gtest.h>

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QListWidget>
#include <QSettings>
#include <QTemporaryDir>

#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

namespace devicebench {
namespace {

using test::sweepRecord;

// A settings file of its own in a scratch folder: never the user's configuration.
struct ScratchSettings {
    QTemporaryDir dir;
    QString path() const { return dir.filePath(QStringLiteral("devicebench.conf")); }
};

QComboBox *combo(const QWidget &window, const char *name) {
    return window.findChild<QComboBox *>(QString::fromUtf8(name));
}

QCheckBox *check(const QWidget &widget, const char *name) {
    return widget.findChild<QCheckBox *>(QString::fromUtf8(name));
}

// sweepRecord's cell (32 px, CPU with `threads` threads) in `precision`.
SweepCellRecord cellIn(Precision precision, const std::string &model, int batch, int threads,
                       double imagesPerSecond) {
    SweepCellRecord record = sweepRecord(model, batch, threads, imagesPerSecond);
    record.cell.precision = precision;
    return record;
}

// small-cnn at batch 16 and 64 on cpu x1 and cpu x2, in fp32 and bf16: cpu x2 twice as fast
// as cpu x1; bf16 1.5 times fp32 at batch 16 and 1.25 times at 64.
std::vector<SweepCellRecord> twoPrecisionSweep() {
    std::vector<SweepCellRecord> records;
    for (const int threads : {1, 2}) {
        const double device = threads == 1 ? 1.0 : 2.0;
        records.push_back(cellIn(Precision::Float32, "small-cnn", 16, threads, 1000.0 * device));
        records.push_back(cellIn(Precision::BFloat16, "small-cnn", 16, threads, 1500.0 * device));
        records.push_back(cellIn(Precision::Float32, "small-cnn", 64, threads, 1600.0 * device));
        records.push_back(cellIn(Precision::BFloat16, "small-cnn", 64, threads, 2000.0 * device));
    }
    return records;
}

TEST(RunSettingsPrecision, ThePrecisionAndTf32CombosFeedTheRunConfigFp32AndDefaultFirst) {
    RunController controller(test::FakeTrainer{});
    MainWindow window(nullptr, test::scratchRunsFolder());
    test::wire(window, controller);
    EXPECT_EQ(window.runConfig("cpu").precision, Precision::Float32) << "the article's";
    EXPECT_EQ(window.runConfig("cpu").tf32, Tf32::Default);
    QComboBox *precision = combo(window, "precisionCombo");
    QComboBox *tf32 = combo(window, "tf32Combo");
    ASSERT_NE(precision, nullptr);
    ASSERT_NE(tf32, nullptr);
    ASSERT_EQ(precision->count(), 3);
    EXPECT_EQ(precision->itemText(0), QStringLiteral("fp32 (the article's)"));
    EXPECT_EQ(precision->itemText(1), QStringLiteral("bf16 mixed precision"));
    EXPECT_EQ(precision->itemText(2),
              QStringLiteral("fp16 mixed precision + loss scaling, CUDA only"));
    ASSERT_EQ(tf32->count(), 3);
    for (QComboBox *box : {precision, tf32}) {
        EXPECT_FALSE(box->toolTip().isEmpty());
        for (int i = 0; i < box->count(); ++i)
            EXPECT_FALSE(box->itemData(i, Qt::ToolTipRole).toString().isEmpty())
                << box->itemText(i).toStdString() << ": each choice says what it does";
    }

    precision->setCurrentIndex(precision->findData(QStringLiteral("bf16")));
    tf32->setCurrentIndex(tf32->findData(QStringLiteral("on")));
    EXPECT_EQ(window.runConfig("cpu").precision, Precision::BFloat16);
    EXPECT_EQ(window.runConfig("cuda").tf32, Tf32::On);

    // A config put back into the widgets.
    RunConfig config = window.runConfig("cpu");
    config.precision = Precision::Float16;
    config.tf32 = Tf32::Off;
    window.setRunConfig(config);
    EXPECT_EQ(precision->currentData().toString(), QStringLiteral("fp16"));
    EXPECT_EQ(tf32->currentData().toString(), QStringLiteral("off"));
    EXPECT_EQ(window.runConfig("cuda").precision, Precision::Float16);
    EXPECT_EQ(window.runConfig("cuda").tf32, Tf32::Off);
}

TEST(RunSettingsPrecision, PrecisionAndTf32RoundTripThroughQSettingsUnderTheRunKeys) {
    ScratchSettings scratch;
    RunController controller(test::FakeTrainer{});
    {
        MainWindow window(nullptr, test::scratchRunsFolder());
        test::wire(window, controller);
        RunConfig config = window.runConfig("cpu");
        config.precision = Precision::BFloat16;
        config.tf32 = Tf32::Off;
        window.setRunConfig(config);
        QSettings settings(scratch.path(), QSettings::IniFormat);
        window.saveSettings(settings);
    }
    {
        const QSettings settings(scratch.path(), QSettings::IniFormat);
        EXPECT_EQ(settings.value(QStringLiteral("run/precision")).toString(),
                  QStringLiteral("bf16"));
        EXPECT_EQ(settings.value(QStringLiteral("run/tf32")).toString(), QStringLiteral("off"));
    }
    MainWindow window(nullptr, test::scratchRunsFolder());
    test::wire(window, controller);
    const QSettings settings(scratch.path(), QSettings::IniFormat);
    window.restoreSettings(settings);
    EXPECT_EQ(window.runConfig("cpu").precision, Precision::BFloat16);
    EXPECT_EQ(window.runConfig("cpu").tf32, Tf32::Off);
}

TEST(RunSettingsPrecision, AnUnknownStoredPrecisionOrTf32KeepsTheDefault) {
    ScratchSettings scratch;
    {
        QSettings settings(scratch.path(), QSettings::IniFormat);
        settings.setValue(QStringLiteral("run/precision"), QStringLiteral("fp8"));
        settings.setValue(QStringLiteral("run/tf32"), QStringLiteral("maybe"));
    }
    RunController controller(test::FakeTrainer{});
    MainWindow window(nullptr, test::scratchRunsFolder());
    test::wire(window, controller);
    const QSettings settings(scratch.path(), QSettings::IniFormat);
    window.restoreSettings(settings);
    EXPECT_EQ(window.runConfig("cpu").precision, Precision::Float32);
    EXPECT_EQ(window.runConfig("cpu").tf32, Tf32::Default);
}

TEST(RunSettingsPrecision, AnFp16RunOnTheCpuIsRefusedWithTheEnginesMessageUnderTheButtons) {
    RunConfig config = test::syntheticConfig(2, 1);
    config.precision = Precision::Float16;
    const std::vector<std::string> refusal = validateRunConfig(config);
    ASSERT_EQ(refusal.size(), 1U) << "the engine refuses fp16 on the CPU";
    RunController controller(test::FakeTrainer{});
    MainWindow window(nullptr, test::scratchRunsFolder());
    test::wire(window, controller);
    window.setRunConfig(config);
    EXPECT_EQ(test::startRun(window, "cpu"), 0) << "the controller refused it";
    EXPECT_FALSE(window.isRunning());
    const auto *problems = window.findChild<QLabel *>(QStringLiteral("validationLabel"));
    ASSERT_NE(problems, nullptr);
    EXPECT_TRUE(problems->text().contains(QString::fromStdString(refusal.front())))
        << problems->text().toStdString();
    const QString status = window.findChild<QLabel *>(QStringLiteral("statusLabel"))->text();
    EXPECT_TRUE(status.startsWith(QStringLiteral("Not started: "))) << status.toStdString();
}

TEST(RunStartPrecision, TheRunsPrecisionNoteIsInTheStatusBarFromItsStartAndInTheLibrary) {
    MainWindow window(nullptr, test::scratchRunsFolder());
    RunRequest request;
    request.config = test::syntheticConfig(2, 1);
    request.config.precision = Precision::BFloat16;
    window.onRunAccepted(1, request);
    RunStarted info;
    info.device = "cpu";
    info.threads = 1;
    info.stepsPerEpoch = 4;
    info.precisionNative = false;
    info.precisionNote = "bf16 is emulated on this CPU (no avx512_bf16 or amx_bf16): expect it "
                         "slower than fp32";
    RunRecord record;
    record.runId = "2026-12-01T12:00:00Z-host-abcd";
    record.config = request.config;
    record.started = info;
    window.onRecordStarted(1, record);
    window.onRunStarted(1, request.config, info);
    const auto *status = window.findChild<QLabel *>(QStringLiteral("statusLabel"));
    ASSERT_NE(status, nullptr);
    const QString note = QString::fromStdString(info.precisionNote);
    EXPECT_TRUE(status->text().contains(note)) << status->text().toStdString();
    window.onStepLosses(1, {StepLoss{1, 2, 2.0}});
    window.redrawNow(); // the progress line keeps saying it
    EXPECT_TRUE(status->text().contains(QStringLiteral("epoch 1/2")))
        << status->text().toStdString();
    EXPECT_TRUE(status->text().contains(note)) << status->text().toStdString();
    const auto *list = window.findChild<QListWidget *>(QStringLiteral("runList"));
    ASSERT_NE(list, nullptr);
    ASSERT_EQ(list->count(), 1);
    EXPECT_TRUE(list->item(0)->toolTip().contains(note)) << list->item(0)->toolTip().toStdString();

    // An fp32 run's start says nothing of precision.
    RunRequest fp32;
    fp32.config = test::syntheticConfig(2, 1);
    window.onRunAccepted(2, fp32);
    info.precisionNative = true;
    info.precisionNote.clear();
    RunRecord second = record; // the controller's order: the record, then the start
    second.runId = "2026-12-01T12:05:00Z-host-abcd";
    second.config = fp32.config;
    second.started = info;
    window.onRecordStarted(2, second);
    window.onRunStarted(2, fp32.config, info);
    window.redrawNow();
    EXPECT_FALSE(status->text().contains(QStringLiteral("emulated")))
        << status->text().toStdString();
}

TEST(SweepFormPrecision, ThePrecisionChecksFillThePrecisionsAxisWithFp32TickedByDefault) {
    SweepForm form;
    SweepSpec spec;
    spec.base.synthetic = true;
    QStringList problems;
    ASSERT_TRUE(form.readSpec(&spec, &problems))
        << problems.join(QStringLiteral("; ")).toStdString();
    EXPECT_EQ(spec.precisions, (std::vector<Precision>{Precision::Float32}));
    ASSERT_NE(check(form, "sweepPrecisionFp32Check"), nullptr);
    ASSERT_NE(check(form, "sweepPrecisionBf16Check"), nullptr);
    ASSERT_NE(check(form, "sweepPrecisionFp16Check"), nullptr);
    EXPECT_TRUE(check(form, "sweepPrecisionFp32Check")->isChecked());
    EXPECT_FALSE(check(form, "sweepPrecisionBf16Check")->isChecked());
    EXPECT_FALSE(check(form, "sweepPrecisionFp16Check")->isChecked());
    check(form, "sweepPrecisionBf16Check")->setChecked(true);
    ASSERT_TRUE(form.readSpec(&spec, &problems));
    EXPECT_EQ(spec.precisions, (std::vector<Precision>{Precision::Float32, Precision::BFloat16}));
    EXPECT_EQ(sweepCells(spec).size(), 2U * 3U * 2U) << "devices x batch sizes x precisions";
}

TEST(SweepFormPrecision, NoPrecisionTickedIsAProblemAsNoImageSizeIs) {
    SweepForm form;
    check(form, "sweepPrecisionFp32Check")->setChecked(false);
    SweepSpec spec;
    spec.base.synthetic = true;
    QStringList problems;
    EXPECT_FALSE(form.readSpec(&spec, &problems));
    EXPECT_TRUE(problems.contains(QStringLiteral("precisions: tick at least one")))
        << problems.join(QStringLiteral("; ")).toStdString();
    EXPECT_EQ(spec.precisions, (std::vector<Precision>{Precision::Float32})) << "left as it was";
}

TEST(SweepFormPrecision, Fp16OnTheCpuIsRefusedWithTheEnginesMessage) {
    SweepForm form;
    check(form, "sweepPrecisionFp16Check")->setChecked(true);
    SweepSpec spec;
    spec.base.synthetic = true;
    QStringList problems;
    EXPECT_FALSE(form.readSpec(&spec, &problems));
    ASSERT_EQ(problems.size(), 1);
    EXPECT_TRUE(problems.front().contains(QStringLiteral("fp16 is CUDA only")))
        << problems.front().toStdString();
}

TEST(SweepFormPrecision, ThePrecisionsRoundTripThroughQSettingsAndAnUnknownListKeepsTheTicks) {
    ScratchSettings scratch;
    {
        SweepForm form;
        check(form, "sweepPrecisionBf16Check")->setChecked(true);
        check(form, "sweepPrecisionFp32Check")->setChecked(false);
        QSettings settings(scratch.path(), QSettings::IniFormat);
        form.saveSettings(settings);
    }
    {
        SweepForm form;
        const QSettings settings(scratch.path(), QSettings::IniFormat);
        EXPECT_EQ(settings.value(QStringLiteral("sweep/precisions")).toStringList(),
                  QStringList{QStringLiteral("bf16")});
        form.restoreSettings(settings);
        EXPECT_FALSE(check(form, "sweepPrecisionFp32Check")->isChecked());
        EXPECT_TRUE(check(form, "sweepPrecisionBf16Check")->isChecked());
        EXPECT_FALSE(check(form, "sweepPrecisionFp16Check")->isChecked());
    }
    {
        QSettings settings(scratch.path(), QSettings::IniFormat);
        settings.setValue(QStringLiteral("sweep/precisions"), QStringList{QStringLiteral("fp8")});
    }
    SweepForm form;
    const QSettings settings(scratch.path(), QSettings::IniFormat);
    form.restoreSettings(settings);
    EXPECT_TRUE(check(form, "sweepPrecisionFp32Check")->isChecked());
    EXPECT_FALSE(check(form, "sweepPrecisionBf16Check")->isChecked());
}

TEST(SweepSpecOf, TakesThePrecisionsOfTheRecordsOnceEachInTheOrderFp32Bf16Fp16) {
    std::vector<SweepCellRecord> records;
    records.push_back(cellIn(Precision::Float16, "small-cnn", 16, 1, 900.0));
    records.push_back(cellIn(Precision::BFloat16, "small-cnn", 16, 1, 800.0));
    records.push_back(cellIn(Precision::Float32, "small-cnn", 16, 1, 700.0));
    records.push_back(cellIn(Precision::BFloat16, "small-cnn", 64, 1, 800.0));
    const SweepSpec spec = sweepSpecOf(records);
    EXPECT_EQ(spec.precisions, (std::vector<Precision>{Precision::Float32, Precision::BFloat16,
                                                       Precision::Float16}));
    EXPECT_EQ(sweepSpecOf(twoPrecisionSweep()).precisions,
              (std::vector<Precision>{Precision::Float32, Precision::BFloat16}));
    // The form shows them, so that "Run sweep" resumes that grid.
    SweepForm form;
    form.setSpec(sweepSpecOf(twoPrecisionSweep()));
    EXPECT_TRUE(check(form, "sweepPrecisionFp32Check")->isChecked());
    EXPECT_TRUE(check(form, "sweepPrecisionBf16Check")->isChecked());
    EXPECT_FALSE(check(form, "sweepPrecisionFp16Check")->isChecked());
}

TEST(SpeedUpHeatMapPrecision, CellsOfEachPrecisionGetRowsOfTheirOwnAgainstTheSamePrecision) {
    const std::vector<SweepCellRecord> records = twoPrecisionSweep();
    const SpeedUpTable table = speedUpTable(records, QStringLiteral("cpu x1"));
    ASSERT_EQ(table.rows.size(), 2U) << "cpu x2's small-cnn in fp32 and in bf16";
    EXPECT_EQ(table.rows[0].precision, Precision::Float32);
    EXPECT_EQ(table.rows[1].precision, Precision::BFloat16);
    for (const SpeedUpTable::Row &row : table.rows)
        for (const double speedUp : row.speedUps)
            EXPECT_DOUBLE_EQ(speedUp, 2.0) << "each against cpu x1's cell of its own precision";
    SpeedUpHeatMap map;
    map.setTable(table);
    EXPECT_EQ(map.cellText(1, 1), QStringLiteral("2.00×"));
}

TEST(SpeedUpHeatMapPrecision, Bf16OverFp32ShowsEachCellsGainAndNaWhereItHasNoPair) {
    std::vector<SweepCellRecord> records = twoPrecisionSweep();
    records.push_back(cellIn(Precision::BFloat16, "small-cnn", 256, 1, 2100.0)); // no fp32 pair
    const SpeedUpTable table = precisionGainTable(records, Precision::BFloat16);
    ASSERT_TRUE(table.gain.has_value());
    EXPECT_EQ(*table.gain, Precision::BFloat16);
    EXPECT_EQ(table.batchSizes, (std::vector<int>{16, 64, 256}));
    ASSERT_EQ(table.rows.size(), 2U) << "one row per device: cpu x1 and cpu x2";
    EXPECT_EQ(table.rows[0].device, QStringLiteral("cpu x1"));
    EXPECT_EQ(table.rows[1].device, QStringLiteral("cpu x2"));
    for (const SweepCellRecord &record : records) {
        if (record.cell.precision != Precision::BFloat16 || record.cell.batchSize == 256)
            continue;
        const SpeedUpTable::Row &row = table.rows[record.cell.device.threads == 1 ? 0 : 1];
        const std::size_t column = record.cell.batchSize == 16 ? 0 : 1;
        EXPECT_DOUBLE_EQ(row.speedUps[column], sweepPrecisionGain(records, record));
    }
    SpeedUpHeatMap map;
    map.setTable(table);
    EXPECT_EQ(map.cellText(0, 0), QStringLiteral("1.50×"));
    EXPECT_EQ(map.cellText(1, 1), QStringLiteral("1.25×"));
    EXPECT_EQ(map.cellText(0, 2), QStringLiteral("n/a")) << "no fp32 cell at batch 256";
    EXPECT_EQ(map.cellText(1, 2), QStringLiteral("n/a")) << "no cell at all";
    EXPECT_EQ(speedUpCellColour(table.rows[0].speedUps[2], theme::Theme::Light),
              theme::colour(theme::Role::ChartGrid, theme::Theme::Light))
        << "grey, as a missing cell";
    EXPECT_TRUE(precisionGainTable(records, Precision::Float16).rows.empty());
    EXPECT_EQ(sweepGainPrecisions(records), (std::vector<Precision>{Precision::BFloat16}));
}

TEST(SweepPanelPrecision, TheHeatMapOffersTheGainOverFp32OfEachPrecisionTheRecordsHold) {
    SweepPanel panel;
    QComboBox *measure = combo(panel, "sweepMeasureCombo");
    ASSERT_NE(measure, nullptr);
    panel.setRecords(test::twoDeviceSweep());
    EXPECT_EQ(measure->count(), 1) << "fp32 only: the speed-up alone";

    std::vector<SweepCellRecord> records = twoPrecisionSweep();
    records.push_back(cellIn(Precision::Float16, "small-cnn", 16, 1, 3000.0));
    panel.setRecords(records);
    ASSERT_EQ(measure->count(), 3);
    EXPECT_EQ(measure->itemText(1), QStringLiteral("bf16 over fp32"));
    EXPECT_EQ(measure->itemText(2), QStringLiteral("fp16 over fp32"));
    EXPECT_EQ(measure->currentIndex(), 0) << "the speed-up until another is chosen";
    EXPECT_FALSE(panel.heatMap()->table().gain.has_value());

    measure->setCurrentIndex(1);
    ASSERT_TRUE(panel.heatMap()->table().gain.has_value());
    EXPECT_EQ(*panel.heatMap()->table().gain, Precision::BFloat16);
    EXPECT_EQ(panel.heatMap()->cellText(0, 0), QStringLiteral("1.50×"));
    EXPECT_FALSE(combo(panel, "sweepBaselineCombo")->isEnabled()) << "a gain has no baseline";
    measure->setCurrentIndex(2);
    EXPECT_EQ(panel.heatMap()->cellText(0, 0), QStringLiteral("3.00×"));

    panel.setRecords(twoPrecisionSweep()); // fp16 gone: bf16 still offered, the choice falls back
    EXPECT_EQ(measure->count(), 2);
    EXPECT_EQ(measure->currentIndex(), 0);
    EXPECT_TRUE(combo(panel, "sweepBaselineCombo")->isEnabled());
    EXPECT_FALSE(panel.heatMap()->table().gain.has_value());
}

TEST(SweepChartPrecision, CellsOfAnotherPrecisionAreALineOfTheirOwnNamedByIt) {
    const std::vector<SweepLine> lines = sweepLines(twoPrecisionSweep());
    ASSERT_EQ(lines.size(), 4U) << "two devices x two precisions";
    EXPECT_EQ(lines[0].name, QStringLiteral("small-cnn · cpu x1 · fp32"));
    EXPECT_EQ(lines[1].name, QStringLiteral("small-cnn · cpu x1 · bf16"));
    for (const SweepLine &line : lines)
        EXPECT_EQ(line.points.size(), 2) << line.name.toStdString();
    EXPECT_EQ(sweepLines(test::twoDeviceSweep()).front().name, QStringLiteral("small-cnn · cpu x1"))
        << "an fp32-only sweep's names as before";
}

} // namespace
} // namespace devicebench
