// SPDX-License-Identifier: MIT
#include "charts/charts.h"
#include "export/comparison_export.h"
#include "run_controller.h"
#include "store/run_store.h"
#include "test_support.h"
#include "window/main_window.h"
#include "wiring_support.h"

#include "devicebench/csv_export.h"
#include "devicebench/devices.h"
#include "devicebench/run_record.h"
#include "devicebench/run_set.h"
#include "devicebench/trainer.h"

#include <gtest/gtest.h>

#include <QDir>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableView>
#include <QTemporaryDir>
#include <QTextBrowser>

#include <atomic>
#include <cstddef>
#include <set>
#include <string>
#include <vector>

namespace devicebench {
namespace {

using test::waitUntil;

TEST(MainWindow, GpuButtonIsDisabledWithTheReasonAsTooltipWhenCudaIsUnusable) {
    const std::string reason = cudaUnavailableReason();
    if (reason.empty())
        GTEST_SKIP() << "a CUDA device is usable here: the button is enabled";
    RunController controller(test::FakeTrainer{});
    MainWindow window(nullptr, test::scratchRunsFolder());
    const ProbeController &probe = *test::wire(window, controller);
    ASSERT_TRUE(waitUntil([&] { return !probe.isBusy(); }, 60000)) << "the device probe ends";
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
    MainWindow window(nullptr, test::scratchRunsFolder());
    test::wire(window, controller);
    RunConfig config = test::syntheticConfig(2, 2); // warm-up not below epochs: refused
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
    MainWindow window(nullptr, test::scratchRunsFolder());
    test::wire(window, controller);
    RunConfig config = test::syntheticConfig(3, 1);
    window.setRunConfig(config);
    window.show();
    QSignalSpy ended(&controller, &RunController::runEnded);
    ASSERT_EQ(test::startRun(window, "cpu"), 1);
    EXPECT_FALSE(window.findChild<QPushButton *>(QStringLiteral("runCpuButton"))->isEnabled());
    EXPECT_TRUE(window.findChild<QPushButton *>(QStringLiteral("stopButton"))->isEnabled());
    window.close();
    ASSERT_TRUE(waitUntil([&] { return ended.count() == 1 && !window.isVisible(); }, 5000));
    EXPECT_EQ(ended.at(0).at(1).value<RecordedRun>().outcome.status, RunStatus::Cancelled);
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
    MainWindow window(nullptr, test::scratchRunsFolder());
    test::wire(window, controller);
    RunConfig config;
    config.dataDir = "/nowhere";
    config.epochs = 2;
    config.warmupEpochs = 1;
    window.setRunConfig(config);
    QSignalSpy ended(&controller, &RunController::runEnded);
    ASSERT_EQ(test::startRun(window, "cpu"), 1);
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
    MainWindow window(nullptr, test::scratchRunsFolder());
    test::wire(window, controller);
    window.resize(1400, 900);
    window.show();

    RunConfig config = test::syntheticConfig(2, 1);
    config.trainImages = 256;
    config.testImages = 128;
    config.batchSize = 32;
    config.threads = 1;
    window.setRunConfig(config);

    QSignalSpy ended(&controller, &RunController::runEnded);
    window.findChild<QPushButton *>(QStringLiteral("runCpuButton"))->click();
    ASSERT_TRUE(controller.isRunning());
    ASSERT_TRUE(waitUntil([&] { return ended.count() == 1; }, 120000));
    const auto outcome = ended.at(0).at(1).value<RecordedRun>().outcome;
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
    // A real run is sampled: the System view's panes come under the loss chart.
    ASSERT_EQ(systemPanesFor(window.store()), SystemPanes::Included);
    EXPECT_EQ(image.size(),
              QSize(kExportWidth,
                    kExportHeight + systemPanesHeight(window.store(), SystemPanes::Included)));
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
    // The engine's per-epoch CSV (its columns pinned in compare_tests' CsvColumns.*).
    EXPECT_EQ(lines[0], QString::fromStdString(epochCsv(RunSet())).trimmed());
    for (int row = 1; row <= 2; ++row) {
        const QStringList fields = lines[row].split(QLatin1Char(','));
        ASSERT_EQ(fields.size(), epochCsvColumnCount()) << lines[row].toStdString();
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
        EXPECT_EQ(fields[13], QStringLiteral("1"));
    }
    QFile summary(summaryCsvPath(csv));
    ASSERT_TRUE(summary.open(QIODevice::ReadOnly | QIODevice::Text)) << "written beside it";
    EXPECT_EQ(QString::fromUtf8(summary.readAll()).count(QLatin1Char('\n')), 2);

    // The finished run is kept as a run record in the window's folder.
    const QStringList saved = QDir(window.runsFolder()).entryList({QStringLiteral("*.json")});
    ASSERT_EQ(saved.size(), 1);
    const RunRecord record =
        readRunRecord(QDir(window.runsFolder()).filePath(saved[0]).toStdString());
    EXPECT_EQ(record.status, "finished");
    EXPECT_EQ(record.epochs.size(), 2U);
    EXPECT_EQ(record.config.batchSize, 32);
    EXPECT_EQ(record.steps.size(), 16U);
}

RunRecord savedRecord(const std::string &runId, const std::string &status, int epochs,
                      int batchSize = 64) {
    RunRecord r;
    r.runId = runId;
    r.createdUtc = "2026-11-29T22:40:00Z";
    r.config.epochs = 4;
    r.config.warmupEpochs = 1;
    r.config.batchSize = batchSize;
    r.config.synthetic = true;
    r.started.device = "cpu";
    r.started.deviceName = "CPU";
    r.started.threads = 1;
    r.started.trainImages = 320;
    r.started.testImages = 50;
    r.started.stepsPerEpoch = (320 + batchSize - 1) / batchSize;
    r.started.synthetic = true;
    r.fingerprint.hostName = "elsewhere";
    r.data.variant = "synthetic";
    r.data.trainImages = 320;
    r.data.testImages = 50;
    for (int n = 1; n <= epochs; ++n) {
        EpochResult e;
        e.epoch = n;
        e.seconds = 2.0 + 0.1 * n;
        e.warmup = n == 1;
        e.trainLoss = 2.2;
        e.testLoss = 2.1;
        e.testAccuracy = 0.1;
        e.imagesPerSecond = 370.0 / e.seconds;
        r.epochs.push_back(e);
    }
    r.status = status;
    return r;
}

void writeText(const QString &path, const QByteArray &bytes) {
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write(bytes);
}

TEST(MainWindow, ARunLeftRunningByAKilledProcessShowsAsInterruptedWithItsEpochs) {
    QTemporaryDir folder;
    ASSERT_TRUE(folder.isValid());
    writeRunRecord(folder.filePath(QStringLiteral("r1.json")).toStdString(),
                   savedRecord("r1", "running", 2));
    RunController controller(test::FakeTrainer{});
    MainWindow window(nullptr, folder.path());
    test::wire(window, controller);
    ASSERT_EQ(window.store().runCount(), 1);
    const StoredRun &run = window.store().run(0);
    EXPECT_EQ(run.state, RunState::Interrupted);
    EXPECT_EQ(run.record.epochs.size(), 2U);
    EXPECT_TRUE(run.label.contains(QStringLiteral("@ elsewhere"))) << run.label.toStdString();
    auto *table = window.findChild<QTableView *>(QStringLiteral("epochTable"));
    ASSERT_NE(table, nullptr);
    EXPECT_EQ(table->model()->rowCount(), 2);
    ASSERT_EQ(window.speedChart()->barValues().size(), 1U);
    EXPECT_DOUBLE_EQ(window.speedChart()->barValues()[0], 2.2) << "epoch 2, after 1 warm-up";
    const auto *status = window.findChild<QLabel *>(QStringLiteral("statusLabel"));
    ASSERT_NE(status, nullptr);
    EXPECT_TRUE(status->text().contains(
        QStringLiteral("1 of them stopped when the program ended mid-run: shown as interrupted")))
        << status->text().toStdString();
}

TEST(MainWindow, ImportingARunAlreadyShownSaysItIsShownOnce) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString file = dir.filePath(QStringLiteral("run.json"));
    const QString copy = dir.filePath(QStringLiteral("copy.json"));
    writeRunRecord(file.toStdString(), savedRecord("same", "finished", 4));
    writeRunRecord(copy.toStdString(), savedRecord("same", "finished", 4));
    RunController controller(test::FakeTrainer{});
    MainWindow window(nullptr, test::scratchRunsFolder());
    test::wire(window, controller);
    const auto report = window.importRecords(QStringList{file, copy}, false);
    EXPECT_TRUE(report.rejected.isEmpty());
    EXPECT_EQ(window.store().runCount(), 1);
    const auto *status = window.findChild<QLabel *>(QStringLiteral("statusLabel"));
    ASSERT_NE(status, nullptr);
    EXPECT_TRUE(
        status->text().contains(QStringLiteral("1 already shown: the same run id, shown once")))
        << status->text().toStdString();
}

TEST(MainWindow, ImportLoadsTheGoodFilesAndReportsEachBadOneByName) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString good1 = dir.filePath(QStringLiteral("good-1.json"));
    const QString good2 = dir.filePath(QStringLiteral("good-2.json"));
    const QString truncated = dir.filePath(QStringLiteral("truncated.json"));
    const QString notJson = dir.filePath(QStringLiteral("notes.txt"));
    const QString old = dir.filePath(QStringLiteral("old-schema.json"));
    writeRunRecord(good1.toStdString(), savedRecord("g1", "finished", 4));
    writeRunRecord(good2.toStdString(), savedRecord("g2", "finished", 4, 32));
    const std::string text = toJson(savedRecord("t", "finished", 4));
    writeText(truncated, QByteArray::fromStdString(text.substr(0, text.size() / 2)));
    writeText(notJson, QByteArrayLiteral("epoch 1: 2.3 s\nepoch 2: 2.1 s\n"));
    RunRecord oldRecord = savedRecord("o", "finished", 4);
    oldRecord.schemaVersion = kRunRecordSchemaVersion - 1;
    writeText(old, QByteArray::fromStdString(toJson(oldRecord)));
    // Every other kind of bad file (docs/ROBUSTNESS.md), each with the reason it must give.
    const auto edited = [&text](const std::string &from, const std::string &to) {
        std::string t = text;
        const auto at = t.find(from);
        EXPECT_NE(at, std::string::npos) << from;
        return QByteArray::fromStdString(at == std::string::npos ? t
                                                                 : t.replace(at, from.size(), to));
    };
    RunRecord futureRecord = savedRecord("f", "finished", 4);
    futureRecord.schemaVersion = kRunRecordSchemaVersion + 1;
    const QList<QPair<QString, QByteArray>> moreFiles = {
        {QStringLiteral("future-schema.json"), QByteArray::fromStdString(toJson(futureRecord))},
        {QStringLiteral("missing-field.json"), edited("\"batchSize\":", "\"batch\":")},
        {QStringLiteral("wrong-type.json"), edited("\"batchSize\": 64", "\"batchSize\": \"64\"")},
        {QStringLiteral("infinite.json"), edited("\"seconds\": ", "\"seconds\": 1e999, \"x\": ")},
        {QStringLiteral("nan.json"), edited("\"testLoss\": ", "\"testLoss\": NaN, \"x\": ")},
        {QStringLiteral("huge.json"), QByteArray()},
    };
    const QStringList moreReasons = {
        QStringLiteral("is newer than this DeviceBench reads"),
        QStringLiteral("field 'config.batchSize' is missing"),
        QStringLiteral("field 'config.batchSize' must be a whole number"),
        QStringLiteral("holds a number that is not finite: number overflow parsing '1e999'"),
        QStringLiteral("is not valid JSON"),
        QStringLiteral("is 209715200 bytes; run records over 64 MiB are refused"),
        QStringLiteral("is a folder, not a run record file"),
    };
    QStringList more;
    for (const auto &file : moreFiles) {
        more.append(dir.filePath(file.first));
        writeText(more.back(), file.second);
    }
    ASSERT_TRUE(QFile::resize(more.back(), 200LL * 1024 * 1024)); // sparse: refused unread
    more.append(dir.filePath(QStringLiteral("a-folder.json")));
    ASSERT_TRUE(QDir().mkpath(more.back()));

