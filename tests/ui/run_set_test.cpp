// SPDX-License-Identifier: MIT
// The "Run set" row (a list such as "cpu:1, cpu:2, cuda", "Interleave epochs", "Run set") and
// the window starting a run set through the controller: each run in the store under its own id
// with its own device and threads, the status bar naming the set while it goes.
#include "run_controller.h"
#include "store/run_store.h"
#include "test_support.h"
#include "window/main_window.h"
#include "wiring_support.h"

#include "panels/run_settings_panel.h"

#include <gtest/gtest.h>

#include <QCheckBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>

#include <string>
#include <vector>

namespace devicebench {
namespace {

using test::waitUntil;

TEST(RunSetRow, AListParsesIntoDevicesAndThreads) {
    std::vector<RunSetItem> items;
    QString error;
    ASSERT_TRUE(parseRunSet(QStringLiteral("cpu:1, cpu:2,cuda , gpu, cpu"), &items, &error))
        << error.toStdString();
    ASSERT_EQ(items.size(), 5U);
    EXPECT_EQ(items[0].device, "cpu");
    EXPECT_EQ(items[0].threads, 1);
    EXPECT_EQ(items[1].threads, 2);
    EXPECT_EQ(items[2].device, "cuda");
    EXPECT_EQ(items[3].device, "cuda");
    EXPECT_EQ(items[4].device, "cpu");
    EXPECT_EQ(items[4].threads, 0) << "the panel's threads";
}

TEST(RunSetRow, ABadItemIsNamedAndAnEmptyListIsRefused) {
    std::vector<RunSetItem> items;
    QString error;
    EXPECT_FALSE(parseRunSet(QStringLiteral("cpu:1, gpu:2"), &items, &error));
    EXPECT_EQ(error, QStringLiteral("run set: 'gpu:2' is not cpu, cpu:THREADS or cuda"));
    EXPECT_FALSE(parseRunSet(QStringLiteral("cpu:0"), &items, &error));
    EXPECT_EQ(error, QStringLiteral("run set: 'cpu:0' is not cpu, cpu:THREADS or cuda"));
    EXPECT_FALSE(parseRunSet(QStringLiteral("cpu,,cuda"), &items, &error));
    EXPECT_EQ(error, QStringLiteral("run set: '' is not cpu, cpu:THREADS or cuda"));
    EXPECT_FALSE(parseRunSet(QStringLiteral("  "), &items, &error));
    EXPECT_TRUE(error.startsWith(QStringLiteral("run set: list the runs"))) << error.toStdString();
}

TEST(RunSetRow, ABadListShowsItsMessageAndRunsNothing) {
    RunSettingsPanel panel;
    bool requested = false;
    QObject::connect(&panel, &RunSettingsPanel::runSetRequested,
                     [&requested](const std::vector<RunSetItem> &, bool) { requested = true; });
    panel.findChild<QLineEdit *>(QStringLiteral("runSetEdit"))->setText(QStringLiteral("gpu:2"));
    panel.findChild<QPushButton *>(QStringLiteral("runSetButton"))->click();
    EXPECT_FALSE(requested);
    auto *label = panel.findChild<QLabel *>(QStringLiteral("validationLabel"));
    EXPECT_FALSE(label->isHidden());
    EXPECT_EQ(label->text(), QStringLiteral("run set: 'gpu:2' is not cpu, cpu:THREADS or cuda"));
}

TEST(RunSetRow, TheButtonSendsTheParsedListAndIsDisabledWhileRunning) {
    RunSettingsPanel panel;
    std::vector<RunSetItem> got;
    bool interleave = false;
    QObject::connect(&panel, &RunSettingsPanel::runSetRequested,
                     [&](const std::vector<RunSetItem> &items, bool alternate) {
                         got = items;
                         interleave = alternate;
                     });
    auto *check = panel.findChild<QCheckBox *>(QStringLiteral("interleaveCheck"));
    ASSERT_NE(check, nullptr);
    EXPECT_TRUE(check->isChecked()) << "interleaved by default";
    panel.findChild<QLineEdit *>(QStringLiteral("runSetEdit"))
        ->setText(QStringLiteral("cpu:1, cpu:2"));
    auto *button = panel.findChild<QPushButton *>(QStringLiteral("runSetButton"));
    button->click();
    ASSERT_EQ(got.size(), 2U);
    EXPECT_EQ(got[1].threads, 2);
    EXPECT_TRUE(interleave);
    panel.setRunState(true, QString());
    EXPECT_FALSE(button->isEnabled());
    panel.setRunState(false, QString());
    EXPECT_TRUE(button->isEnabled());
}

TEST(RunSetRow, InterleaveAndTheListAreRemembered) {
    QTemporaryDir dir;
    QSettings settings(dir.filePath(QStringLiteral("s.conf")), QSettings::IniFormat);
    {
        RunSettingsPanel panel;
        panel.findChild<QCheckBox *>(QStringLiteral("interleaveCheck"))->setChecked(false);
        panel.findChild<QLineEdit *>(QStringLiteral("runSetEdit"))
            ->setText(QStringLiteral("cpu:1, cuda"));
        panel.saveSettings(settings);
    }
    EXPECT_FALSE(settings.value(QStringLiteral("run/interleave")).toBool());
    RunSettingsPanel again;
    again.restoreSettings(settings);
    EXPECT_FALSE(again.interleave());
    EXPECT_EQ(again.runSetText(), QStringLiteral("cpu:1, cuda"));
}

TEST(WindowRunSet, EachRunOfTheSetIsInTheStoreWithItsThreadsAndTheStatusNamesTheSet) {
    RunController controller(test::FakeTrainer{});
    MainWindow window(nullptr, test::scratchRunsFolder());
    test::wire(window, controller);
    window.setRunConfig(test::syntheticConfig(2, 1));
    auto *status = window.findChild<QLabel *>(QStringLiteral("statusLabel"));
    QStringList shown;
    QObject::connect(&controller, &RunController::epochFinished, &window, [&] {
        window.redrawNow();
        shown.append(status->text());
    });
    QSignalSpy ended(&controller, &RunController::runEnded);
    window.findChild<QLineEdit *>(QStringLiteral("runSetEdit"))
        ->setText(QStringLiteral("cpu:1, cpu:2"));
    window.findChild<QCheckBox *>(QStringLiteral("interleaveCheck"))->setChecked(false);
    window.findChild<QPushButton *>(QStringLiteral("runSetButton"))->click();
    EXPECT_TRUE(window.isRunning());
    EXPECT_FALSE(window.findChild<QPushButton *>(QStringLiteral("runSetButton"))->isEnabled());
    QSignalSpy refused(&window, &MainWindow::runRefused);
    window.startRun("cpu");
    ASSERT_EQ(refused.count(), 1) << "a set is going";
    EXPECT_EQ(refused.at(0).at(0).toStringList(),
              QStringList{QStringLiteral("Run #1 is still going: stop it or wait for it to end.")});
    ASSERT_TRUE(waitUntil([&] { return ended.count() == 2; }));
    EXPECT_FALSE(window.isRunning());
    ASSERT_EQ(window.store().runCount(), 2);
    EXPECT_EQ(window.store().findRun(1)->record.config.threads, 1);
    EXPECT_EQ(window.store().findRun(2)->record.config.threads, 2);
    EXPECT_EQ(window.store().findRun(1)->state, RunState::Finished);
    EXPECT_EQ(window.store().findRun(2)->state, RunState::Finished);
    ASSERT_EQ(shown.size(), 4);
    EXPECT_TRUE(shown[0].startsWith(QStringLiteral("Run set: 2 runs one after another · Run #1 "
                                                   "on cpu · epoch 2/2")))
        << shown[0].toStdString();
    EXPECT_TRUE(shown[3].startsWith(QStringLiteral("Run set: 2 runs one after another · Run #2")))
        << shown[3].toStdString();
    EXPECT_TRUE(window.findChild<QPushButton *>(QStringLiteral("runSetButton"))->isEnabled());
}

TEST(WindowRunSet, StopStopsTheWholeSet) {
    test::FakeTrainer fake;
    fake.untilStopped = true;
    RunController controller(fake);
    MainWindow window(nullptr, test::scratchRunsFolder());
    test::wire(window, controller);
    window.setRunConfig(test::syntheticConfig(2, 1));
    QSignalSpy started(&controller, &RunController::runStarted);
    QSignalSpy ended(&controller, &RunController::runEnded);
    window.startRunSet({{"cpu", 1}, {"cpu", 2}, {"cpu", 3}}, false);
    ASSERT_TRUE(window.isRunning());
    ASSERT_TRUE(waitUntil([&] { return started.count() == 1; }));
    window.findChild<QPushButton *>(QStringLiteral("stopButton"))->click();
    EXPECT_EQ(window.findChild<QLabel *>(QStringLiteral("statusLabel"))->text(),
              QStringLiteral("Stopping the run set…"));
    ASSERT_TRUE(waitUntil([&] { return ended.count() == 3; }));
    EXPECT_FALSE(window.isRunning());
    EXPECT_EQ(window.store().runCount(), 1) << "the runs not started have no record";
}

TEST(WindowRunSet, AnInterleavedSetShowsBothRunsWithEveryEpoch) {
    RunController controller; // interleaved runs train for real: a tiny synthetic set
    MainWindow window(nullptr, test::scratchRunsFolder());
    test::wire(window, controller);
    RunConfig config = test::syntheticConfig(2, 1);
    config.trainImages = 320;
    config.testImages = 64;
    config.batchSize = 32;
    window.setRunConfig(config);
    auto *status = window.findChild<QLabel *>(QStringLiteral("statusLabel"));
    QStringList shown;
    QObject::connect(&controller, &RunController::epochFinished, &window, [&] {
        window.redrawNow();
        shown.append(status->text());
    });
    QSignalSpy ended(&controller, &RunController::runEnded);
    window.startRunSet({{"cpu", 1}, {"cpu", 1}}, true);
    ASSERT_TRUE(window.isRunning());
    ASSERT_TRUE(waitUntil([&] { return ended.count() == 2; }, 120000));
    ASSERT_EQ(window.store().runCount(), 2);
    for (int id = 1; id <= 2; ++id) {
        EXPECT_EQ(window.store().findRun(id)->state, RunState::Finished);
        EXPECT_EQ(window.store().findRun(id)->record.epochs.size(), 2U);
    }
    ASSERT_EQ(shown.size(), 4);
    EXPECT_TRUE(shown[1].startsWith(QStringLiteral("Run set: 2 runs interleaved · Run #2 on cpu "
                                                   "· epoch 2/2")))
        << shown[1].toStdString();
}

} // namespace
} // namespace devicebench
