// SPDX-License-Identifier: MIT
// The sweep's controller (app/controller/sweep_controller.h) with a fake sweep function (no
// training), wired to the Sweep view as the dashboard wires it (wiring.h), and the window's
// Sweep tab.
#include "charts/sweep_chart.h"
#include "panels/run_settings_panel.h"
#include "sweep/sweep_panel.h"
#include "sweep_controller.h"
#include "sweep_support.h"
#include "test_support.h"
#include "window/main_window.h"
#include "wiring.h"

#include <QLineSeries>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <string>
#include <thread>
#include <vector>

using namespace devicebench;
using test::sweepRecord;
using test::waitUntil;

namespace {

// Reports `cells` cells of small-cnn at batch 16, 32, ... on cpu x1 (the first found finished
// in the folder), each taking `cellMs`; with `untilStopped`, the last cell runs until the stop
// flag turns true.
struct FakeSweep {
    int cells = 2;
    int cellMs = 1;
    bool untilStopped = false;

    SweepOutcome operator()(const SweepSpec & /*spec*/, const std::string & /*folder*/,
                            const SweepObserver &observer, const std::atomic<bool> &stop) const {
        SweepOutcome outcome;
        SweepProgress progress;
        progress.total = cells;
        progress.secondsLeft = std::nan("");
        for (int i = 0; i < cells; ++i) {
            SweepCellRecord record = sweepRecord("small-cnn", 16 << i, 1, 100.0 * (i + 1));
            if (i == 0) { // found finished
                ++progress.done;
                ++progress.skipped;
                observer.cellEnded(record, progress, true);
                outcome.records.push_back(record);
                continue;
            }
            observer.cellStarted(record.cell, progress);
            do {
                std::this_thread::sleep_for(std::chrono::milliseconds(cellMs));
            } while (untilStopped && i == cells - 1 && !stop.load());
            if (stop.load()) {
                outcome.status = RunStatus::Cancelled;
                return outcome;
            }
            ++progress.done;
            progress.secondsLeft = 0.001 * cellMs * (cells - progress.done);
            observer.cellEnded(record, progress, false);
            outcome.records.push_back(record);
        }
        return outcome;
    }
};

SweepSpec smallSpec() {
    SweepSpec spec;
    spec.base.synthetic = true;
    spec.steps = 2;
    spec.warmupSteps = 0;
    spec.phaseSteps = 0;
    return spec;
}

} // namespace

TEST(SweepController, ReportsEachCellOnTheMainThreadThenExactlyOneEnd) {
    SweepController controller(FakeSweep{3});
    QSignalSpy accepted(&controller, &SweepController::sweepAccepted);
    QSignalSpy started(&controller, &SweepController::cellStarted);
    QSignalSpy ended(&controller, &SweepController::cellEnded);
    QSignalSpy sweepEnded(&controller, &SweepController::sweepEnded);
    QTemporaryDir dir;
    const int id = controller.start(smallSpec(), dir.path());
    ASSERT_GT(id, 0);
    ASSERT_EQ(accepted.count(), 1);
    EXPECT_EQ(accepted.front().at(1).toInt(), 1) << "the grid's cell count";
    ASSERT_TRUE(waitUntil([&] { return sweepEnded.count() == 1; }));
    EXPECT_EQ(started.count(), 2) << "the resumed cell is not started";
    EXPECT_EQ(ended.count(), 3);
    EXPECT_TRUE(ended.front().at(3).toBool()) << "the first was found finished";
    const auto outcome = sweepEnded.front().at(1).value<SweepOutcome>();
    EXPECT_EQ(outcome.status, RunStatus::Finished);
    EXPECT_EQ(outcome.records.size(), 3U);
    EXPECT_TRUE(sweepEnded.front().at(2).toString().isEmpty());
    EXPECT_FALSE(controller.isRunning());
}

TEST(SweepController, RefusesAnInvalidGridAndASecondSweep) {
    SweepController controller(FakeSweep{2, 1, true});
    QSignalSpy rejected(&controller, &SweepController::sweepRejected);
    QTemporaryDir dir;
    SweepSpec bad = smallSpec();
    bad.batchSizes = {2048};
    EXPECT_EQ(controller.start(bad, dir.path()), 0);
    ASSERT_EQ(rejected.count(), 1);
    EXPECT_TRUE(rejected.front().at(0).toString().contains(QStringLiteral("2048")));
    ASSERT_GT(controller.start(smallSpec(), dir.path()), 0);
    EXPECT_EQ(controller.start(smallSpec(), dir.path()), 0);
    EXPECT_EQ(rejected.count(), 2);
    controller.stop();
    EXPECT_TRUE(waitUntil([&] { return !controller.isRunning(); }));
}

