// SPDX-License-Identifier: MIT
// The look read from resources/ (ui/theme.h): the resource formats and their errors, the
// window icon, the light and dark themes, and one colour per run in the loss chart, its
// legend, the test-loss dots, the bar chart (live and in the exported PNG) and the epoch table.
#include "charts/charts.h"
#include "export/comparison_export.h"
#include "panels/epoch_table.h"
#include "run_controller.h"
#include "store/run_store.h"
#include "theme/theme.h"
#include "window/main_window.h"

#include "test_support.h"
#include "wiring_support.h"

#include <gtest/gtest.h>

#include <QApplication>
#include <QFile>
#include <QImage>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QPixmap>
#include <QStyle>

#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace devicebench {
namespace {

// A finished record of `epochs.size()` epochs (first one warm-up) with a few step losses.
RunRecord recordOf(const std::string &id, int threads, const std::vector<double> &seconds,
                   int batchSize = 64) {
    RunRecord r;
    r.runId = id;
    r.config.epochs = static_cast<int>(seconds.size());
    r.config.warmupEpochs = 1;
    r.config.batchSize = batchSize;
    r.config.threads = threads;
    r.config.synthetic = true;
    r.started.device = "cpu";
    r.started.deviceName = "CPU";
    r.started.threads = threads;
    r.started.trainImages = 640;
    r.started.testImages = 100;
    r.started.stepsPerEpoch = 10;
    r.started.synthetic = true;
    r.fingerprint.hostName = "host";
    r.data.variant = "synthetic";
    r.data.trainImages = 640;
    r.data.testImages = 100;
    for (std::size_t i = 0; i < seconds.size(); ++i) {
        EpochResult e;
        e.epoch = static_cast<int>(i) + 1;
        e.seconds = seconds[i];
        e.warmup = i == 0;
        e.trainLoss = 2.0;
        // Apart for each run, so that no run's test-loss dots hide another's.
        e.testLoss = 2.0 - 0.2 * static_cast<double>(i) - 0.1 * static_cast<double>(id[0] - 'a');
        e.testAccuracy = 0.25;
        e.imagesPerSecond = 740.0 / seconds[i];
        r.epochs.push_back(e);
        for (int s = 1; s <= 10; ++s) {
            const auto step = static_cast<std::int64_t>(i) * 10 + s;
            r.steps.push_back(TimedStepLoss{e.epoch, step, 2.2 - 0.01 * static_cast<double>(step),
                                            0.1 * static_cast<double>(step)});
        }
    }
    r.status = "finished";
    return r;
}

// Three runs: #1 slowest (baseline), #2 faster, #3 with another batch size (not comparable).
void fillThreeRuns(RunStore &store) {
    store.addRecord(recordOf("a", 1, {9.0, 8.0, 8.2, 7.9}), QStringLiteral("a"));
    store.addRecord(recordOf("b", 2, {5.0, 4.0, 4.1, 3.9}), QStringLiteral("b"));
    store.addRecord(recordOf("c", 2, {6.0, 5.0, 5.1, 4.9}, 32), QStringLiteral("c"));
}

TEST(Theme, RunColoursAreDistinctAndFollowTheRunNumberCyclically) {
    const int count = theme::runColourCount();
    ASSERT_GE(count, 4) << "the palette should tell several runs apart";
    std::set<QRgb> distinct;
    for (int n = 1; n <= count; ++n) {
        const QColor colour = theme::runColour(n);
        EXPECT_TRUE(colour.isValid());
        EXPECT_EQ(colour.alpha(), 255);
        distinct.insert(colour.rgb());
        EXPECT_EQ(theme::runColour(n + count), colour) << "run " << n + count << " wraps";
    }
    EXPECT_EQ(distinct.size(), static_cast<std::size_t>(count));
    EXPECT_EQ(theme::runColour(0), theme::runColour(count)) << "numbers below 1 wrap too";
}

TEST(Theme, AMalformedChartPaletteIsAnErrorNamingTheResourceKeyAndValue) {
    const QString source = QStringLiteral("test/palette.json");
    const QByteArray good = R"({"runs": ["#0072b2", "#d55e00"],
        "light": {"background": "#ffffff", "text": "#000000", "axisLine": "#808080", "grid": "#e0e0e0"},
        "dark": {"background": "#000000", "text": "#ffffff", "axisLine": "#808080", "grid": "#303030"}})";
    const theme::ChartPalette palette = theme::parseChartPalette(good, source);
    ASSERT_EQ(palette.runs.size(), 2U);
    EXPECT_EQ(palette.runs[1].name(), QStringLiteral("#d55e00"));
    EXPECT_EQ(palette.dark.text.name(), QStringLiteral("#ffffff"));

    const auto errorOf = [&](const QByteArray &json) -> std::string {
        try {
            theme::parseChartPalette(json, source);
        } catch (const theme::ThemeError &e) {
            return e.what();
        }
        return "no error";
    };
    QByteArray badColour = good;
    badColour.replace("\"#d55e00\"", "\"#d55e0\"");
    const std::string message = errorOf(badColour);
    EXPECT_NE(message.find("test/palette.json"), std::string::npos) << message;
    EXPECT_NE(message.find("runs[1]"), std::string::npos) << message;
    EXPECT_NE(message.find("\"#d55e0\""), std::string::npos) << message;

    QByteArray named = good;
    named.replace("\"#000000\", \"axisLine\"", "\"black\", \"axisLine\"");
    EXPECT_NE(errorOf(named).find("light.text: \"black\" is not #rrggbb"), std::string::npos)
        << errorOf(named);
    QByteArray noDark = good;
    noDark.replace("\"dark\"", "\"dusk\"");
    EXPECT_NE(errorOf(noDark).find("dark: missing"), std::string::npos) << errorOf(noDark);
    EXPECT_NE(errorOf(R"({"runs": [], "light": {}, "dark": {}})").find("runs"), std::string::npos);
    EXPECT_NE(errorOf("{\"runs\": [").find("not valid JSON"), std::string::npos);
}