    const QString runs = test::scratchRunsFolder();
    RunController controller(test::FakeTrainer{});
    MainWindow window(nullptr, runs);
    test::wire(window, controller);
    const auto report = window.importRecords(QStringList{good1, truncated, notJson, old} + more +
                                             QStringList{good2});
    EXPECT_EQ(report.loaded, 2);
    ASSERT_EQ(report.rejected.size(), 3 + more.size());
    for (qsizetype i = 0; i < more.size(); ++i) {
        const QString &message = report.rejected[3 + i];
        EXPECT_TRUE(message.startsWith(more[i])) << message.toStdString();
        EXPECT_TRUE(message.contains(moreReasons[i])) << message.toStdString();
    }
    EXPECT_TRUE(report.rejected[0].contains(QStringLiteral("truncated.json")))
        << report.rejected[0].toStdString();
    EXPECT_TRUE(report.rejected[1].contains(QStringLiteral("notes.txt")))
        << report.rejected[1].toStdString();
    EXPECT_TRUE(report.rejected[2].contains(QStringLiteral("old-schema.json")))
        << report.rejected[2].toStdString();
    for (const QString &message : report.rejected)
        EXPECT_GT(message.size(), 40) << "names the problem too: " << message.toStdString();
    auto *box = window.findChild<QMessageBox *>(QStringLiteral("importRejectedBox"));
    ASSERT_NE(box, nullptr) << "one dialog lists every rejected file";
    for (const QString &name :
         QStringList{QStringLiteral("truncated.json"), QStringLiteral("notes.txt"),
                     QStringLiteral("old-schema.json")} +
             more)
        EXPECT_TRUE(box->informativeText().contains(name)) << name.toStdString();

