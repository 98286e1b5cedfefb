// SPDX-License-Identifier: MIT
// The dashboard's side of docs/ROBUSTNESS.md: a second run while one is going, Stop, a
// diverged run beside a finished one, a run record that cannot be saved, and an export onto
// a full disk. Each test is a row of that table.
#include "charts/charts.h"
#include "export/comparison_export.h"
#include "run_controller.h"
#include "store/run_store.h"
#include "test_support.h"
#include "window/main_window.h"
#include "wiring_support.h"

#include <gtest/gtest.h>

#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLineSeries>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QValueAxis>

#include <atomic>
#include <cmath>
#include <csignal>
#include <cstdint>
#include <limits>
#include <sys/resource.h>

namespace devicebench {
namespace {

using test::waitUntil;

RunConfig smallConfig() {
    RunConfig config = test::syntheticConfig(3, 0);
    config.batchSize = 8;
    return config;
}

QString statusText(const MainWindow &window) {
    return window.findChild<QLabel *>(QStringLiteral("statusLabel"))->text();
}

TEST(MainWindowRobustness, ASecondRunWhileOneIsGoingIsRefusedWithTheReason) {
    test::FakeTrainer fake;
    fake.untilStopped = true;
    RunController controller(fake);
    MainWindow window(nullptr, test::scratchRunsFolder());
    test::wire(window, controller);
    window.setRunConfig(smallConfig());
    ASSERT_EQ(test::startRun(window, "cpu"), 1);
    EXPECT_FALSE(window.findChild<QPushButton *>(QStringLiteral("runCpuButton"))->isEnabled())
        << "the button is disabled while a run goes";
    EXPECT_EQ(test::startRun(window, "cpu"), 0);
    EXPECT_EQ(statusText(window),
              QStringLiteral("Not started: Run #1 is still going: stop it or wait for it to end."))
        << "the controller's words, the one refusal";
    EXPECT_EQ(controller.currentJobId(), 1);
    QSignalSpy ended(&controller, &RunController::runEnded);
    controller.stop();
    ASSERT_TRUE(waitUntil([&] { return ended.count() == 1; }));
    EXPECT_EQ(ended.count(), 1) << "only the first run ran";
}

TEST(MainWindowRobustness, StopEndsTheRunAsCancelledKeepingItsFinishedEpochs) {
    test::FakeTrainer fake;
    fake.untilStopped = true;
    RunController controller(fake);
    MainWindow window(nullptr, test::scratchRunsFolder());
    test::wire(window, controller);
    window.setRunConfig(smallConfig());
    QSignalSpy ended(&controller, &RunController::runEnded);
    const int id = test::startRun(window, "cpu");
    ASSERT_EQ(id, 1);
    ASSERT_TRUE(waitUntil([&] {
        const StoredRun *run = window.store().findRun(id);
        return run != nullptr && run->record.epochs.size() >= 2;
    }));
    window.findChild<QPushButton *>(QStringLiteral("stopButton"))->click();
    ASSERT_TRUE(waitUntil([&] { return ended.count() == 1; }));
    const auto outcome = ended.at(0).at(1).value<RecordedRun>().outcome;
    EXPECT_EQ(outcome.status, RunStatus::Cancelled);
    const StoredRun *run = window.store().findRun(id);
    ASSERT_NE(run, nullptr);
    EXPECT_EQ(run->state, RunState::Cancelled);
    EXPECT_GE(run->record.epochs.size(), 2U) << "the finished epochs are kept";
    EXPECT_TRUE(statusText(window).startsWith(QStringLiteral("Run #1 cancelled")))
        << statusText(window).toStdString();
    EXPECT_TRUE(window.findChild<QPushButton *>(QStringLiteral("runCpuButton"))->isEnabled());
}

// A trainer that finishes 2 epochs, or (learning rate 10) finishes epoch 1 and then meets a NaN
// loss, as runTraining reports it.
RunOutcome finishOrDiverge(const RunConfig &config, TrainingObserver &observer,
                           const std::atomic<bool> &) {
    RunStarted info;
    info.device = "cpu";
    info.deviceName = "CPU";
    info.threads = 1;
    info.trainImages = 16;
    info.testImages = 8;
    info.stepsPerEpoch = 2;
    info.synthetic = true;
    observer.onRunStarted(info);
    const bool diverge = config.learningRate >= 10.0;
    RunOutcome outcome;
    for (int epoch = 1; epoch <= 2; ++epoch) {
        const std::int64_t first = 2 * (epoch - 1) + 1;
        if (diverge && epoch == 2) {
            observer.onStepLosses({{epoch, first, std::numeric_limits<double>::quiet_NaN()}});
            outcome.status = RunStatus::Diverged;
            outcome.reason =
                "training loss became nan at step 3 (epoch 2); lower the learning rate";
            observer.onRunEnded(outcome);
            return outcome;
        }
        observer.onStepLosses(
            {{epoch, first, 2.3 - 0.1 * epoch}, {epoch, first + 1, 2.2 - 0.1 * epoch}});
        EpochResult e;
        e.epoch = epoch;
        e.seconds = 1.0 + 0.1 * epoch;
        e.trainLoss = 2.2;
        e.testLoss = diverge ? std::numeric_limits<double>::infinity() : 2.1;
        e.testAccuracy = 0.1;
        e.imagesPerSecond = 20.0;
        outcome.epochs.push_back(e);
        observer.onEpochFinished(e);
    }
    outcome.status = RunStatus::Finished;
    observer.onRunEnded(outcome);
    return outcome;
}

TEST(MainWindowRobustness, ADivergedRunKeepsItsEpochsAndTheChartsKeepFiniteAxes) {
    RunController controller(finishOrDiverge);
    MainWindow window(nullptr, test::scratchRunsFolder());
    test::wire(window, controller);
    QSignalSpy ended(&controller, &RunController::runEnded);
    RunConfig config = smallConfig();
    config.epochs = 2;
    window.setRunConfig(config);
    ASSERT_EQ(test::startRun(window, "cpu"), 1);
    ASSERT_TRUE(waitUntil([&] { return ended.count() == 1; }));
    config.learningRate = 10.0;
    window.setRunConfig(config);
    ASSERT_EQ(test::startRun(window, "cpu"), 2);
    ASSERT_TRUE(waitUntil([&] { return ended.count() == 2; }));
    window.redrawNow();

    const StoredRun *diverged = window.store().findRun(2);
    ASSERT_NE(diverged, nullptr);
    EXPECT_EQ(diverged->state, RunState::Diverged);
    EXPECT_EQ(diverged->record.epochs.size(), 1U) << "epoch 1 is kept";
    EXPECT_TRUE(statusText(window).contains(QStringLiteral("Run #2 diverged: training loss "
                                                           "became nan at step 3")))
        << statusText(window).toStdString();
    auto *box = window.findChild<QMessageBox *>(QStringLiteral("runFailedBox"));
    ASSERT_NE(box, nullptr);
    EXPECT_TRUE(box->informativeText().contains(QStringLiteral("lower the learning rate")));

    // The finished run is still drawn, and NaN / inf did not reach the axes.
    EXPECT_EQ(window.lossChart()->trainSeries(1)->count(), 4);
    EXPECT_EQ(window.lossChart()->trainSeries(2)->count(), 2) << "the NaN step is not drawn";
    EXPECT_TRUE(std::isfinite(window.lossChart()->yAxis()->min()));
    EXPECT_TRUE(std::isfinite(window.lossChart()->yAxis()->max()));
    EXPECT_LT(window.lossChart()->yAxis()->max(), 10.0);
    ASSERT_EQ(window.speedChart()->barValues().size(), 2U);
    for (double v : window.speedChart()->barValues())
        EXPECT_TRUE(std::isfinite(v));
}

TEST(MainWindowRobustness, ARunWhoseRecordCannotBeSavedSaysSoWhenItEnds) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString blocker = dir.filePath(QStringLiteral("a-file"));
    {
        QFile file(blocker);
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    }
    const QString runs = blocker + QStringLiteral("/runs"); // under a file: cannot be made
    RunController controller(test::FakeTrainer{});
    MainWindow window(nullptr, runs);
    test::wire(window, controller);
    window.setRunConfig(smallConfig());
    QSignalSpy ended(&controller, &RunController::runEnded);
    ASSERT_EQ(test::startRun(window, "cpu"), 1);
    ASSERT_TRUE(waitUntil([&] { return ended.count() == 1; }));
    const QString text = statusText(window);
    EXPECT_TRUE(text.startsWith(QStringLiteral("Run #1 finished"))) << text.toStdString();
    // The run's recorder (on the worker) says which record file it could not write, and why.
    EXPECT_TRUE(text.contains(QStringLiteral(" · not saved: ")) &&
                text.contains(QDir::toNativeSeparators(runs) + QLatin1Char('/')))
        << text.toStdString();
    EXPECT_TRUE(window.findChild<QLabel *>(QStringLiteral("statusLabel"))
                    ->styleSheet()
                    .contains(QStringLiteral("color")))
        << "shown as an error";
    EXPECT_EQ(window.store().runCount(), 1) << "the run itself is kept in the window";
}

// The six batch files at their exact size, all zero bytes (sparse: no disk, no time).
void writeSparseDataset(const QString &dir) {
    ASSERT_TRUE(QDir().mkpath(dir));
    for (const char *name : {"data_batch_1.bin", "data_batch_2.bin", "data_batch_3.bin",
                             "data_batch_4.bin", "data_batch_5.bin", "test_batch.bin"}) {
        QFile file(QDir(dir).filePath(QString::fromUtf8(name)));
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        ASSERT_TRUE(file.resize(30730000));
    }
}

// With the real trainer: the reader's message reaches the user as a dialog and a red status
// line, and no run is added (no curve, no table row).
TEST(MainWindowRobustness, ABadDataFolderShowsTheReadersMessageAndAddsNoRun) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString empty = dir.filePath(QStringLiteral("empty"));
    ASSERT_TRUE(QDir().mkpath(empty));
    const QString labels = dir.filePath(QStringLiteral("bad label"));
    writeSparseDataset(labels);
    {
        QFile test(QDir(labels).filePath(QStringLiteral("test_batch.bin")));
        ASSERT_TRUE(test.open(QIODevice::ReadWrite));
        ASSERT_TRUE(test.seek(5LL * 3073));
        ASSERT_EQ(test.write("\x0a", 1), 1); // record 5 gets label byte 10
    }
    const QString truncated = dir.filePath(QStringLiteral("truncated"));
    writeSparseDataset(truncated);
    ASSERT_TRUE(
        QFile::resize(QDir(truncated).filePath(QStringLiteral("data_batch_1.bin")), 30730000 - 1));
    const QList<QPair<QString, QString>> cases = {
        {empty, QStringLiteral("' is empty (expected data_batch_1..5.bin and test_batch.bin)")},
        {labels, QStringLiteral("test_batch.bin': record 5 has label byte 10; CIFAR-10 labels "
                                "are 0-9")},
        {truncated, QStringLiteral("data_batch_1.bin' has 30729999 bytes")},
    };
    RunController controller; // devicebench::runTraining
    MainWindow window(nullptr, test::scratchRunsFolder());
    test::wire(window, controller);
    QSignalSpy ended(&controller, &RunController::runEnded);
    for (const auto &[folder, expected] : cases) {
        RunConfig config = smallConfig();
        config.synthetic = false;
        config.dataDir = folder.toStdString();
        config.threads = 1;
        config.trainImages = 64;
        config.testImages = 0; // all: the whole test batch is read
        window.setRunConfig(config);
        const int before = static_cast<int>(ended.count());
        const int id = test::startRun(window, "cpu");
        ASSERT_GT(id, 0);
        ASSERT_TRUE(waitUntil([&] { return ended.count() == before + 1; }, 60000));
        EXPECT_EQ(ended.back().at(1).value<RecordedRun>().outcome.status, RunStatus::Failed);
        const QString text = statusText(window);
        EXPECT_TRUE(text.startsWith(QStringLiteral("Run #%1 failed: ").arg(id)))
            << text.toStdString();
        EXPECT_TRUE(text.contains(folder)) << text.toStdString();
        EXPECT_TRUE(text.contains(expected)) << text.toStdString();
        auto *box = window.findChild<QMessageBox *>(QStringLiteral("runFailedBox"));
        ASSERT_NE(box, nullptr);
        EXPECT_TRUE(box->informativeText().contains(expected))
            << box->informativeText().toStdString();
        delete box; // the next case finds its own dialog
        EXPECT_EQ(window.store().runCount(), 0) << "no run is added";
        EXPECT_TRUE(window.findChild<QPushButton *>(QStringLiteral("runCpuButton"))->isEnabled());
    }
}