TEST(Theme, AStyleWithAnUnknownPaletteRoleIsAnError) {
    const QByteArray good = R"({"palette": {"Window": "#101010", "WindowText": "#f0f0f0"},
        "disabled": {"Text": "#808080"}, "text": {"error": "#ff0000", "ok": "#00ff00", "muted": "#888888"}})";
    const theme::Style style = theme::parseStyle(good, QStringLiteral("s.json"));
    ASSERT_EQ(style.palette.size(), 2U);
    ASSERT_EQ(style.disabled.size(), 1U);
    EXPECT_EQ(style.disabled[0].first, QPalette::Text);
    QByteArray bad = good;
    bad.replace("\"WindowText\"", "\"WindowTxt\"");
    try {
        theme::parseStyle(bad, QStringLiteral("s.json"));
        ADD_FAILURE() << "an unknown role was accepted";
    } catch (const theme::ThemeError &e) {
        EXPECT_NE(
            std::string(e.what()).find("s.json: palette.WindowTxt: not a QPalette::ColorRole"),
            std::string::npos)
            << e.what();
    }
}

TEST(Theme, TheResourcesLoadAndGiveALightAndADarkPalette) {
    ASSERT_NO_THROW(theme::loadAll());
    for (const char *path : {theme::kIconResource, theme::kChartPaletteResource,
                             theme::kLightStyleResource, theme::kDarkStyleResource})
        EXPECT_TRUE(QFile::exists(QString::fromUtf8(path))) << path;
    const QPalette dark = theme::palette(theme::Theme::Dark);
    const QPalette light = theme::palette(theme::Theme::Light);
    EXPECT_EQ(theme::themeOf(dark), theme::Theme::Dark);
    EXPECT_EQ(theme::themeOf(light), theme::Theme::Light);
    // The light style sets nothing over the style's own palette (the behaviour before).
    EXPECT_EQ(light.color(QPalette::Window),
              QApplication::style()->standardPalette().color(QPalette::Window));
    EXPECT_NE(dark.color(QPalette::Disabled, QPalette::Text), dark.color(QPalette::Text));
    EXPECT_NE(theme::colour(theme::Role::ErrorText, theme::Theme::Dark),
              theme::colour(theme::Role::ErrorText, theme::Theme::Light));
    EXPECT_LT(theme::colour(theme::Role::ChartBackground, theme::Theme::Dark).lightness(),
              theme::colour(theme::Role::ChartText, theme::Theme::Dark).lightness());
}