    ASSERT_EQ(window.store().runCount(), 2);
    EXPECT_EQ(window.store().run(1).differences, std::vector<std::string>{"batch size"});
    window.redrawNow();
    EXPECT_TRUE(QString(window.speedChart()->categories()[1])
                    .replace(QStringLiteral("<br>"), QStringLiteral(" "))
                    .contains(QStringLiteral("not comparable: batch size")));
    EXPECT_EQ(QDir(runs).entryList({QStringLiteral("*.json")}).size(), 2)
        << "imported records are kept with the dashboard's runs";

    // The warm-up control re-derives every run's stable mean.
    auto *warmup = window.findChild<QSpinBox *>(QStringLiteral("compareWarmupSpin"));
    ASSERT_NE(warmup, nullptr);
    warmup->setValue(2);
    EXPECT_DOUBLE_EQ(window.store().run(0).summary.stableMean, (2.3 + 2.4) / 2.0);
}

TEST(MainWindow, DiagnosticsShowTheFingerprintAndEveryDeviceWithItsProbe) {
    RunController controller(test::FakeTrainer{});
    MainWindow window(nullptr, test::scratchRunsFolder());
    test::wire(window, controller);
    window.showDiagnostics();
    auto *text = window.findChild<QTextBrowser *>(QStringLiteral("diagnosticsText"));
    ASSERT_NE(text, nullptr);
    // The probe runs as a job: the page is filled when it reports.
    ASSERT_TRUE(
        waitUntil([&] { return text->toPlainText().contains(QStringLiteral(" ms")); }, 60000))
        << text->toPlainText().toStdString();
    const QString page = text->toPlainText();
    EXPECT_TRUE(page.contains(QString::fromStdString(collectFingerprint().hostName)));
    EXPECT_TRUE(page.contains(QStringLiteral("BLAS")));
    EXPECT_TRUE(page.contains(QStringLiteral("cpu")));
    EXPECT_TRUE(page.contains(QStringLiteral("usable")));
    EXPECT_TRUE(page.contains(QStringLiteral(" ms"))) << "the probe's time";
}

