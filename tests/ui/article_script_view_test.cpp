// SPDX-License-Identifier: MIT
// The article's script in the dashboard: the "Workload" choice and the "Python" setting of the
// run settings, "Reproduce the article" (the runs it asks for, the published results it turns
// on, its message without the article's set, a Python the engine refuses) and the two
// programs' ratio line in the compare panel, the bar chart's footer and the published hover.
#include "charts/charts.h"
#include "charts/published_bars.h"
#include "panels/compare_panel.h"
#include "panels/run_settings_panel.h"
#include "scoped_variable.h"
#include "store/run_store.h"
#include "test_support.h"
#include "window/main_window.h"
#include "wiring_support.h"

#include "devicebench/published.h"
#include "devicebench/resource_files.h"
#include "devicebench/run_record.h"

#include "record_builder.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

using namespace devicebench;

namespace {

using test::ScopedVariable;

void chooseWorkload(QWidget &parent, Workload workload) {
    auto *combo = parent.findChild<QComboBox *>(QStringLiteral("workloadCombo"));
    combo->setCurrentIndex(combo->findData(QString::fromUtf8(toString(workload))));
}

QLineEdit *pythonEdit(QWidget &parent) {
    return parent.findChild<QLineEdit *>(QStringLiteral("pythonEdit"));
}

// Every request the window sends as a run set, and whether it asked for them interleaved.
struct SentSets {
    std::vector<std::vector<RunRequest>> sets;
    std::vector<bool> interleaved;
    QStringList refused;
    explicit SentSets(MainWindow &window) {
        QObject::connect(&window, &MainWindow::startRunSetRequested, &window,
                         [this](const std::vector<RunRequest> &requests, bool interleave) {
                             sets.push_back(requests);
                             interleaved.push_back(interleave);
                         });
        QObject::connect(&window, &MainWindow::runRefused, &window,
                         [this](const QStringList &reasons) { refused.append(reasons); });
    }
};

// A probe that found the CPU and one usable GPU.
std::vector<DeviceInfo> cpuAndOneGpu() {
    DeviceInfo cpu;
    cpu.id = "cpu";
    cpu.usable = true;
    DeviceInfo gpu;
    gpu.id = "cuda:0";
    gpu.usable = true;
    DeviceInfo broken;
    broken.id = "cuda:1";
    broken.usable = false;
    return {cpu, gpu, broken};
}

// An article-settings record (record_builder.h) of CIFAR-10 with its whole-file hash, on one
// host, CPU model and thread count, as a record of this machine would say.
RunRecord articleRun(const std::string &id, const std::string &workload, double seconds) {
    RunRecord r = devicebench::testing::articleSettingsRun(id, workload, seconds);
    r.data = {"/data/cifar-10-batches-bin", "cifar-10-binary", 50000, 10000,
              "xxh3-128:0123456789abcdef0123456789abcdef"};
    r.fingerprint.hostName = "host-a";
    r.fingerprint.cpuModel = "EPYC";
    r.started.threads = 2;
    return r;
}

// The checkout's resources/ as the built-in folder (published/article.json, the program), the
// user's published folder an empty temporary one.
class ArticleScriptView : public ::testing::Test {
protected:
    QTemporaryDir m_userData;
    ScopedVariable m_xdg{"XDG_DATA_HOME", m_userData.path()};
    ScopedVariable m_resources{kResourcesVariable, QStringLiteral(DEVICEBENCH_RESOURCES_DIR)};
};

} // namespace