TEST(Theme, TheWindowShowsTheApplicationIconFromTheResource) {
    const QIcon icon = theme::applicationIcon();
    ASSERT_FALSE(icon.isNull());
    EXPECT_EQ(theme::applicationIcon().cacheKey(), icon.cacheKey()) << "rendered once";
    // The icon is resources/icons/org.devicebench.DeviceBench.svg: its middle bar is #0072b2
    // at x 54..74, y 52..100 of 128 user units.
    const QImage image = icon.pixmap(128, 128).toImage();
    ASSERT_EQ(image.width(), 128);
    EXPECT_EQ(QColor::fromRgba(image.pixel(64, 80)).name(), QStringLiteral("#0072b2"));

    RunController controller(test::FakeTrainer{});
    MainWindow window(nullptr, test::scratchRunsFolder());
    test::wire(window, controller);
    ASSERT_FALSE(window.windowIcon().isNull());
    EXPECT_EQ(window.windowIcon().cacheKey(), icon.cacheKey());
}

TEST(RunColours, EachRunHasOneColourInTheLossChartLegendBarsAndTable) {
    RunStore store;
    fillThreeRuns(store);
    ASSERT_FALSE(store.run(2).comparable());
    LossChart loss;
    SpeedChart bars;
    loss.sync(store);
    bars.sync(store);
    EpochTableModel table(store);
    table.refresh();
    ASSERT_EQ(epochTableColumn(0), EpochColumn::Run);
    const std::vector<EpochRowRef> rows = epochRows(store);
    ASSERT_EQ(table.rowCount(), static_cast<int>(rows.size()));

    for (int index = 0; index < store.runCount(); ++index) {
        const StoredRun &run = store.run(index);
        const QColor colour = theme::runColour(run.number);
        SCOPED_TRACE(run.label.toStdString());
        QLineSeries *train = loss.trainSeries(run.id);
        QLineSeries *test = loss.testSeries(run.id);
        ASSERT_NE(train, nullptr);
        ASSERT_NE(test, nullptr);
        EXPECT_EQ(train->color().rgb(), colour.rgb()) << "the training line (translucent)";
        EXPECT_EQ(test->color(), colour) << "the test-loss dots";
        const QList<QLegendMarker *> markers = loss.legend()->markers(train);
        ASSERT_EQ(markers.size(), 1);
        EXPECT_EQ(markers[0]->brush().color().rgb(), colour.rgb()) << "the legend";
        EXPECT_EQ(bars.barColour(index), colour) << "the bar";
        EXPECT_EQ(bars.barHatched(index), !run.comparable());
        for (int row = 0; row < table.rowCount(); ++row) {
            if (rows[static_cast<std::size_t>(row)].runIndex != index)
                continue;
            EXPECT_EQ(table.data(table.index(row, 0), Qt::DecorationRole).value<QColor>(), colour)
                << "the epoch table, row " << row;
        }
    }
    EXPECT_NE(bars.barColour(0), bars.barColour(1)) << "not every bar in one colour";

    // A run added later takes the next number's colour; the others keep theirs.
    store.addRecord(recordOf("d", 3, {4.0, 3.0, 3.1, 2.9}), QStringLiteral("d"));
    loss.sync(store);
    bars.sync(store);
    for (int index = 0; index < store.runCount(); ++index)
        EXPECT_EQ(bars.barColour(index), theme::runColour(store.run(index).number));
    EXPECT_EQ(bars.barColour(3), theme::runColour(4));
    EXPECT_EQ(loss.trainSeries(store.run(3).id)->color().rgb(), theme::runColour(4).rgb());
}

