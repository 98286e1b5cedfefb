// SPDX-License-Identifier: MIT
#include "charts.h"
#include "comparison_export.h"
#include "main_window.h"
#include "run_controller.h"
#include "run_store.h"
#include "test_support.h"

#include "devicebench/devices.h"

#include <gtest/gtest.h>

#include <QFile>
#include <QImage>
#include <QLabel>
#include <QLineSeries>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>

#include <set>

namespace devicebench {
namespace {

using test::waitUntil;

TEST(MainWindow, GpuButtonIsDisabledWithTheReasonAsTooltipWhenCudaIsUnusable) {
    const std::string reason = cudaUnavailableReason();
    if (reason.empty())
        GTEST_SKIP() << "a CUDA device is usable here: the button is enabled";
    RunController controller(test::FakeTrainer{});
    MainWindow window(controller);
    auto *gpu = window.findChild<QPushButton *>(QStringLiteral("runGpuButton"));
    ASSERT_NE(gpu, nullptr);
    EXPECT_FALSE(gpu->isEnabled());
    EXPECT_FALSE(gpu->toolTip().isEmpty());
    EXPECT_EQ(gpu->toolTip(), QString::fromStdString(reason));
}

TEST(MainWindow, InvalidSettingsShowTheMessagesAndStartNoRun) {
    std::atomic<int> calls{0};
    test::FakeTrainer fake;
    fake.calls = &calls;
    RunController controller(fake);
    MainWindow window(controller);
    RunConfig config;
    config.synthetic = true;
    config.epochs = 2;
    config.warmupEpochs = 2; // must be < epochs
    window.setRunConfig(config);
    window.findChild<QPushButton *>(QStringLiteral("runCpuButton"))->click();
    EXPECT_FALSE(controller.isRunning());
    auto *label = window.findChild<QLabel *>(QStringLiteral("validationLabel"));
    ASSERT_NE(label, nullptr);
    EXPECT_FALSE(label->text().isEmpty());
    waitUntil([] { return false; }, 50);
    EXPECT_EQ(calls.load(), 0);
}

TEST(MainWindow, ClosingDuringARunStopsItAndClosesWhenItHasEnded) {
    test::FakeTrainer fake;
    fake.untilStopped = true;
    RunController controller(fake);
    MainWindow window(controller);
    RunConfig config;
    config.synthetic = true;
    config.epochs = 3;
    config.warmupEpochs = 1;
    window.setRunConfig(config);
    window.show();
    QSignalSpy ended(&controller, &RunController::runEnded);
    ASSERT_EQ(window.startRun("cpu"), 1);
    EXPECT_FALSE(window.findChild<QPushButton *>(QStringLiteral("runCpuButton"))->isEnabled());
    EXPECT_TRUE(window.findChild<QPushButton *>(QStringLiteral("stopButton"))->isEnabled());
    window.close();
    ASSERT_TRUE(waitUntil([&] { return ended.count() == 1 && !window.isVisible(); }, 5000));
    EXPECT_EQ(ended.at(0).at(1).value<RunOutcome>().status, RunStatus::Cancelled);
}

TEST(MainWindow, ARunThatFailsBeforeStartingShowsTheReasonInRed) {
    RunController controller(
        [](const RunConfig &, TrainingObserver &observer, const std::atomic<bool> &) {
            RunOutcome outcome;
            outcome.status = RunStatus::Failed;
            outcome.reason = "no CIFAR-10 files in /nowhere";
            observer.onRunEnded(outcome);
            return outcome;
        });
    MainWindow window(controller);
    RunConfig config;
    config.dataDir = "/nowhere";
    config.epochs = 2;
    config.warmupEpochs = 1;
    window.setRunConfig(config);
    QSignalSpy ended(&controller, &RunController::runEnded);
    ASSERT_EQ(window.startRun("cpu"), 1);
    ASSERT_TRUE(waitUntil([&] { return ended.count() == 1; }));
    const auto *status = window.findChild<QLabel *>(QStringLiteral("statusLabel"));
    EXPECT_TRUE(status->text().contains(QStringLiteral("no CIFAR-10 files in /nowhere")))
        << status->text().toStdString();
    EXPECT_TRUE(status->styleSheet().contains(QStringLiteral("color")));
    EXPECT_EQ(window.store().runCount(), 0);
    EXPECT_TRUE(window.findChild<QPushButton *>(QStringLiteral("runCpuButton"))->isEnabled());
}

// One tiny real training run (LibTorch, synthetic data) through the controller and the window.
TEST(MainWindow, ATinyRealRunFillsChartsTableAndExports) {
    RunController controller; // devicebench::runTraining
    MainWindow window(controller);
    window.resize(1400, 900);
    window.show();

    RunConfig config;
    config.synthetic = true;
    config.epochs = 2;
    config.warmupEpochs = 1;
    config.trainImages = 256;
    config.testImages = 128;
    config.batchSize = 32;
    config.threads = 1;
    window.setRunConfig(config);

    QSignalSpy ended(&controller, &RunController::runEnded);
    window.findChild<QPushButton *>(QStringLiteral("runCpuButton"))->click();
    ASSERT_TRUE(controller.isRunning());
    ASSERT_TRUE(waitUntil([&] { return ended.count() == 1; }, 120000));
    const auto outcome = ended.at(0).at(1).value<RunOutcome>();
    ASSERT_EQ(outcome.status, RunStatus::Finished) << outcome.reason;
    window.redrawNow();

    const int runId = ended.at(0).at(0).toInt();
    ASSERT_NE(window.lossChart()->trainSeries(runId), nullptr);
    EXPECT_EQ(window.lossChart()->trainSeries(runId)->count(), 16); // 2 epochs x 8 steps
    EXPECT_EQ(window.lossChart()->testSeries(runId)->count(), 2);
    auto *table = window.findChild<QTableView *>(QStringLiteral("epochTable"));
    ASSERT_NE(table, nullptr);
    EXPECT_EQ(table->model()->rowCount(), 2);
    ASSERT_EQ(window.speedChart()->barValues().size(), 1U);
    EXPECT_GT(window.speedChart()->barValues()[0], 0.0);
    EXPECT_TRUE(window.findChild<QPushButton *>(QStringLiteral("exportPngButton"))->isEnabled());
    const auto *status = window.findChild<QLabel *>(QStringLiteral("statusLabel"));
    EXPECT_TRUE(status->text().contains(QStringLiteral("finished: stable mean")))
        << status->text().toStdString();

    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString png = dir.filePath(QStringLiteral("comparison.png"));
    QString error;
    ASSERT_TRUE(window.exportPng(png, &error)) << error.toStdString();
    QImage image;
    ASSERT_TRUE(image.load(png));
    EXPECT_EQ(image.size(), QSize(kExportWidth, kExportHeight));
    std::set<QRgb> colours;
    for (int y = 0; y < image.height(); y += 7)
        for (int x = 0; x < image.width(); x += 7)
            colours.insert(image.pixel(x, y));
    EXPECT_GT(colours.size(), 20U) << "the picture is not blank";

    const QString csv = dir.filePath(QStringLiteral("epochs.csv"));
    ASSERT_TRUE(window.exportCsv(csv, &error)) << error.toStdString();
    QFile file(csv);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly | QIODevice::Text));
    const QStringList lines =
        QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    ASSERT_EQ(lines.size(), 3);
    EXPECT_EQ(lines[0], QStringLiteral("run,device,threads,epoch,seconds,warmup,train_loss,"
                                       "test_loss,test_accuracy,images_per_s,data,status"));
    for (int row = 1; row <= 2; ++row) {
        const QStringList fields = lines[row].split(QLatin1Char(','));
        ASSERT_EQ(fields.size(), 12) << lines[row].toStdString();
        EXPECT_EQ(fields[1], QStringLiteral("cpu"));
        EXPECT_EQ(fields[2], QStringLiteral("1"));
        EXPECT_EQ(fields[3].toInt(), row);
        EXPECT_EQ(fields[5], row == 1 ? QStringLiteral("1") : QStringLiteral("0"));
        for (int c : {4, 6, 7, 8, 9}) {
            bool ok = false;
            const double v = fields[c].toDouble(&ok);
            EXPECT_TRUE(ok) << "column " << c << ": " << fields[c].toStdString();
            EXPECT_GE(v, 0.0);
        }
        EXPECT_LE(fields[8].toDouble(), 1.0) << "accuracy is a fraction";
        EXPECT_EQ(fields[10], QStringLiteral("synthetic"));
        EXPECT_EQ(fields[11], QStringLiteral("finished"));
    }
}

} // namespace
} // namespace devicebench
