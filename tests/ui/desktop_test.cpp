// SPDX-License-Identifier: MIT
// Desktop conventions: settings and geometry through QSettings, keyboard shortcuts, the log
// file, the standard locations, the dark palette and chart theme.
#include "charts/charts.h"
#include "run_controller.h"
#include "test_support.h"
#include "theme/appearance.h"
#include "window/desktop.h"
#include "window/main_window.h"
#include "wiring_support.h"

#include "devicebench/data_location.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QApplication>
#include <QChart>
#include <QFile>
#include <QKeySequence>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScreen>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QSplitter>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <spdlog/spdlog.h>

#include <algorithm>
#include <set>
#include <utility>
#include <vector>

namespace devicebench {
namespace {

using test::waitUntil;

// A settings file of its own in a scratch folder: never the user's configuration.
struct ScratchSettings {
    QTemporaryDir dir;
    QString path() const { return dir.filePath(QStringLiteral("devicebench.conf")); }
};

RunConfig unusualConfig() {
    RunConfig config;
    config.dataDir = "/somewhere/cifar-10-batches-bin";
    config.synthetic = true;
    config.epochs = 7;
    config.batchSize = 32;
    config.learningRate = 0.025;
    config.warmupEpochs = 3;
    config.threads = 1;
    config.seed = 42;
    config.trainImages = 1234;
    config.testImages = 321;
    config.workload = Workload::Tuned;
    config.model = "vit-tiny";
    config.imageSize = 64;
    return config;
}

TEST(DesktopSettings, EveryRunSettingRoundTripsThroughQSettings) {
    ScratchSettings scratch;
    RunController controller(test::FakeTrainer{});
    const RunConfig saved = unusualConfig();
    {
        MainWindow window(nullptr, test::scratchRunsFolder());
        test::wire(window, controller);
        window.setRunConfig(saved);
        window.findChild<QSpinBox *>(QStringLiteral("compareWarmupSpin"))->setValue(4);
        window.findChild<QLineEdit *>(QStringLiteral("tensorBoardEdit"))
            ->setText(QStringLiteral("/tmp/tb"));
        QSettings settings(scratch.path(), QSettings::IniFormat);
        window.saveSettings(settings);
    }
    MainWindow window(nullptr, test::scratchRunsFolder());
    test::wire(window, controller);
    ASSERT_NE(window.runConfig("cpu").epochs, saved.epochs); // a fresh window has the defaults
    const QSettings settings(scratch.path(), QSettings::IniFormat);
    window.restoreSettings(settings);
    const RunConfig restored = window.runConfig("cpu");
    EXPECT_EQ(restored.dataDir, saved.dataDir);
    EXPECT_EQ(restored.synthetic, saved.synthetic);
    EXPECT_EQ(restored.epochs, saved.epochs);
    EXPECT_EQ(restored.batchSize, saved.batchSize);
    EXPECT_DOUBLE_EQ(restored.learningRate, saved.learningRate);
    EXPECT_EQ(restored.warmupEpochs, saved.warmupEpochs);
    EXPECT_EQ(restored.threads, saved.threads);
    EXPECT_EQ(restored.seed, saved.seed);
    EXPECT_EQ(restored.trainImages, saved.trainImages);
    EXPECT_EQ(restored.testImages, saved.testImages);
    EXPECT_EQ(restored.workload, saved.workload);
    EXPECT_EQ(restored.model, saved.model);
    EXPECT_EQ(restored.imageSize, saved.imageSize);
    EXPECT_EQ(window.findChild<QSpinBox *>(QStringLiteral("compareWarmupSpin"))->value(), 4);
    EXPECT_EQ(window.findChild<QLineEdit *>(QStringLiteral("tensorBoardEdit"))->text(),
              QStringLiteral("/tmp/tb"));
}

TEST(DesktopSettings, WindowGeometryAndSplitterPositionsAreRestored) {
    ScratchSettings scratch;
    RunController controller(test::FakeTrainer{});
    QList<int> savedSizes;
    {
        MainWindow window(nullptr, test::scratchRunsFolder());
        test::wire(window, controller);
        window.show();
        window.resize(1100, 780);
        ASSERT_TRUE(waitUntil([&] { return window.size() == QSize(1100, 780); }));
        auto *splitter = window.findChildren<QSplitter *>().front();
        splitter->setSizes({300, 700});
        savedSizes = splitter->sizes();
        QSettings settings(scratch.path(), QSettings::IniFormat);
        window.saveSettings(settings);
    }
    MainWindow window(nullptr, test::scratchRunsFolder());
    test::wire(window, controller);
    const QSettings settings(scratch.path(), QSettings::IniFormat);
    window.restoreSettings(settings);
    window.show();
    EXPECT_TRUE(waitUntil([&] { return window.size() == QSize(1100, 780); }))
        << window.size().width() << "x" << window.size().height();
    EXPECT_EQ(window.findChildren<QSplitter *>().front()->sizes(), savedSizes);
}

TEST(DesktopSettings, MissingOrBadValuesKeepTheDefaultsAndTheWindowFitsTheScreen) {
    ScratchSettings scratch;
    {
        QSettings settings(scratch.path(), QSettings::IniFormat);
        settings.setValue(QStringLiteral("run/epochs"), QStringLiteral("ten"));
        settings.setValue(QStringLiteral("run/batchSize"), -64);
        settings.setValue(QStringLiteral("run/learningRate"), QStringLiteral("nan"));
        settings.setValue(QStringLiteral("run/workload"), QStringLiteral("turbo"));
        settings.setValue(QStringLiteral("run/model"), QStringLiteral("resnet50"));
        settings.setValue(QStringLiteral("run/imageSize"), 48);
        settings.setValue(QStringLiteral("window/geometry"), QByteArray("not a geometry"));
    }
    RunController controller(test::FakeTrainer{});
    MainWindow window(nullptr, test::scratchRunsFolder());
    test::wire(window, controller);
    const RunConfig before = window.runConfig("cpu");
    const QSettings settings(scratch.path(), QSettings::IniFormat);
    window.restoreSettings(settings);
    const RunConfig after = window.runConfig("cpu");
    EXPECT_EQ(after.epochs, before.epochs);
    EXPECT_EQ(after.batchSize, before.batchSize);
    EXPECT_DOUBLE_EQ(after.learningRate, before.learningRate);
    EXPECT_EQ(after.workload, before.workload);
    EXPECT_EQ(after.model, before.model);
    EXPECT_EQ(after.imageSize, before.imageSize);
    EXPECT_EQ(after.threads, before.threads); // absent: unchanged
    // Shrunk to the screen, but never below the window's smallest size (where a screen is
    // smaller, as the offscreen platform's 800 x 800 is, the window keeps that size).
    const QSize available = QGuiApplication::primaryScreen()->availableGeometry().size();
    const QSize smallest(MainWindow::kMinimumWidth, MainWindow::kMinimumHeight);
    EXPECT_EQ(window.minimumSize(), smallest);
    EXPECT_LE(window.width(), std::max(available.width(), smallest.width()));
    EXPECT_LE(window.height(), std::max(available.height(), smallest.height()));
    EXPECT_EQ(window.size(), QSize(1560, 960).boundedTo(available).expandedTo(smallest));
}

QAction *action(const MainWindow &window, const char *name) {
    return window.findChild<QAction *>(QString::fromUtf8(name));
}

TEST(DesktopShortcuts, RunStopAndExportHaveTheDocumentedShortcuts) {
    RunController controller(test::FakeTrainer{});
    MainWindow window(nullptr, test::scratchRunsFolder());
    test::wire(window, controller);
    const std::vector<std::pair<const char *, QKeySequence>> expected = {
        {"runCpuAction", QKeySequence(QStringLiteral("Ctrl+R"))},
        {"runGpuAction", QKeySequence(QStringLiteral("Ctrl+G"))},
        {"stopAction", QKeySequence(QStringLiteral("Ctrl+."))},
        {"runSetAction", QKeySequence(QStringLiteral("Ctrl+Shift+R"))},
        {"exportPngAction", QKeySequence(QStringLiteral("Ctrl+E"))},
        {"exportCsvAction", QKeySequence(QStringLiteral("Ctrl+Shift+E"))},
        {"importAction", QKeySequence(QStringLiteral("Ctrl+O"))},
        {"quitAction", QKeySequence(QStringLiteral("Ctrl+Q"))},
    };
    for (const auto &[name, keys] : expected) {
        const QAction *a = action(window, name);
        ASSERT_NE(a, nullptr) << name;
        EXPECT_EQ(a->shortcut(), keys) << name << ": " << a->shortcut().toString().toStdString();
    }
}

TEST(DesktopShortcuts, NoTwoActionsShareAKeyAndNoneTakesAnEditingKey) {
    RunController controller(test::FakeTrainer{});
    MainWindow window(nullptr, test::scratchRunsFolder());
    test::wire(window, controller);
    // Keys the settings' line edit and spin boxes use themselves.
    std::set<QString> editing;
    for (const auto key :
         {QKeySequence::Copy, QKeySequence::Cut, QKeySequence::Paste, QKeySequence::Undo,
          QKeySequence::Redo, QKeySequence::SelectAll, QKeySequence::Delete,
          QKeySequence::MoveToStartOfLine, QKeySequence::MoveToEndOfLine,
          QKeySequence::DeleteStartOfWord, QKeySequence::DeleteEndOfWord}) {
        for (const QKeySequence &k : QKeySequence::keyBindings(key))
            editing.insert(k.toString());
    }
    std::set<QString> seen;
    int withKeys = 0;
    for (const QAction *a : window.findChildren<QAction *>()) {
        for (const QKeySequence &k : a->shortcuts()) {
            ++withKeys;
            EXPECT_TRUE(seen.insert(k.toString()).second)
                << k.toString().toStdString() << " is used twice";
            EXPECT_EQ(editing.count(k.toString()), 0U)
                << k.toString().toStdString() << " (" << a->objectName().toStdString()
                << ") is an editing key";
        }
    }
    EXPECT_GE(withKeys, 7);
}

TEST(DesktopShortcuts, ButtonTooltipsShowTheirShortcuts) {
    RunController controller(test::FakeTrainer{});
    MainWindow window(nullptr, test::scratchRunsFolder());
    test::wire(window, controller);
    const std::vector<std::pair<const char *, const char *>> pairs = {
        {"runCpuButton", "runCpuAction"},       {"stopButton", "stopAction"},
        {"runSetButton", "runSetAction"},       {"exportPngButton", "exportPngAction"},
        {"exportCsvButton", "exportCsvAction"},
    };
    for (const auto &[button, name] : pairs) {
        const QString keys = action(window, name)->shortcut().toString(QKeySequence::NativeText);
        EXPECT_TRUE(
            window.findChild<QPushButton *>(QString::fromUtf8(button))->toolTip().contains(keys))
            << button;
    }
}

TEST(DesktopShortcuts, CtrlRStartsARunAndCtrlPeriodStopsIt) {
    test::FakeTrainer fake;
    fake.untilStopped = true;
    RunController controller(fake);
    MainWindow window(nullptr, test::scratchRunsFolder());
    test::wire(window, controller);
    RunConfig config = test::syntheticConfig(3, 1);
    window.setRunConfig(config);
    window.show();
    window.activateWindow();
    ASSERT_TRUE(QTest::qWaitForWindowActive(&window));
    EXPECT_FALSE(action(window, "stopAction")->isEnabled()); // nothing to stop yet
    QSignalSpy ended(&controller, &RunController::runEnded);

    QTest::keySequence(&window, QKeySequence(QStringLiteral("Ctrl+R")));
    ASSERT_TRUE(waitUntil([&] { return controller.isRunning(); }));
    EXPECT_FALSE(action(window, "runCpuAction")->isEnabled()); // one run at a time
    EXPECT_TRUE(action(window, "stopAction")->isEnabled());
    QTest::keySequence(&window, QKeySequence(QStringLiteral("Ctrl+.")));
    ASSERT_TRUE(waitUntil([&] { return ended.count() == 1; }));
    EXPECT_EQ(ended.at(0).at(1).value<RecordedRun>().outcome.status, RunStatus::Cancelled);
}

TEST(DesktopLogging, WritesToARotatingFileInTheGivenFolder) {
    const auto previous = spdlog::default_logger();
    QTemporaryDir dir;
    const QString folder = dir.filePath(QStringLiteral("state/logs")); // made when missing
    QString error;
    ASSERT_TRUE(setUpLogging(QStringLiteral("info"), folder, &error)) << error.toStdString();
    spdlog::info("a line the test looks for");
    spdlog::debug("below the level: not written");
    spdlog::set_default_logger(previous);
    QFile file(folder + QLatin1Char('/') + QString::fromUtf8(kLogFileName));
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    const QByteArray text = file.readAll();
    EXPECT_TRUE(text.contains("a line the test looks for")) << text.toStdString();
    EXPECT_FALSE(text.contains("below the level")) << text.toStdString();
}

TEST(DesktopLogging, AFolderThatCannotBeMadeLeavesStderrAndSaysWhy) {
    const auto previous = spdlog::default_logger();
    QTemporaryDir dir;
    QFile blocker(dir.filePath(QStringLiteral("file")));
    ASSERT_TRUE(blocker.open(QIODevice::WriteOnly));
    blocker.close();
    QString error;
    EXPECT_FALSE(
        setUpLogging(QStringLiteral("warn"), blocker.fileName() + QStringLiteral("/logs"), &error));
    EXPECT_TRUE(error.contains(QStringLiteral("/file/logs"))) << error.toStdString();
    EXPECT_NE(spdlog::default_logger(), nullptr);
    spdlog::set_default_logger(previous);
}

TEST(DesktopLogging, OnlyTheCliLevelNamesAreAccepted) {
    for (const char *name : {"trace", "debug", "info", "warn", "error", "off"})
        EXPECT_TRUE(isLogLevelName(QString::fromUtf8(name))) << name;
    for (const char *name : {"", "warning", "INFO", "verbose", "critical"})
        EXPECT_FALSE(isLogLevelName(QString::fromUtf8(name))) << name;
}

TEST(DesktopLocations, RunsLogsAndDataAreInTheStandardLocations) {
    // Outside test mode, as the dashboard sees them (only the paths are read, nothing is made).
    QStandardPaths::setTestModeEnabled(false);
    const QString appData = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    const QString cache = QStandardPaths::writableLocation(QStandardPaths::CacheLocation);
    const QString genericCache =
        QStandardPaths::writableLocation(QStandardPaths::GenericCacheLocation);
    const QString runs = MainWindow::defaultRunsFolder();
    const QString logs = defaultLogFolder();
    QStandardPaths::setTestModeEnabled(true);
    EXPECT_EQ(runs, appData + QStringLiteral("/runs"));
#if QT_VERSION < QT_VERSION_CHECK(6, 7, 0)
    EXPECT_EQ(logs, cache + QStringLiteral("/logs"));
#else
    EXPECT_TRUE(logs.endsWith(QStringLiteral("/logs")));
#endif
    if (!qEnvironmentVariableIsEmpty("DEVICEBENCH_DATA") || standardDataDir().empty())
        GTEST_SKIP() << "DEVICEBENCH_DATA is set or HOME is unset: no standard data folder";
    EXPECT_EQ(QString::fromStdString(standardDataDir()),
              genericCache + QStringLiteral("/devicebench/cifar-10-batches-bin"));
}

TEST(DesktopAppearance, ADarkPaletteGivesDarkChartsAndReadableErrorText) {
    const QPalette light = QApplication::palette();
    ASSERT_FALSE(isDarkPalette(light)); // the offscreen platform's default
    EXPECT_TRUE(isDarkPalette(darkPalette()));
    EXPECT_NE(errorColour(darkPalette()), errorColour(light));

    RunController controller(test::FakeTrainer{});
    {
        MainWindow window(nullptr, test::scratchRunsFolder());
        test::wire(window, controller);
        EXPECT_EQ(window.lossChart()->theme(), QChart::ChartThemeLight);
    }
    QApplication::setPalette(darkPalette());
    {
        MainWindow window(nullptr, test::scratchRunsFolder());
        test::wire(window, controller);
        EXPECT_EQ(window.lossChart()->theme(), QChart::ChartThemeDark);
        EXPECT_EQ(window.speedChart()->theme(), QChart::ChartThemeDark);
        // The chart keeps its own bold title over the theme's.
        EXPECT_TRUE(window.lossChart()->titleFont().bold());
        // Text on the chart is light on the dark background.
        EXPECT_GT(window.lossChart()->titleBrush().color().lightness(), 128);
        auto *validation = window.findChild<QLabel *>(QStringLiteral("validationLabel"));
        EXPECT_TRUE(validation->styleSheet().contains(errorColour(darkPalette())));
    }
    QApplication::setPalette(light);
}

} // namespace
} // namespace devicebench