TEST(RunColours, AChartThemeSetLaterKeepsTheRunColours) {
    RunStore store;
    fillThreeRuns(store);
    LossChart loss;
    SpeedChart bars;
    loss.sync(store);
    bars.sync(store);
    // QChart::setTheme recolours every series; the next sync puts the run colours back.
    theme::applyToChart(&loss, theme::Theme::Dark);
    theme::applyToChart(&bars, theme::Theme::Dark);
    loss.sync(store);
    bars.sync(store);
    EXPECT_EQ(bars.backgroundBrush().color(),
              theme::colour(theme::Role::ChartBackground, theme::Theme::Dark));
    for (int index = 0; index < store.runCount(); ++index) {
        const QColor colour = theme::runColour(store.run(index).number);
        EXPECT_EQ(loss.testSeries(store.run(index).id)->color(), colour);
        EXPECT_EQ(loss.trainSeries(store.run(index).id)->color().rgb(), colour.rgb());
        EXPECT_EQ(bars.barColour(index), colour);
    }
}

TEST(RunColours, TheExportedPictureDrawsEachBarInItsRunsColourInOrder) {
    RunStore store;
    fillThreeRuns(store);
    const QImage image = renderComparison(store).convertToFormat(QImage::Format_RGB32);
    if (!qEnvironmentVariableIsEmpty("DEVICEBENCH_THEME_TEST_PNG")) // to look at it
        image.save(qEnvironmentVariable("DEVICEBENCH_THEME_TEST_PNG"));
    // The bar chart is the lower part of the picture (comparison_export.cpp: 57 % loss chart).
    const int barTop = image.height() * 57 / 100;
    double previousX = -1.0;
    for (int index = 0; index < store.runCount(); ++index) {
        const QRgb colour = theme::runColour(store.run(index).number).rgb();
        long long count = 0;
        double sumX = 0.0;
        for (int y = barTop; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x)
                if (image.pixel(x, y) == colour) {
                    ++count;
                    sumX += x;
                }
        SCOPED_TRACE(store.run(index).label.toStdString());
        // A solid bar covers thousands of pixels; the hatched one (run #3) still hundreds.
        EXPECT_GT(count, store.run(index).comparable() ? 5000 : 300);
        const double meanX = count > 0 ? sumX / static_cast<double>(count) : -1.0;
        EXPECT_GT(meanX, previousX) << "bars left to right in run order";
        previousX = meanX;
        // The run's test-loss dots, opaque in its colour, are in the loss chart above.
        long long dots = 0;
        for (int y = 0; y < barTop; ++y)
            for (int x = 0; x < image.width(); ++x)
                dots += image.pixel(x, y) == colour ? 1 : 0;
        EXPECT_GT(dots, 20);
    }
}

TEST(Theme, TheChartOpacitiesComeFromThePaletteAndAreCheckedToLieInZeroToOne) {
    const QString source = QStringLiteral("test/palette.json");
    const QByteArray json = R"({"runs": ["#0072b2"], "opacity": {"rawCurve": 0.3},
        "light": {"background": "#ffffff", "text": "#000000", "axisLine": "#808080", "grid": "#e0e0e0"},
        "dark": {"background": "#000000", "text": "#ffffff", "axisLine": "#808080", "grid": "#303030"}})";
    const theme::ChartPalette palette = theme::parseChartPalette(json, source);
    EXPECT_DOUBLE_EQ(palette.rawCurveOpacity, 0.3);
    EXPECT_DOUBLE_EQ(palette.curveOpacity, theme::ChartPalette{}.curveOpacity) << "default kept";
    QByteArray bad = json;
    bad.replace("0.3", "1.5");
    try {
        theme::parseChartPalette(bad, source);
        ADD_FAILURE() << "an opacity of 1.5 was accepted";
    } catch (const theme::ThemeError &e) {
        EXPECT_NE(std::string(e.what()).find("opacity.rawCurve: 1.5"), std::string::npos)
            << e.what();
    }
    // The resource's values: the raw steps fainter than the lines.
    EXPECT_LT(theme::opacity(theme::Opacity::RawCurve), theme::opacity(theme::Opacity::Curve));
    EXPECT_EQ(theme::runColour(3, theme::Opacity::Curve).rgb(), theme::runColour(3).rgb());
}
} // namespace
} // namespace devicebench
