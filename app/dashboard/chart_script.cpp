// SPDX-License-Identifier: MIT
#include "chart_script.h"

#include "charts/charts.h"
#include "panels/charts_panel.h"
#include "store/run_store.h"
#include "sweep_script.h"
#include "window/main_window.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QPixmap>
#include <QSize>
#include <QTabWidget>
#include <QThread>

#include <cmath>
#include <cstdint>
#include <cstdio>

namespace devicebench {

namespace {

const QString kSmoothing = QStringLiteral("smoothing");
const QString kXAxis = QStringLiteral("x-axis");
const QString kLogScale = QStringLiteral("log-scale");
const QString kBarMeasure = QStringLiteral("bar-measure");
const QString kRuns = QStringLiteral("runs");
const QString kZoom = QStringLiteral("zoom");
const QString kHideRun = QStringLiteral("hide-run");
const QString kHover = QStringLiteral("hover");
const QString kHoverBar = QStringLiteral("hover-bar");
const QString kScreenshot = QStringLiteral("screenshot");
const QString kView = QStringLiteral("view");
const QString kWindowSize = QStringLiteral("window-size");
constexpr int kMaxWindowSide = 16384; // pixels: larger is no screen's

// `text` as a finite number ("nan" and "inf" are not); false when it is not one.
bool finiteNumber(const QString &text, double *value) {
    bool ok = false;
    *value = text.toDouble(&ok);
    return ok && std::isfinite(*value);
}

// "A:B" -> two finite numbers.
bool parsePair(const QString &text, double *a, double *b) {
    const QStringList parts = text.split(QLatin1Char(':'));
    return parts.size() == 2 && finiteNumber(parts[0], a) && finiteNumber(parts[1], b);
}

// "WxH" (whole numbers from 1 to kMaxWindowSide) -> the size; an empty size when it is not one.
QSize windowSizeOf(const QString &text) {
    const QStringList parts = text.split(QLatin1Char('x'));
    bool okW = false;
    bool okH = false;
    const int w = parts.size() == 2 ? parts[0].toInt(&okW) : 0;
    const int h = parts.size() == 2 ? parts[1].toInt(&okH) : 0;
    const bool ok = okW && okH && w >= 1 && h >= 1 && w <= kMaxWindowSide && h <= kMaxWindowSide;
    return ok ? QSize(w, h) : QSize();
}

// `text` as a run number ("#<n>": 1 or more); 0 when it is not one.
int runNumberOf(const QString &text) {
    bool ok = false;
    const int number = text.toInt(&ok);
    return ok && number >= 1 ? number : 0;
}

// --hide-run N (each), --hover N:STEP (a whole STEP from 0) and --hover-bar N or pN: the numbers
// well formed; false after naming the first that is not.
bool checkRunNumbers(const QCommandLineParser &parser) {
    for (const QString &number : parser.values(kHideRun))
        if (runNumberOf(number) == 0) {
            std::fprintf(stderr, "devicebench: --hide-run: '%s' is not a run number (1 or more)\n",
                         qPrintable(number));
            return false;
        }
    const QStringList hover = parser.value(kHover).split(QLatin1Char(':'));
    bool step = false;
    if (parser.isSet(kHover) && (hover.size() != 2 || runNumberOf(hover[0]) == 0 ||
                                 hover[1].toLongLong(&step) < 0 || !step)) {
        std::fprintf(stderr,
                     "devicebench: --hover: '%s' is not N:STEP (a run number from 1, a "
                     "step from 0)\n",
                     qPrintable(parser.value(kHover)));
        return false;
    }
    const QString bar = parser.value(kHoverBar);
    if (parser.isSet(kHoverBar) &&
        runNumberOf(bar.startsWith(QLatin1Char('p')) ? bar.mid(1) : bar) == 0) {
        std::fprintf(stderr,
                     "devicebench: --hover-bar: '%s' is not a run number N or a "
                     "published row pN (N from 1)\n",
                     qPrintable(bar));
        return false;
    }
    return true;
}

// The id of the run numbered `number` ("#<number>"); 0 when there is none.
int runIdOf(const MainWindow &window, int number) {
    for (const StoredRun &run : window.store().runs())
        if (run.number == number)
            return run.id;
    return 0;
}

// --hover-bar N: run #N's bar; pN: the N-th published row's, after the shown runs' bars.
bool showBarHover(MainWindow &window, const QString &value) {
    const RunStore &store = window.store();
    if (value.startsWith(QLatin1Char('p'))) {
        const int row = value.mid(1).toInt();
        if (row < 1 || row > window.speedChart()->publishedBarCount()) {
            std::fprintf(stderr, "devicebench: no published row %s in view\n", qPrintable(value));
            return false;
        }
        int shown = 0;
        for (const StoredRun &run : store.runs())
            shown += store.isRunHidden(run.id) ? 0 : 1;
        window.speedChart()->showHover(shown + row - 1);
        return true;
    }
    const int id = runIdOf(window, value.toInt());
    if (id == 0) {
        std::fprintf(stderr, "devicebench: no run #%s in view\n", qPrintable(value));
        return false;
    }
    const int bar = window.speedChart()->barOfRun(id);
    if (bar < 0) {
        std::fprintf(stderr, "devicebench: run #%s has no bar (hidden, or without the measure)\n",
                     qPrintable(value));
        return false;
    }
    window.speedChart()->showHover(bar);
    return true;
}

void settle() {
    for (int i = 0; i < 5; ++i) {
        QApplication::processEvents();
        QThread::msleep(20);
    }
}

} // namespace

void addChartScriptOptions(QCommandLineParser &parser) {
    parser.addOptions({
        {kSmoothing, QStringLiteral("Smoothing of the training-loss curves, 0 to 0.99."),
         QStringLiteral("W")},
        {kXAxis, QStringLiteral("x axis of the loss chart: steps, epochs or time."),
         QStringLiteral("AXIS")},
        {kLogScale, QStringLiteral("Loss axis in log scale.")},
        {kBarMeasure,
         QStringLiteral("What the bars show per stable epoch: seconds, joules or money."),
         QStringLiteral("MEASURE")},
        {kRuns,
         QStringLiteral("Repeated runs of one configuration: groups (one bar and one mean "
                        "curve with a band each, the default) or one-by-one."),
         QStringLiteral("MODE")},
        {kZoom, QStringLiteral("Zoom the loss chart to x from A to B (the x axis's unit)."),
         QStringLiteral("A:B")},
        {kHideRun, QStringLiteral("Hide run #N in the charts; repeat for several."),
         QStringLiteral("N")},
        {kHover, QStringLiteral("Show the hover label of run #N at step STEP."),
         QStringLiteral("N:STEP")},
        {kHoverBar,
         QStringLiteral("Show the hover label of run #N's bar; pN: of the N-th published "
                        "row's bar."),
         QStringLiteral("N")},
        {kScreenshot,
         QStringLiteral("Once the runs are in view, save a picture of the window to FILE (PNG)."),
         QStringLiteral("FILE")},
        {kView,
         QStringLiteral("Show the tab VIEW from the start and once the runs are in view (before "
                        "--screenshot): "
                        "runs, system or accuracy (the Runs tab's System or Accuracy view), "
                        "sweep or scaling."),
         QStringLiteral("VIEW")},
        {kWindowSize,
         QStringLiteral("Before --screenshot, make the window W x H (logical pixels; no "
                        "smaller than its smallest size, %1x%2).")
             .arg(MainWindow::kMinimumWidth)
             .arg(MainWindow::kMinimumHeight),
         QStringLiteral("WxH")},
    });
    addSweepScriptOptions(parser); // --sweep-folder, --sweep-baseline, --sweep-export-png
}

bool checkChartScriptOptions(const QCommandLineParser &parser) {
    bool ok = true;
    const auto fail = [&ok](const QString &message) {
        std::fprintf(stderr, "devicebench: %s\n", qPrintable(message));
        ok = false;
    };
    if (parser.isSet(kSmoothing)) {
        double w = 0.0;
        if (!finiteNumber(parser.value(kSmoothing), &w) || w < 0.0 || w > kMaxSmoothing)
            fail(QStringLiteral("--smoothing: '%1' is not a number from 0 to 0.99")
                     .arg(parser.value(kSmoothing)));
    }
    XAxisMode mode = XAxisMode::Epochs;
    if (parser.isSet(kXAxis) && !parseXAxisMode(parser.value(kXAxis), &mode))
        fail(QStringLiteral("--x-axis: '%1' is not steps, epochs or time")
                 .arg(parser.value(kXAxis)));
    BarMeasure measure = BarMeasure::Seconds;
    if (parser.isSet(kBarMeasure) && !parseBarMeasure(parser.value(kBarMeasure), &measure))
        fail(QStringLiteral("--bar-measure: '%1' is not seconds, joules or money")
                 .arg(parser.value(kBarMeasure)));
    const QStringList runModes = {QStringLiteral("groups"), QStringLiteral("one-by-one")};
    if (parser.isSet(kRuns) && !runModes.contains(parser.value(kRuns)))
        fail(QStringLiteral("--runs: '%1' is not groups or one-by-one").arg(parser.value(kRuns)));
    double a = 0.0;
    double b = 0.0;
    if (parser.isSet(kZoom) && (!parsePair(parser.value(kZoom), &a, &b) || !(b > a)))
        fail(QStringLiteral("--zoom: '%1' is not A:B with A < B").arg(parser.value(kZoom)));
    if (!checkRunNumbers(parser))
        ok = false;
    const QStringList views = {QStringLiteral("runs"), QStringLiteral("system"),
                               QStringLiteral("accuracy"), QStringLiteral("sweep"),
                               QStringLiteral("scaling")};
    if (parser.isSet(kView) && !views.contains(parser.value(kView)))
        fail(QStringLiteral("--view: '%1' is not runs, system, accuracy, sweep or scaling")
                 .arg(parser.value(kView)));
    if (parser.isSet(kWindowSize) && windowSizeOf(parser.value(kWindowSize)).isEmpty())
        fail(QStringLiteral("--window-size: '%1' is not WxH (whole pixels, 1 to %2)")
                 .arg(parser.value(kWindowSize))
                 .arg(kMaxWindowSide));
    return ok;
}

std::vector<std::pair<QString, int>> namedRunNumbers(const QCommandLineParser &parser) {
    std::vector<std::pair<QString, int>> named;
    for (const QString &number : parser.values(kHideRun))
        named.emplace_back(QStringLiteral("--hide-run"), runNumberOf(number));
    if (parser.isSet(kHover))
        named.emplace_back(QStringLiteral("--hover"),
                           runNumberOf(parser.value(kHover).section(QLatin1Char(':'), 0, 0)));
    if (parser.isSet(kHoverBar) && !parser.value(kHoverBar).startsWith(QLatin1Char('p')))
        named.emplace_back(QStringLiteral("--hover-bar"), runNumberOf(parser.value(kHoverBar)));
    return named;
}

namespace {

// The --view tab brought up (nothing without --view).
void showView(const QCommandLineParser &parser, MainWindow &window) {
    const QString view = parser.value(kView);
    if (view == QLatin1String("scaling"))
        window.showScalingView();
    else if (view == QLatin1String("sweep"))
        window.showSweepView();
    else if (auto *tabs = window.findChild<QTabWidget *>(QStringLiteral("mainTabs"));
             (view == QLatin1String("runs") || view == QLatin1String("system") ||
              view == QLatin1String("accuracy")) &&
             tabs != nullptr)
        tabs->setCurrentIndex(0);
    if (view == QLatin1String("system"))
        window.chartsPanel()->showSystemView();
    if (view == QLatin1String("accuracy"))
        window.chartsPanel()->showAccuracyView();
}

} // namespace

void applyChartControls(const QCommandLineParser &parser, MainWindow &window) {
    ChartsPanel *panel = window.chartsPanel();
    ChartOptions options = panel->chartOptions();
    if (parser.isSet(kSmoothing))
        options.smoothing = parser.value(kSmoothing).toDouble();
    if (parser.isSet(kXAxis))
        parseXAxisMode(parser.value(kXAxis), &options.xAxis);
    if (parser.isSet(kLogScale))
        options.logScale = true;
    if (parser.isSet(kBarMeasure))
        parseBarMeasure(parser.value(kBarMeasure), &options.barMeasure);
    if (parser.isSet(kRuns))
        options.runsOneByOne = parser.value(kRuns) == QLatin1String("one-by-one");
    panel->setChartOptions(options);
    showView(parser, window); // from the start: a live session's runs are watched in it
}

bool finishChartScript(const QCommandLineParser &parser, MainWindow &window) {
    bool ok = true;
    const auto idOf = [&](const QString &number) {
        const int id = runIdOf(window, number.toInt());
        if (id == 0) {
            std::fprintf(stderr, "devicebench: no run #%s in view\n", qPrintable(number));
            ok = false;
        }
        return id;
    };
    for (const QString &number : parser.values(kHideRun))
        if (const int id = idOf(number); id != 0)
            window.setRunVisible(id, false);
    showView(parser, window);
    if (parser.isSet(kWindowSize))
        window.resize(windowSizeOf(parser.value(kWindowSize)));
    window.redrawNow();
    settle(); // the layouts, so that the chart maps values to the right places
    double a = 0.0;
    double b = 0.0;
    if (parser.isSet(kZoom) && parsePair(parser.value(kZoom), &a, &b))
        window.lossChart()->setXRange(a, b);
    settle();
    if (parser.isSet(kHover) && parsePair(parser.value(kHover), &a, &b))
        if (const int id = idOf(QString::number(static_cast<int>(a))); id != 0)
            window.lossChart()->showHoverAtStep(id, static_cast<std::int64_t>(b));
    if (parser.isSet(kHoverBar))
        ok = showBarHover(window, parser.value(kHoverBar)) && ok;
    settle();
    if (parser.isSet(kScreenshot)) {
        const QString path = parser.value(kScreenshot);
        if (!window.grab().save(path, "PNG")) {
            std::fprintf(stderr, "devicebench: cannot write the screenshot %s\n", qPrintable(path));
            ok = false;
        }
    }
    return ok;
}

} // namespace devicebench