TEST(SweepPanel, RunAndStopGoThroughTheControllerAndTheViewFollows) {
    SweepController controller(FakeSweep{3, 1, true});
    SweepPanel panel;
    wireSweepPanel(panel, controller);
    QTemporaryDir dir;
    panel.setFolder(dir.path());
    QSignalSpy running(&panel, &SweepPanel::runningChanged);
    ASSERT_TRUE(panel.startSweep());
    EXPECT_TRUE(panel.isRunning());
    // The last cell runs until stopped.
    ASSERT_TRUE(waitUntil([&] { return panel.records().size() == 2; }));
    EXPECT_EQ(panel.progressText(), QStringLiteral("cell 3 of 3 — about 0 s left"));
    auto *stop = panel.findChild<QPushButton *>(QStringLiteral("sweepStopButton"));
    ASSERT_NE(stop, nullptr);
    EXPECT_TRUE(stop->isEnabled());
    stop->click();
    ASSERT_TRUE(waitUntil([&] { return !panel.isRunning(); }));
    EXPECT_EQ(running.count(), 2);
    EXPECT_TRUE(panel.progressText().startsWith(
        QStringLiteral("Stopped: 2 of 3 cells done (1 found finished)")))
        << panel.progressText().toStdString();
    EXPECT_EQ(panel.chart()->series().size(), 1);
}

TEST(MainWindow, HasASweepTabAndNeverRunsASweepAndATrainingRunAtOnce) {
    MainWindow window(nullptr, test::scratchRunsFolder());
    auto *tabs = window.findChild<QTabWidget *>(QStringLiteral("mainTabs"));
    ASSERT_NE(tabs, nullptr);
    ASSERT_EQ(tabs->count(), 3); // Runs, Sweep, Scaling (scaling_view_test.cpp)
    EXPECT_EQ(tabs->tabText(1), QStringLiteral("Sweep"));
    window.showSweepView();
    EXPECT_EQ(tabs->currentWidget(), window.sweepPanel());

    RunConfig settings = window.runConfig("cpu");
    settings.synthetic = true; // the sweep's data, from the run settings
    window.setRunConfig(settings);
    SweepController controller(FakeSweep{2, 1, true});
    wireSweepPanel(*window.sweepPanel(), controller);
    QTemporaryDir dir;
    window.sweepPanel()->setFolder(dir.path());
    ASSERT_TRUE(window.sweepPanel()->startSweep());
    auto *runCpu = window.findChild<QPushButton *>(QStringLiteral("runCpuButton"));
    ASSERT_NE(runCpu, nullptr);
    EXPECT_FALSE(runCpu->isEnabled()) << "no training run during a sweep";
    controller.stop();
    ASSERT_TRUE(waitUntil([&] { return !window.sweepPanel()->isRunning(); }));
    EXPECT_TRUE(runCpu->isEnabled());
}

TEST(SweepController, RunsARealTinySweepIntoItsFolderAndResumesIt) {
    SweepController controller; // runSweep itself: two tiny cells of the small CNN
    SweepSpec spec = smallSpec();
    spec.batchSizes = {2, 4};
    spec.devices = {SweepDevice{"cpu", 1}};
    spec.base.trainImages = 16;
    spec.base.testImages = 4;
    spec.measurePeak = false;
    QTemporaryDir dir;
    QSignalSpy ended(&controller, &SweepController::sweepEnded);
    QSignalSpy cells(&controller, &SweepController::cellEnded);
    ASSERT_GT(controller.start(spec, dir.path()), 0);
    ASSERT_TRUE(waitUntil([&] { return ended.count() == 1; }, 60000));
    const auto outcome = ended.front().at(1).value<SweepOutcome>();
    EXPECT_EQ(outcome.status, RunStatus::Finished) << ended.front().at(2).toString().toStdString();
    ASSERT_EQ(outcome.records.size(), 2U);
    EXPECT_GT(outcome.records[1].result.imagesPerSecond, 0.0);
    EXPECT_EQ(loadSweepFolder(dir.path().toStdString(), nullptr).size(), 2U);

    // Again into the same folder: both cells are found finished, none is run.
    ASSERT_GT(controller.start(spec, dir.path()), 0);
    ASSERT_TRUE(waitUntil([&] { return ended.count() == 2; }, 60000));
    ASSERT_EQ(cells.count(), 4);
    EXPECT_TRUE(cells.at(2).at(3).toBool());
    EXPECT_TRUE(cells.at(3).at(3).toBool());
}
