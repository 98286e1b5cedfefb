// SPDX-License-Identifier: MIT
// A GPU user's run settings: the GPUs that passed the probe named by their product names in the
// "GPU" row and on "Run on GPU", a choice among several that "Run on GPU" and a run set's cuda
// use, remembered in the settings; and in a CPU-only build the command that makes the GPU
// build, as the button's reason.
#include "test_support.h"
#include "window/main_window.h"

#include "devicebench/devices.h"
#include "panels/run_settings_panel.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QComboBox>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>

#include <string>
#include <vector>

namespace devicebench {
namespace {

DeviceInfo device(const std::string &id, const std::string &name, bool usable) {
    DeviceInfo info;
    info.id = id;
    info.name = name;
    info.usable = usable;
    return info;
}

// The CPU, two GPUs that passed their probe and one that failed it.
std::vector<DeviceInfo> twoUsableGpus() {
    return {device("cpu", "CPU (AMD EPYC)", true), device("cuda:0", "NVIDIA H200", true),
            device("cuda:1", "NVIDIA GeForce RTX 3050 Laptop GPU", true),
            device("cuda:2", "NVIDIA T4", false)};
}

TEST(GpuChoice, TheRowIsHiddenUntilTheProbeFindsAUsableGpu) {
    RunSettingsPanel panel;
    auto *combo = panel.findChild<QComboBox *>(QStringLiteral("gpuCombo"));
    ASSERT_NE(combo, nullptr);
    EXPECT_FALSE(combo->isVisibleTo(&panel));
    panel.setGpus({device("cpu", "CPU", true), device("cuda", "CUDA", false)});
    EXPECT_FALSE(combo->isVisibleTo(&panel));
    EXPECT_EQ(panel.runGpuButton()->text(), QStringLiteral("Run on GPU"));
}

TEST(GpuChoice, UsableGpusAreListedByProductNameAndTheButtonNamesTheChosenOne) {
    RunSettingsPanel panel;
    panel.setGpuShortcut(QStringLiteral("Ctrl+G"));
    panel.setGpus(twoUsableGpus());
    panel.setRunState(false, QString());
    auto *combo = panel.findChild<QComboBox *>(QStringLiteral("gpuCombo"));
    EXPECT_TRUE(combo->isVisibleTo(&panel));
    EXPECT_TRUE(combo->isEnabled()) << "a choice: two GPUs";
    ASSERT_EQ(combo->count(), 2) << "the GPU that failed its probe is not offered";
    EXPECT_EQ(combo->itemText(0), QStringLiteral("cuda:0: NVIDIA H200"));
    EXPECT_EQ(combo->itemText(1), QStringLiteral("cuda:1: NVIDIA GeForce RTX 3050 Laptop GPU"));
    EXPECT_EQ(panel.runGpuButton()->text(), QStringLiteral("Run on NVIDIA H200"));
    EXPECT_EQ(panel.runGpuButton()->toolTip(),
              QStringLiteral("Train on cuda:0, NVIDIA H200 (Ctrl+G)"));
}

TEST(GpuChoice, RunOnGpuAndARunSetsCudaTrainOnTheChosenGpu) {
    RunSettingsPanel panel;
    panel.setGpus(twoUsableGpus());
    panel.setRunState(false, QString());
    auto *combo = panel.findChild<QComboBox *>(QStringLiteral("gpuCombo"));
    combo->setCurrentIndex(1);
    Q_EMIT combo->activated(1); // as a user's choice does
    EXPECT_EQ(panel.runGpuButton()->text(), QStringLiteral("Run on NVIDIA GeForce RTX 3050…"))
        << "a long name is cut";
    EXPECT_TRUE(panel.runGpuButton()->toolTip().contains(
        QStringLiteral("cuda:1, NVIDIA GeForce RTX 3050 Laptop GPU")));

    QSignalSpy runs(&panel, &RunSettingsPanel::runRequested);
    panel.runGpuButton()->click();
    ASSERT_EQ(runs.count(), 1);
    EXPECT_EQ(runs.at(0).at(0).toString(), QStringLiteral("cuda:1"));

    std::vector<RunSetItem> set;
    QObject::connect(&panel, &RunSettingsPanel::runSetRequested,
                     [&set](const std::vector<RunSetItem> &items, bool) { set = items; });
    panel.findChild<QLineEdit *>(QStringLiteral("runSetEdit"))
        ->setText(QStringLiteral("cpu, cuda"));
    panel.runSetButton()->click();
    ASSERT_EQ(set.size(), 2U);
    EXPECT_EQ(set[1].device, "cuda:1");
}

TEST(GpuChoice, TheChosenGpuIsRememberedAndChosenAgainAfterTheNextProbe) {
    QTemporaryDir dir;
    QSettings settings(dir.filePath(QStringLiteral("s.ini")), QSettings::IniFormat);
    {
        RunSettingsPanel panel;
        panel.setGpus(twoUsableGpus());
        auto *combo = panel.findChild<QComboBox *>(QStringLiteral("gpuCombo"));
        combo->setCurrentIndex(1);
        Q_EMIT combo->activated(1);
        panel.saveSettings(settings);
    }
    EXPECT_EQ(settings.value(QStringLiteral("run/gpu")).toString(), QStringLiteral("cuda:1"));
    RunSettingsPanel again;
    again.restoreSettings(settings); // before the probe, as the window does
    again.setGpus(twoUsableGpus());
    EXPECT_EQ(again.findChild<QComboBox *>(QStringLiteral("gpuCombo"))->currentData().toString(),
              QStringLiteral("cuda:1"));
    // A machine where that GPU is gone: the first one, and the remembered one is not lost.
    RunSettingsPanel fewer;
    fewer.restoreSettings(settings);
    fewer.setGpus({device("cpu", "CPU", true), device("cuda:0", "NVIDIA H200", true)});
    auto *combo = fewer.findChild<QComboBox *>(QStringLiteral("gpuCombo"));
    EXPECT_EQ(combo->currentData().toString(), QStringLiteral("cuda:0"));
    EXPECT_FALSE(combo->isEnabled()) << "one GPU: shown, nothing to choose";
}

TEST(GpuChoice, TheWindowsRunMenuNamesTheGpuTheProbeFound) {
    MainWindow window(nullptr, test::scratchRunsFolder());
    window.onDevicesProbed(twoUsableGpus(), Fingerprint{});
    auto *action = window.findChild<QAction *>(QStringLiteral("runGpuAction"));
    ASSERT_NE(action, nullptr);
    EXPECT_EQ(action->text(), QStringLiteral("Run on &GPU: NVIDIA H200"));
    EXPECT_TRUE(action->isEnabled());
}

TEST(GpuChoice, ACpuOnlyBuildSaysTheCommandThatMakesTheGpuBuild) {
    const std::string reason = cudaUnavailableReason();
    if (reason.find("was built without CUDA") == std::string::npos)
        GTEST_SKIP() << "a CUDA build of LibTorch: " << reason;
    EXPECT_NE(reason.find("DEVICEBENCH_PRESET=cuda scripts/run.sh"), std::string::npos) << reason;
}

} // namespace
} // namespace devicebench