TEST(WorkloadSetting, TheArticlesScriptAndItsPythonGoIntoTheRunConfig) {
    RunSettingsPanel panel;
    EXPECT_FALSE(pythonEdit(panel)->isEnabled()) << "faithful by default: no Python";
    EXPECT_TRUE(pythonEdit(panel)->isHidden()) << "its row shows for the script only";
    EXPECT_EQ(pythonEdit(panel)->placeholderText(), QStringLiteral("python3"));
    EXPECT_TRUE(pythonEdit(panel)->toolTip().contains(QStringLiteral("torchvision")));
    pythonEdit(panel)->setText(QStringLiteral(" /opt/venv/bin/python "));
    EXPECT_EQ(panel.runConfig("cpu").python, "") << "the Python is sent only for the script";

    chooseWorkload(panel, Workload::ArticleScript);
    EXPECT_TRUE(pythonEdit(panel)->isEnabled());
    EXPECT_FALSE(pythonEdit(panel)->isHidden());
    const RunConfig config = panel.runConfig("cpu");
    EXPECT_EQ(config.workload, Workload::ArticleScript);
    EXPECT_EQ(config.python, "/opt/venv/bin/python");
    EXPECT_EQ(panel.python(), QStringLiteral("/opt/venv/bin/python"));

    chooseWorkload(panel, Workload::Tuned);
    EXPECT_FALSE(pythonEdit(panel)->isEnabled());
    EXPECT_TRUE(pythonEdit(panel)->isHidden());
    EXPECT_EQ(panel.runConfig("cpu").python, "");
    EXPECT_EQ(panel.python(), QStringLiteral("/opt/venv/bin/python")) << "kept as typed";
}

TEST(WorkloadSetting, SetRunConfigShowsTheScriptAndItsPythonAndAFaithfulConfigKeepsTheField) {
    RunSettingsPanel panel;
    RunConfig script = panel.runConfig("cpu");
    script.workload = Workload::ArticleScript;
    script.python = "/usr/bin/python3.12";
    panel.setRunConfig(script);
    EXPECT_EQ(panel.runConfig("cpu").workload, Workload::ArticleScript);
    EXPECT_EQ(pythonEdit(panel)->text(), QStringLiteral("/usr/bin/python3.12"));

    RunConfig faithful = script;
    faithful.workload = Workload::Faithful;
    faithful.python.clear(); // what runConfig gives for a faithful run
    panel.setRunConfig(faithful);
    EXPECT_EQ(pythonEdit(panel)->text(), QStringLiteral("/usr/bin/python3.12"));
    EXPECT_FALSE(pythonEdit(panel)->isEnabled());
}

TEST(WorkloadSetting, TheScriptAndThePythonAreRemembered) {
    QTemporaryDir dir;
    QSettings settings(dir.filePath(QStringLiteral("s.ini")), QSettings::IniFormat);
    {
        RunSettingsPanel panel;
        chooseWorkload(panel, Workload::ArticleScript);
        pythonEdit(panel)->setText(QStringLiteral("/opt/torch/bin/python"));
        panel.saveSettings(settings);
    }
    EXPECT_EQ(settings.value(QStringLiteral("run/workload")).toString(),
              QStringLiteral("article-script"));
    EXPECT_EQ(settings.value(QStringLiteral("run/python")).toString(),
              QStringLiteral("/opt/torch/bin/python"));
    RunSettingsPanel again;
    again.restoreSettings(settings);
    EXPECT_EQ(again.runConfig("cpu").workload, Workload::ArticleScript);
    EXPECT_EQ(again.runConfig("cpu").python, "/opt/torch/bin/python");
    EXPECT_TRUE(pythonEdit(again)->isEnabled());
}

