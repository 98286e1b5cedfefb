// SPDX-License-Identifier: MIT
// Your own Python script in the dashboard: the "Workload" choice "your Python script" shows
// the "Script" (a field and "Choose…") and "Arguments" rows, which go into the run's config
// (the arguments split as a shell would) and are remembered; a missing script is refused under
// the run buttons with the engine's message naming the file, before anything runs.
#include "panels/run_settings_panel.h"
#include "scoped_variable.h"
#include "test_support.h"
#include "window/main_window.h"
#include "wiring_support.h"

#include "devicebench/resource_files.h"

#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace devicebench;

namespace {

void chooseWorkload(QWidget &parent, Workload workload) {
    auto *combo = parent.findChild<QComboBox *>(QStringLiteral("workloadCombo"));
    combo->setCurrentIndex(combo->findData(QString::fromUtf8(toString(workload))));
}

QLineEdit *edit(QWidget &parent, const char *name) {
    return parent.findChild<QLineEdit *>(QString::fromUtf8(name));
}

// Whether the field would show with `parent` (its row, or the row's widget, not hidden).
bool shown(QWidget &parent, const char *name) { return edit(parent, name)->isVisibleTo(&parent); }

} // namespace

TEST(ScriptWorkload, ChoosingYourScriptShowsItsRowsAndPutsFileAndArgumentsInTheRunConfig) {
    RunSettingsPanel panel;
    EXPECT_FALSE(shown(panel, "scriptEdit")) << "faithful by default";
    EXPECT_FALSE(shown(panel, "scriptArgsEdit"));
    chooseWorkload(panel, Workload::Script);
    EXPECT_TRUE(shown(panel, "scriptEdit"));
    EXPECT_TRUE(shown(panel, "scriptArgsEdit"));
    EXPECT_FALSE(edit(panel, "pythonEdit")->isHidden()) << "a script needs its Python";
    EXPECT_NE(panel.findChild<QPushButton *>(QStringLiteral("scriptChooseButton")), nullptr);
    edit(panel, "scriptEdit")->setText(QStringLiteral(" /home/me/train.py "));
    edit(panel, "scriptArgsEdit")->setText(QStringLiteral("--data \"/my data\" --epochs 3"));
    edit(panel, "pythonEdit")->setText(QStringLiteral("/opt/venv/bin/python"));
    const RunConfig config = panel.runConfig("cpu");
    EXPECT_EQ(config.workload, Workload::Script);
    EXPECT_EQ(config.script, "/home/me/train.py");
    EXPECT_EQ(config.scriptArgs, (std::vector<std::string>{"--data", "/my data", "--epochs", "3"}));
    EXPECT_EQ(config.python, "/opt/venv/bin/python");

    panel.setRunConfig(config); // shown back as typed: the same arguments again
    EXPECT_EQ(panel.runConfig("cpu").scriptArgs, config.scriptArgs);
    chooseWorkload(panel, Workload::Faithful);
    EXPECT_FALSE(shown(panel, "scriptEdit"));
    EXPECT_TRUE(panel.runConfig("cpu").script.empty()) << "the script only for its workload";
}

TEST(ScriptWorkload, TheScriptAndItsArgumentsAreRemembered) {
    QTemporaryDir dir;
    QSettings settings(dir.filePath(QStringLiteral("s.ini")), QSettings::IniFormat);
    {
        RunSettingsPanel panel;
        chooseWorkload(panel, Workload::Script);
        edit(panel, "scriptEdit")->setText(QStringLiteral("/home/me/train.py"));
        edit(panel, "scriptArgsEdit")->setText(QStringLiteral("--lr 0.1"));
        panel.saveSettings(settings);
    }
    EXPECT_EQ(settings.value(QStringLiteral("run/workload")).toString(), QStringLiteral("script"));
    RunSettingsPanel again;
    again.restoreSettings(settings);
    const RunConfig config = again.runConfig("cpu");
    EXPECT_EQ(config.workload, Workload::Script);
    EXPECT_EQ(config.script, "/home/me/train.py");
    EXPECT_EQ(config.scriptArgs, (std::vector<std::string>{"--lr", "0.1"}));
}

TEST(ScriptWorkload, AMissingScriptIsRefusedUnderTheButtonsNamingItBeforeAnyRun) {
    RunController controller(test::FakeTrainer{});
    MainWindow window(nullptr, test::scratchRunsFolder());
    test::wire(window, controller, [] { return DeviceSurvey{}; });
    window.setRunConfig(test::syntheticConfig(2, 1));
    chooseWorkload(window, Workload::Script);
    edit(window, "scriptEdit")->setText(QStringLiteral("/nonexistent/train.py"));
    window.findChild<QPushButton *>(QStringLiteral("runCpuButton"))->click();
    EXPECT_FALSE(window.isRunning());
    auto *label = window.findChild<QLabel *>(QStringLiteral("validationLabel"));
    EXPECT_FALSE(label->isHidden());
    EXPECT_TRUE(label->text().contains(
        QStringLiteral("the training script /nonexistent/train.py does not exist")))
        << label->text().toStdString();
}
