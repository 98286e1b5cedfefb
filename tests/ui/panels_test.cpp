// SPDX-License-Identifier: MIT
// The window made of panels, wired as the dashboard wires it: the device probe as a job (the
// window paints while a slow probe runs; the GPU button follows the result), a refused worker
// thread (the run and the download end with the reason; nothing stays busy), and "Remove
// run…" in the run library.
#include "dialogs/fetch_dialog.h"
#include "fetch_controller.h"
#include "probe_controller.h"
#include "run_controller.h"
#include "store/run_store.h"
#include "test_support.h"
#include "window/main_window.h"
#include "wiring.h"
#include "wiring_support.h"

#include "devicebench/run_record.h"
#include "devicebench/trainer.h"

#include <gtest/gtest.h>

#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QLabel>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <system_error>
#include <thread>

namespace devicebench {
namespace {

using test::waitUntil;

// Counts paint events of `window` and its children, and how many came while `busy()` held.
class PaintCounter : public QObject {
public:
    PaintCounter(QWidget &window, std::function<bool()> busy)
        : m_window(window), m_busy(std::move(busy)) {
        qApp->installEventFilter(this);
    }
    ~PaintCounter() override { qApp->removeEventFilter(this); }
    int whileBusy = 0;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override {
        if (event->type() == QEvent::Paint && watched->isWidgetType() &&
            (watched == &m_window || m_window.isAncestorOf(static_cast<QWidget *>(watched))) &&
            m_busy())
            ++whileBusy;
        return false;
    }

private:
    QWidget &m_window;
    std::function<bool()> m_busy;
};

// A probe that finds a CPU and one GPU, usable or not, after at least `milliseconds` and, with
// a `gate`, not before the test opens it (at most 30 s): a slow first CUDA start, as slow as
// the test needs, on a loaded machine too.
ProbeController::ProbeFunction slowProbe(int milliseconds, bool gpuUsable,
                                         std::shared_ptr<std::atomic<bool>> gate = nullptr) {
    return [milliseconds, gpuUsable, gate] {
        std::this_thread::sleep_for(std::chrono::milliseconds(milliseconds));
        for (int i = 0; gate && !gate->load() && i < 30000; ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        DeviceSurvey survey;
        DeviceInfo cpu;
        cpu.id = "cpu";
        cpu.name = "Fake CPU";
        cpu.usable = true;
        cpu.probe.device = "cpu";
        cpu.probe.usable = true;
        DeviceInfo gpu;
        gpu.id = "cuda:0";
        gpu.name = "Fake GPU";
        gpu.usable = gpuUsable;
        gpu.probe.device = "cuda:0";
        gpu.probe.usable = gpuUsable;
        if (!gpuUsable)
            gpu.reason = gpu.probe.error = "relative error 0.9 against the CPU";
        survey.devices = {cpu, gpu};
        survey.fingerprint.hostName = "fake-host";
        return survey;
    };
}

std::thread refuseThread(std::function<void()> /*body*/) {
    throw std::system_error(std::make_error_code(std::errc::resource_unavailable_try_again),
                            "Resource temporarily unavailable");
}

TEST(WindowPanels, TheWindowPaintsWhileASlowProbeRunsAndTheGpuButtonFollowsItsResult) {
    RunController controller(test::FakeTrainer{});
    // The probe takes 2 s and, whatever the machine's load, does not end before the checks
    // below are done (the gate): a window that waited on it would never get there.
    auto gate = std::make_shared<std::atomic<bool>>(false);
    MainWindow window(nullptr, test::scratchRunsFolder());
    const ProbeController &probe = *test::wire(window, controller, slowProbe(2000, true, gate));
    PaintCounter paints(window, [&probe] { return probe.isBusy(); });
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    auto *gpu = window.findChild<QPushButton *>(QStringLiteral("runGpuButton"));
    ASSERT_NE(gpu, nullptr);
    EXPECT_TRUE(probe.isBusy()) << "the probe is still going: the window did not wait on it";
    EXPECT_FALSE(gpu->isEnabled()) << "not offered before the probe says it is usable";
    EXPECT_TRUE(gpu->toolTip().contains(QStringLiteral("probe is running")))
        << gpu->toolTip().toStdString();
    EXPECT_TRUE(window.findChild<QPushButton *>(QStringLiteral("runCpuButton"))->isEnabled());

    // A repaint asked for while the probe runs is done at once, and the window answers input.
    const int before = paints.whileBusy;
    window.update();
    ASSERT_TRUE(waitUntil([&] { return paints.whileBusy > before; }, 1000));
    window.findChild<QSpinBox *>(QStringLiteral("epochsSpin"))->setValue(7);
    EXPECT_EQ(window.runConfig("cpu").epochs, 7);
    EXPECT_TRUE(probe.isBusy());

    gate->store(true);
    ASSERT_TRUE(waitUntil([&] { return !probe.isBusy(); }, 10000));
    EXPECT_TRUE(gpu->isEnabled());
    EXPECT_TRUE(window.gpuReason().isEmpty());
}

TEST(WindowPanels, AGpuThatFailsItsProbeKeepsTheButtonDisabledWithTheReason) {
    RunController controller(test::FakeTrainer{});
    MainWindow window(nullptr, test::scratchRunsFolder());
    const ProbeController &probe = *test::wire(window, controller, slowProbe(10, false));
    ASSERT_TRUE(waitUntil([&] { return !probe.isBusy(); }));
    auto *gpu = window.findChild<QPushButton *>(QStringLiteral("runGpuButton"));
    EXPECT_FALSE(gpu->isEnabled());
    EXPECT_TRUE(gpu->toolTip().contains(QStringLiteral("failed its probe")))
        << gpu->toolTip().toStdString();
    EXPECT_TRUE(gpu->toolTip().contains(QStringLiteral("relative error 0.9")));

    // The diagnostics dialog shows the same result, and "Probe again" runs another job.
    window.showDiagnostics();
    auto *again = window.findChild<QPushButton *>(QStringLiteral("probeAgainButton"));
    ASSERT_NE(again, nullptr);
    EXPECT_TRUE(again->isEnabled());
    again->click();
    EXPECT_TRUE(probe.isBusy());
    ASSERT_TRUE(waitUntil([&] { return !probe.isBusy(); }));
    EXPECT_TRUE(again->isEnabled());
}

TEST(WindowPanels, ARunWhoseThreadIsRefusedEndsWithTheReasonAndLeavesTheWindowIdle) {
    RunController controller(test::FakeTrainer{}, nullptr, &refuseThread);
    MainWindow window(nullptr, test::scratchRunsFolder());
    test::wire(window, controller, slowProbe(1, false));
    window.setRunConfig(test::syntheticConfig(2, 1));
    QSignalSpy ended(&controller, &RunController::runEnded);
    ASSERT_EQ(test::startRun(window, "cpu"), 1);
    ASSERT_TRUE(waitUntil([&] { return ended.count() == 1; }));
    const auto outcome = ended.at(0).at(1).value<RecordedRun>().outcome;
    EXPECT_EQ(outcome.status, RunStatus::Failed);
    EXPECT_NE(outcome.reason.find("the system refused a worker thread"), std::string::npos)
        << outcome.reason;
    EXPECT_FALSE(controller.isRunning());
    EXPECT_FALSE(window.isRunning());
    EXPECT_TRUE(window.findChild<QPushButton *>(QStringLiteral("runCpuButton"))->isEnabled());
    EXPECT_FALSE(window.findChild<QPushButton *>(QStringLiteral("stopButton"))->isEnabled());
    const QString status = window.findChild<QLabel *>(QStringLiteral("statusLabel"))->text();
    EXPECT_TRUE(status.contains(QStringLiteral("refused a worker thread"))) << status.toStdString();
    EXPECT_EQ(window.store().runCount(), 0);
}

TEST(WindowPanels, TheModelAndImageSizeCombosFeedTheRunConfig) {
    RunController controller(test::FakeTrainer{});
    MainWindow window(nullptr, test::scratchRunsFolder());
    test::wire(window, controller);
    EXPECT_EQ(window.runConfig("cpu").model, "small-cnn") << "the article's model by default";
    EXPECT_EQ(window.runConfig("cpu").imageSize, 32);
    auto *model = window.findChild<QComboBox *>(QStringLiteral("modelCombo"));
    auto *imageSize = window.findChild<QComboBox *>(QStringLiteral("imageSizeCombo"));
    ASSERT_NE(model, nullptr);
    ASSERT_NE(imageSize, nullptr);
    EXPECT_EQ(model->count(), 3);
    EXPECT_EQ(imageSize->count(), 3);
    model->setCurrentIndex(model->findData(QStringLiteral("resnet18")));
    imageSize->setCurrentIndex(imageSize->findData(128));
    const RunConfig config = window.runConfig("cpu");
    EXPECT_EQ(config.model, "resnet18");
    EXPECT_EQ(config.imageSize, 128);
    RunConfig synthetic = config; // the test machine's data folder does not matter here
    synthetic.synthetic = true;
    EXPECT_TRUE(validateRunConfig(synthetic).empty());
}

TEST(WindowPanels, ADownloadWhoseThreadIsRefusedEndsAsFailedAndTheDialogIsNotBusy) {
    FetchController fetch({}, nullptr, &refuseThread);
    FetchDialog dialog;
    wireFetchDialog(dialog, fetch);
    QSignalSpy ended(&dialog, &FetchDialog::fetchEnded);
    ASSERT_TRUE(dialog.startFromArchive(QStringLiteral("/nowhere/cifar-10-binary.tar.gz")));
    ASSERT_TRUE(ended.wait(5000));
    EXPECT_EQ(dialog.lastResult().status, FetchStatus::Failed);
    EXPECT_FALSE(dialog.isBusy());
    EXPECT_FALSE(fetch.isBusy());
    EXPECT_TRUE(dialog.findChild<QLabel *>(QStringLiteral("resultLabel"))
                    ->text()
                    .contains(QStringLiteral("refused a worker thread")));
    EXPECT_TRUE(dialog.findChild<QPushButton *>(QStringLiteral("startButton"))->isEnabled());
}

RunRecord smallRecord(const std::string &runId) {
    RunRecord r;
    r.runId = runId;
    r.createdUtc = "2026-11-30T10:00:00Z";
    r.config = test::syntheticConfig(2, 1);
    r.started.device = "cpu";
    r.started.deviceName = "CPU";
    r.started.threads = 1;
    r.started.trainImages = 64;
    r.started.testImages = 10;
    r.started.stepsPerEpoch = 1;
    r.started.synthetic = true;
    r.data.variant = "synthetic";
    for (int n = 1; n <= 2; ++n) {
        EpochResult e;
        e.epoch = n;
        e.seconds = 1.0 + n;
        e.warmup = n == 1;
        e.trainLoss = e.testLoss = 2.0;
        e.testAccuracy = 0.1;
        e.imagesPerSecond = 50.0;
        r.epochs.push_back(e);
    }
    r.status = "finished";
    return r;
}

TEST(WindowPanels, RemoveRunTakesTheRunOutOfTheViewAndAfterConfirmationItsRecordFile) {
    QTemporaryDir elsewhere;
    ASSERT_TRUE(elsewhere.isValid());
    const QString a = elsewhere.filePath(QStringLiteral("a.json"));
    const QString b = elsewhere.filePath(QStringLiteral("b.json"));
    writeRunRecord(a.toStdString(), smallRecord("run-a"));
    writeRunRecord(b.toStdString(), smallRecord("run-b"));
    const QString runs = test::scratchRunsFolder();
    RunController controller(test::FakeTrainer{});
    MainWindow window(nullptr, runs);
    test::wire(window, controller, slowProbe(1, false));
    ASSERT_EQ(window.importRecords({a, b}).loaded, 2);
    const QString keptA = QDir(runs).filePath(QStringLiteral("run-a.json"));
    ASSERT_TRUE(QFileInfo::exists(keptA)) << "imports are copied into the runs folder";

    auto *list = window.findChild<QListWidget *>(QStringLiteral("runList"));
    auto *remove = window.findChild<QPushButton *>(QStringLiteral("removeRunButton"));
    ASSERT_NE(list, nullptr);
    ASSERT_NE(remove, nullptr);
    ASSERT_EQ(list->count(), 2);
    EXPECT_FALSE(remove->isEnabled()) << "nothing selected";
    list->setCurrentRow(0);
    EXPECT_TRUE(remove->isEnabled());

    // Cancel: nothing happens.
    remove->click();
    auto *box = window.findChild<QMessageBox *>(QStringLiteral("removeRunBox"));
    ASSERT_NE(box, nullptr);
    EXPECT_TRUE(box->informativeText().contains(QStringLiteral("run-a.json")))
        << box->informativeText().toStdString();
    box->button(QMessageBox::Cancel)->click();
    waitUntil([] { return false; }, 50);
    EXPECT_EQ(window.store().runCount(), 2);
    EXPECT_TRUE(QFileInfo::exists(keptA));

    // Confirmed: the run leaves the view, the table and the charts, and its file the folder.
    remove->click();
    box = window.findChild<QMessageBox *>(QStringLiteral("removeRunBox"));
    ASSERT_NE(box, nullptr);
    box->findChild<QPushButton *>(QStringLiteral("removeRunConfirmButton"))->click();
    waitUntil([] { return false; }, 50);
    window.redrawNow();
    ASSERT_EQ(window.store().runCount(), 1);
    EXPECT_EQ(window.store().run(0).record.runId, "run-b");
    EXPECT_EQ(list->count(), 1);
    EXPECT_FALSE(QFileInfo::exists(keptA));
    EXPECT_TRUE(QFileInfo::exists(QDir(runs).filePath(QStringLiteral("run-b.json"))));
    EXPECT_TRUE(QFileInfo::exists(a)) << "the file it was imported from is not touched";

    // A new window on the same folder shows only the run that was kept.
    MainWindow again(nullptr, runs);
    EXPECT_EQ(again.store().runCount(), 1);
}

} // namespace
} // namespace devicebench