TEST(MainWindow, TheTensorBoardLogFolderSettingReachesTheRun) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    RunController controller(test::FakeTrainer{});
    MainWindow window(nullptr, test::scratchRunsFolder());
    test::wire(window, controller);
    RunConfig config = test::syntheticConfig(2, 1);
    window.setRunConfig(config);
    auto *edit = window.findChild<QLineEdit *>(QStringLiteral("tensorBoardEdit"));
    ASSERT_NE(edit, nullptr);
    const QString logs = dir.filePath(QStringLiteral("new/logs")); // made when the run starts
    edit->setText(logs);
    QSignalSpy ended(&controller, &RunController::runEnded);
    QSignalSpy accepted(&controller, &RunController::runAccepted);
    ASSERT_EQ(test::startRun(window, "cpu"), 1);
    ASSERT_EQ(accepted.count(), 1);
    EXPECT_EQ(QString::fromStdString(accepted.at(0).at(1).value<RunRequest>().tensorBoardFolder),
              logs);
    ASSERT_TRUE(waitUntil([&] { return ended.count() == 1; }));
    EXPECT_EQ(QDir(logs).entryList(QDir::Dirs | QDir::NoDotAndDotDot).size(), 1);

    edit->clear(); // empty: no event files
    ASSERT_EQ(test::startRun(window, "cpu"), 2);
    ASSERT_EQ(accepted.count(), 2);
    EXPECT_TRUE(accepted.at(1).at(1).value<RunRequest>().tensorBoardFolder.empty());
    ASSERT_TRUE(waitUntil([&] { return ended.count() == 2; }));
    EXPECT_EQ(QDir(logs).entryList(QDir::Dirs | QDir::NoDotAndDotDot).size(), 1);
}