TEST_F(ArticleScriptView, ReproduceAsksForTheScriptThenFaithfulOnEachDeviceAtThePublishedSettings) {
    MainWindow window(nullptr, test::scratchRunsFolder());
    SentSets sent(window);
    window.onDevicesProbed(cpuAndOneGpu(), Fingerprint{});
    RunConfig settings = test::syntheticConfig(3, 1); // what the run settings say
    settings.synthetic = false;
    settings.dataDir = "/data/cifar-10-batches-bin";
    settings.threads = 2;
    settings.seed = 7;
    settings.batchSize = 32;
    window.setRunConfig(settings);
    pythonEdit(window)->setText(QStringLiteral("/opt/torch/bin/python")); // faithful chosen
    auto *published = window.findChild<QCheckBox *>(QStringLiteral("publishedCheck"));
    published->setChecked(false);

    window.findChild<QPushButton *>(QStringLiteral("reproduceButton"))->click();

    ASSERT_EQ(sent.sets.size(), 1u);
    EXPECT_TRUE(sent.interleaved[0]) << "one interleaved run set";
    const std::vector<RunRequest> &runs = sent.sets[0];
    ASSERT_EQ(runs.size(), 4u);
    const std::vector<std::string> devices{"cpu", "cpu", "cuda:0", "cuda:0"};
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const RunConfig &c = runs[i].config;
        EXPECT_EQ(c.device, devices[i]);
        EXPECT_EQ(c.workload, i % 2 == 0 ? Workload::ArticleScript : Workload::Faithful);
        EXPECT_EQ(c.epochs, 10);
        EXPECT_EQ(c.warmupEpochs, 2);
        EXPECT_EQ(c.batchSize, 64);
        EXPECT_DOUBLE_EQ(c.learningRate, 0.01);
        EXPECT_EQ(c.precision, Precision::Float32);
        EXPECT_EQ(c.trainImages, 0);
        EXPECT_EQ(c.testImages, 0);
        EXPECT_FALSE(c.synthetic);
        EXPECT_EQ(c.dataDir, "/data/cifar-10-batches-bin");
        // The script runs get the Python; the engine's runs none.
        EXPECT_EQ(c.python, i % 2 == 0 ? "/opt/torch/bin/python" : "");
        EXPECT_EQ(c.threads, 2);
        EXPECT_EQ(c.seed, 7u);
        EXPECT_EQ(runs[i].recordsFolder, window.runsFolder().toStdString());
    }
    EXPECT_TRUE(published->isChecked()) << "the result reads as the article's table";
    EXPECT_TRUE(window.store().publishedShown());
    // Its first run, the script on the first device, is the baseline (as in `reproduce`).
    window.onRunSetAccepted(41, 4, true);
    EXPECT_EQ(window.store().baselineSetting(), 41);
    window.onRunSetAccepted(45, 2, true); // a later run set of the user's own
    EXPECT_EQ(window.store().baselineSetting(), 41) << "only the reproduction sets it";
}

TEST_F(ArticleScriptView, ReproduceWaitsForTheFirstProbeAndRunsOnTheCpuWhenItFails) {
    MainWindow window(nullptr, test::scratchRunsFolder());
    SentSets sent(window);
    window.requestProbe(); // nobody answers yet
    EXPECT_TRUE(window.reproduceArticle());
    EXPECT_TRUE(sent.sets.empty()) << "the devices are the probe's to say";
    window.onProbeFailed(QStringLiteral("no probe here"));
    ASSERT_EQ(sent.sets.size(), 1u);
    ASSERT_EQ(sent.sets[0].size(), 2u);
    EXPECT_EQ(sent.sets[0][0].config.device, "cpu");
    EXPECT_EQ(sent.sets[0][1].config.device, "cpu");
}

TEST_F(ArticleScriptView, CommandLineOverridesReplaceThePublishedEpochsAndImages) {
    MainWindow window(nullptr, test::scratchRunsFolder());
    SentSets sent(window);
    ReproductionOverrides overrides;
    overrides.epochs = 2;
    overrides.trainImages = 2000;
    overrides.testImages = 500;
    ASSERT_TRUE(window.reproduceArticle(overrides));
    ASSERT_EQ(sent.sets.size(), 1u);
    for (const RunRequest &request : sent.sets[0]) {
        EXPECT_EQ(request.config.epochs, 2);
        EXPECT_EQ(request.config.warmupEpochs, 1) << "the published 2, but not every epoch";
        EXPECT_EQ(request.config.trainImages, 2000);
        EXPECT_EQ(request.config.testImages, 500);
        EXPECT_EQ(request.config.batchSize, 64);
    }
}

TEST(ReproduceArticle, WithoutTheArticlesSetItSaysSoAndStartsNothing) {
    QTemporaryDir empty;
    ScopedVariable xdg{"XDG_DATA_HOME", empty.path()};
    ScopedVariable resources{kResourcesVariable, empty.path()}; // no published/article.json
    MainWindow window(nullptr, test::scratchRunsFolder());
    SentSets sent(window);
    window.findChild<QPushButton *>(QStringLiteral("reproduceButton"))->click();
    EXPECT_TRUE(sent.sets.empty());
    ASSERT_EQ(sent.refused.size(), 1);
    EXPECT_TRUE(sent.refused[0].contains(QStringLiteral("published results are not loaded")))
        << sent.refused[0].toStdString();
    auto *label = window.findChild<QLabel *>(QStringLiteral("validationLabel"));
    EXPECT_FALSE(label->isHidden());
    EXPECT_TRUE(label->text().startsWith(QStringLiteral("Reproduce the article: ")));
    EXPECT_FALSE(window.isRunning());
}

