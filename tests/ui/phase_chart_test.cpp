// SPDX-License-Identifier: MIT
// Where the time goes in the dashboard: the phase chart's bars and segments, the
// charts panel showing it only while a run is phase-timed, the comparison picture drawing it,
// and the "Time each phase" setting.
#include "test_support.h"

#include "charts/phase_chart.h"
#include "export/comparison_export.h"
#include "panels/charts_panel.h"
#include "store/run_store.h"
#include "theme/theme.h"
#include "window/main_window.h"

#include "devicebench/phase_summary.h"

#include <QChartView>
#include <QCheckBox>
#include <QImage>
#include <QSettings>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include <cstddef>
#include <set>
#include <string>
#include <vector>

namespace devicebench {
namespace {

RunStarted cpuStart() {
    RunStarted info;
    info.device = "cpu";
    info.deviceName = "CPU";
    info.threads = 1;
    info.stepsPerEpoch = 4;
    info.synthetic = true;
    return info;
}

// Run `id` in `store`: 3 epochs (the first warm-up); phase-timed ones with each epoch's phases
// `scale` times (0.1, 0.3, 0.05, 0.4, 0.1, 0.05) s, but the warm-up epoch's data phase 9 s.
void addRun(RunStore &store, int id, bool phases, double scale) {
    RunConfig config = test::syntheticConfig(3, 1);
    config.phases = phases;
    test::addLiveRun(store, id, config, cpuStart());
    for (int e = 1; e <= 3; ++e) {
        EpochResult epoch;
        epoch.epoch = e;
        epoch.warmup = e == 1;
        epoch.testLoss = 1.0;
        if (phases) {
            epoch.phases = {true,        0.1 * scale, 0.3 * scale, 0.05 * scale,
                            0.4 * scale, 0.1 * scale, 0.05 * scale};
            if (e == 1)
                epoch.phases.data = 9.0;
        }
        epoch.seconds = phases ? epoch.phases.total() : scale;
        store.liveRun(id)->onEpochFinished(epoch);
    }
}

} // namespace

TEST(PhaseChart, HasOneBarPerPhaseTimedRunWithItsStableMeanPerPhase) {
    RunStore store;
    addRun(store, 1, true, 1.0);
    addRun(store, 2, false, 2.0); // a normal run: no bar
    addRun(store, 3, true, 2.0);
    PhaseChart chart;
    chart.setGeometry(0, 0, 900, 300);
    chart.sync(store);
    ASSERT_EQ(chart.barCount(), 2);
    EXPECT_TRUE(chart.runLabels()[0].startsWith(QStringLiteral("#1 ")))
        << chart.runLabels()[0].toStdString();
    EXPECT_TRUE(chart.runLabels()[1].startsWith(QStringLiteral("#3 ")))
        << chart.runLabels()[1].toStdString();
    const std::vector<double> expected = {0.1, 0.3, 0.05, 0.4, 0.1, 0.05};
    for (int bar = 0; bar < 2; ++bar) {
        const std::vector<double> values = chart.segmentValues(bar);
        ASSERT_EQ(values.size(), expected.size());
        for (std::size_t p = 0; p < expected.size(); ++p)
            EXPECT_DOUBLE_EQ(values[p], expected[p] * (bar == 0 ? 1.0 : 2.0))
                << "bar " << bar << " phase " << p << ": the warm-up epoch is left out";
    }
    EXPECT_EQ(chart.phaseNames(),
              QStringList({QStringLiteral("data"), QStringLiteral("forward"),
                           QStringLiteral("loss"), QStringLiteral("backward"),
                           QStringLiteral("optimizer"), QStringLiteral("test")}));
    const QString hover = chart.hoverText(1);
    EXPECT_TRUE(hover.contains(QStringLiteral("mean of 2 stable epochs: 2.000 s per epoch")))
        << hover.toStdString();
    EXPECT_TRUE(hover.contains(QStringLiteral("backward 0.800 s (40.0%)"))) << hover.toStdString();
    chart.showHover(1);
    EXPECT_EQ(chart.shownHover(), hover);
}

TEST(PhaseChart, AHiddenRunHasNoBarAndARunWithoutStableEpochsAnEmptyOne) {
    RunStore store;
    addRun(store, 1, true, 1.0);
    RunConfig config = test::syntheticConfig(3, 1);
    config.phases = true;
    test::addLiveRun(store, 2, config, cpuStart()); // no epoch yet
    PhaseChart chart;
    chart.sync(store);
    ASSERT_EQ(chart.barCount(), 2);
    EXPECT_EQ(chart.segmentValues(1), std::vector<double>(kPhaseCount, 0.0));
    EXPECT_TRUE(chart.hoverText(1).contains(QStringLiteral("no phase-timed stable epoch yet")));
    store.setRunHidden(1, true);
    chart.sync(store);
    EXPECT_EQ(chart.barCount(), 1);
}

TEST(PhaseChart, TheChartsPanelShowsItOnlyWhileARunIsPhaseTimed) {
    RunStore store;
    ChartsPanel panel(store);
    panel.resize(1200, 900);
    panel.show();
    addRun(store, 1, false, 1.0);
    panel.sync(false);
    auto *view = panel.findChild<QChartView *>(QStringLiteral("phaseChartView"));
    ASSERT_NE(view, nullptr);
    EXPECT_FALSE(view->isVisible());
    addRun(store, 2, true, 1.0);
    panel.sync(false);
    EXPECT_TRUE(view->isVisible());
    EXPECT_EQ(panel.phaseChart()->barCount(), 1);
}

TEST(PhaseChart, TheComparisonPictureDrawsThePhaseBarsWhenARunIsPhaseTimed) {
    // The loss phase's colour is no run's: found in the picture only where a phase bar is.
    const QColor lossColour = theme::phaseColour(2);
    const auto holdsColour = [&lossColour](const QImage &image) {
        for (int y = 0; y < image.height() / 2; ++y)
            for (int x = image.width() / 2; x < image.width(); ++x)
                if (image.pixelColor(x, y).rgb() == lossColour.rgb())
                    return true;
        return false;
    };
    RunStore normal;
    addRun(normal, 1, false, 1.0);
    EXPECT_FALSE(holdsColour(renderComparison(normal)));
    RunStore timed;
    addRun(timed, 1, true, 1.0);
    addRun(timed, 2, true, 2.0);
    EXPECT_TRUE(holdsColour(renderComparison(timed)));
}

TEST(PhaseChart, TheTimeEachPhaseSettingFeedsTheRunConfigAndIsRemembered) {
    QTemporaryDir dir;
    QSettings settings(dir.filePath(QStringLiteral("s.conf")), QSettings::IniFormat);
    {
        MainWindow window(nullptr, test::scratchRunsFolder());
        auto *check = window.findChild<QCheckBox *>(QStringLiteral("phasesCheck"));
        ASSERT_NE(check, nullptr);
        EXPECT_FALSE(window.runConfig("cpu").phases) << "off by default";
        check->setChecked(true);
        EXPECT_TRUE(window.runConfig("cpu").phases);
        window.saveSettings(settings);
    }
    MainWindow window(nullptr, test::scratchRunsFolder());
    window.restoreSettings(settings);
    EXPECT_TRUE(window.runConfig("cpu").phases);
    RunConfig config = window.runConfig("cpu");
    config.phases = false;
    window.setRunConfig(config);
    EXPECT_FALSE(window.findChild<QCheckBox *>(QStringLiteral("phasesCheck"))->isChecked());
}

TEST(PhaseChart, ThePaletteGivesEachPhaseItsOwnColourAndRefusesAWrongCount) {
    std::set<QRgb> colours;
    for (int p = 0; p < theme::kPhaseColourCount; ++p)
        colours.insert(theme::phaseColour(p).rgb());
    EXPECT_EQ(colours.size(), 6U);
    const QString source = QStringLiteral("test/palette.json");
    const QByteArray json = R"({"runs": ["#0072b2"], "phases": ["#000001", "#000002"],
        "light": {"background": "#ffffff", "text": "#000000", "axisLine": "#808080", "grid": "#e0e0e0"},
        "dark": {"background": "#000000", "text": "#ffffff", "axisLine": "#808080", "grid": "#303030"}})";
    try {
        theme::parseChartPalette(json, source);
        ADD_FAILURE() << "two phase colours were accepted";
    } catch (const theme::ThemeError &e) {
        EXPECT_NE(std::string(e.what()).find("phases: "), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("is not an array of 6 colours"), std::string::npos)
            << e.what();
    }
    QByteArray none = json;
    none.replace(R"("phases": ["#000001", "#000002"],)", "");
    EXPECT_TRUE(theme::parseChartPalette(none, source).phases.empty()) << "optional";
}

} // namespace devicebench