TEST(MainWindow, TheRunRequestReachesTheControllerWhole) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    RunController controller(test::FakeTrainer{});
    const QString runs = test::scratchRunsFolder();
    MainWindow window(nullptr, runs);
    test::wire(window, controller);
    RunConfig config = test::syntheticConfig(3, 1);
    config.batchSize = 16;
    window.setRunConfig(config);
    const QString logs = dir.filePath(QStringLiteral("logs"));
    window.findChild<QLineEdit *>(QStringLiteral("tensorBoardEdit"))->setText(logs);
    QSignalSpy sent(&window, &MainWindow::startRunRequested);
    QSignalSpy accepted(&controller, &RunController::runAccepted);
    QSignalSpy ended(&controller, &RunController::runEnded);
    window.startRun("cpu");
    ASSERT_EQ(sent.count(), 1);
    ASSERT_EQ(accepted.count(), 1);
    const auto request = accepted.at(0).at(1).value<RunRequest>();
    EXPECT_EQ(accepted.at(0).at(0).toInt(), 1);
    EXPECT_EQ(window.activeJobId(), 1) << "learnt from the accepted signal";
    EXPECT_EQ(request.config.epochs, 3);
    EXPECT_EQ(request.config.batchSize, 16);
    EXPECT_EQ(request.config.device, "cpu");
    EXPECT_TRUE(request.config.synthetic);
    EXPECT_EQ(QString::fromStdString(request.recordsFolder), runs);
    EXPECT_EQ(QString::fromStdString(request.tensorBoardFolder), logs);
    EXPECT_TRUE(request.recordFile.empty());
    EXPECT_TRUE(request.runId.empty());
    const auto asSent = sent.at(0).at(0).value<RunRequest>();
    EXPECT_EQ(asSent.recordsFolder, request.recordsFolder);
    EXPECT_EQ(asSent.tensorBoardFolder, request.tensorBoardFolder);
    EXPECT_EQ(asSent.config.epochs, request.config.epochs);
    ASSERT_TRUE(waitUntil([&] { return ended.count() == 1; }));
}

TEST(MainWindow, TheStoresStepTimesAreTheRecordsFromTheFirstStep) {
    RunController controller(test::FakeTrainer{});
    MainWindow window(nullptr, test::scratchRunsFolder());
    test::wire(window, controller);
    window.setRunConfig(test::syntheticConfig(2, 1));
    std::vector<TimedStepLoss> firstShown; // the store's steps when the first batch arrived
    QObject::connect(&controller, &RunController::stepLosses, &window, [&](int id) {
        if (firstShown.empty())
            firstShown = window.store().findRun(id)->record.steps;
    });
    RunRecord ended;
    QObject::connect(&controller, &RunController::runEnded, &window,
                     [&](int, const RecordedRun &run) { ended = run.record; });
    QSignalSpy done(&controller, &RunController::runEnded);
    ASSERT_EQ(test::startRun(window, "cpu"), 1);
    ASSERT_TRUE(waitUntil([&] { return done.count() == 1; }));
    ASSERT_FALSE(firstShown.empty());
    ASSERT_EQ(ended.steps.size(), 8U);
    EXPECT_EQ(firstShown.front().step, 1);
    EXPECT_EQ(firstShown.front().seconds, ended.steps.front().seconds)
        << "the worker's time, not the arrival's";
    EXPECT_GT(firstShown.front().seconds, 0.0);
    const std::vector<TimedStepLoss> &shown = window.store().findRun(1)->record.steps;
    ASSERT_EQ(shown.size(), ended.steps.size());
    for (std::size_t i = 0; i < shown.size(); ++i)
        EXPECT_EQ(shown[i].seconds, ended.steps[i].seconds) << "step " << shown[i].step;
}

TEST(MainWindow, InvalidSettingsShowTheEnginesMessagesAndTheRunIsRefused) {
    std::atomic<int> calls{0};
    test::FakeTrainer fake;
    fake.calls = &calls;
    RunController controller(fake);
    MainWindow window(nullptr, test::scratchRunsFolder());
    test::wire(window, controller);
    RunConfig config = test::syntheticConfig(2, 1);
    config.synthetic = false;
    config.dataDir.clear();
    window.setRunConfig(config);
    QSignalSpy refused(&window, &MainWindow::runRefused);
    EXPECT_EQ(test::startRun(window, "cpu"), 0);
    ASSERT_EQ(refused.count(), 1);
    QStringList expected;
    for (const std::string &message : validateRunConfig(window.runConfig("cpu")))
        expected.append(QString::fromStdString(message));
    ASSERT_FALSE(expected.isEmpty());
    EXPECT_EQ(refused.at(0).at(0).toStringList(), expected);
    EXPECT_EQ(window.findChild<QLabel *>(QStringLiteral("statusLabel"))->text(),
              QStringLiteral("Not started: ") + expected.join(QStringLiteral("; ")));
    EXPECT_FALSE(window.isRunning());
    waitUntil([] { return false; }, 50);
    EXPECT_EQ(calls.load(), 0);
}

} // namespace
} // namespace devicebench