TEST_F(ArticleScriptView, AScriptRunWithAPythonWithoutTorchIsRefusedWithTheEnginesMessage) {
    RunController controller(test::FakeTrainer{});
    MainWindow window(nullptr, test::scratchRunsFolder());
    test::wire(window, controller, [] { return DeviceSurvey{}; });
    RunConfig settings = test::syntheticConfig(2, 1);
    settings.synthetic = false;
    settings.dataDir = "/nonexistent/cifar-10-batches-bin";
    window.setRunConfig(settings);
    chooseWorkload(window, Workload::ArticleScript);
    pythonEdit(window)->setText(QStringLiteral("/bin/false"));
    window.findChild<QPushButton *>(QStringLiteral("runCpuButton"))->click();
    EXPECT_FALSE(window.isRunning());
    auto *label = window.findChild<QLabel *>(QStringLiteral("validationLabel"));
    EXPECT_FALSE(label->isHidden());
    EXPECT_TRUE(label->text().contains(QStringLiteral("Python /bin/false")))
        << label->text().toStdString();

    window.reproduceArticle(); // the same Python for the set's script runs, once probed
    EXPECT_TRUE(test::waitUntil([&] {
        return label->text().contains(QStringLiteral("run 1 (cpu): Python /bin/false"));
    })) << label->text().toStdString();
    EXPECT_FALSE(window.isRunning());
}

TEST(ProgramRatioLine, AScriptRunAndAFaithfulRunOfTheSameSettingsShowTheirRatio) {
    RunStore store;
    ComparePanel panel(store);
    SpeedChart chart;
    store.addRecord(articleRun("script", "article-script", 10.0), QStringLiteral("s.json"));
    store.addRecord(articleRun("faithful", "faithful", 7.9), QStringLiteral("f.json"));
    panel.syncRuns();
    chart.sync(store);

    const QStringList lines = programRatioLines(store);
    ASSERT_EQ(lines.size(), 1);
    EXPECT_TRUE(lines[0].startsWith(
        QStringLiteral("DeviceBench's faithful workload: 0.79 x the article's script on ")))
        << lines[0].toStdString();
    EXPECT_FALSE(panel.programRatiosLabel()->isHidden());
    EXPECT_EQ(panel.programRatiosLabel()->text(), lines[0]);
    PublishedLegendItem *footer = nullptr;
    for (QGraphicsItem *item : chart.childItems())
        footer = footer != nullptr ? footer : dynamic_cast<PublishedLegendItem *>(item);
    ASSERT_NE(footer, nullptr);
    EXPECT_EQ(footer->lines(), lines) << "under the bars, so in the exported PNG too";
}

TEST_F(ArticleScriptView, ThePublishedBarsHoverSaysTheRatioBesideTheLikeForLikeLine) {
    RunStore store;
    ComparePanel panel(store);
    panel.loadPublished();
    SpeedChart chart;
    store.addRecord(articleRun("script", "article-script", 10.0), QStringLiteral("s.json"));
    store.addRecord(articleRun("faithful", "faithful", 7.9), QStringLiteral("f.json"));
    chart.sync(store);
    ASSERT_EQ(chart.publishedBarCount(), 4);
    EXPECT_TRUE(chart.hoverText(2).contains(QStringLiteral("0.79 x the article's script")))
        << chart.hoverText(2).toStdString();
}

TEST(ProgramRatioLine, NoScriptRunMeansNoLine) {
    RunStore store;
    ComparePanel panel(store);
    SpeedChart chart;
    store.addRecord(articleRun("faithful", "faithful", 7.9), QStringLiteral("f.json"));
    store.addRecord(articleRun("tuned", "tuned", 5.0), QStringLiteral("t.json"));
    panel.syncRuns();
    chart.sync(store);
    EXPECT_TRUE(programRatioLines(store).isEmpty());
    EXPECT_TRUE(panel.programRatiosLabel()->isHidden());
    EXPECT_TRUE(panel.programRatiosLabel()->text().isEmpty());
}

TEST(ReproduceArticle, TheButtonIsDisabledWhileARunIsGoing) {
    RunSettingsPanel panel;
    panel.setRunState(false, QString());
    EXPECT_TRUE(panel.reproduceButton()->isEnabled());
    panel.setRunState(true, QString());
    EXPECT_FALSE(panel.reproduceButton()->isEnabled());
}