// A full disk, simulated with a file size limit (RLIMIT_FSIZE; SIGXFSZ ignored, so write()
// fails with EFBIG as it fails with ENOSPC on a full disk).
TEST(ExportRobustness, AFullDiskReportsTheFileAndLeavesNoPartialFile) {
    RunStore store;
    RunRecord record;
    record.runId = "full-disk";
    record.config.epochs = 2;
    record.config.warmupEpochs = 1;
    record.config.synthetic = true;
    record.started.device = "cpu";
    record.started.threads = 1;
    record.status = "finished";
    for (int n = 1; n <= 2; ++n) {
        EpochResult e;
        e.epoch = n;
        e.seconds = 1.0 + n;
        e.warmup = n == 1;
        e.trainLoss = 2.0;
        e.testLoss = 2.0;
        e.testAccuracy = 0.1;
        e.imagesPerSecond = 10.0;
        record.epochs.push_back(e);
    }
    store.addRecord(record, QStringLiteral("full-disk.json"));
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString png = dir.filePath(QStringLiteral("comparison.png"));
    const QString csv = dir.filePath(QStringLiteral("epochs.csv"));

    rlimit before{};
    ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &before), 0);
    const auto previousHandler = std::signal(SIGXFSZ, SIG_IGN);
    rlimit limited = before;
    limited.rlim_cur = 64; // smaller than either file
    ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &limited), 0);
    QString pngError;
    QString csvError;
    const bool pngWritten = exportComparisonPng(store, png, &pngError);
    const bool csvWritten = exportComparisonCsv(store, csv, &csvError);
    ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &before), 0);
    std::signal(SIGXFSZ, previousHandler);

    EXPECT_FALSE(pngWritten);
    EXPECT_FALSE(csvWritten);
    EXPECT_TRUE(pngError.startsWith(QStringLiteral("Cannot write ") +
                                    QDir::toNativeSeparators(png) + QStringLiteral(": ")))
        << pngError.toStdString();
    EXPECT_TRUE(csvError.startsWith(QStringLiteral("Cannot write ") +
                                    QDir::toNativeSeparators(csv) + QStringLiteral(": ")))
        << csvError.toStdString();
    EXPECT_TRUE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden | QDir::System).isEmpty())
        << "no partial file and no temporary file: "
        << QDir(dir.path())
               .entryList(QDir::Files | QDir::Hidden)
               .join(QLatin1Char(' '))
               .toStdString();
}

} // namespace
} // namespace devicebench
