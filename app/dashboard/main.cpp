// SPDX-License-Identifier: MIT
// The DeviceBench dashboard: run the published CIFAR-10 experiment on the CPU and the GPU and
// compare their stable seconds per epoch.
//
// Besides the interactive use, the dashboard can be scripted, for demonstrations and for
// reproducing a comparison exactly: settings from the command line, a list of runs started
// one after another (--run cpu:1 --run cpu:2 --run cuda; with --interleave as one interleaved
// run set), exports written when the last run
// ends, and --quit to close afterwards (scripted_session.h). Everything goes through the same
// window, controller and exports as a user's clicks.
#include "chart_script.h"
#include "dashboard_options.h"
#include "dialogs/fetch_dialog.h"
#include "fetch_controller.h"
#include "probe_controller.h"
#include "run_controller.h"
#include "scripted_session.h"
#include "session_checks.h"
#include "settings_file.h"
#include "store/run_store.h"
#include "sweep_controller.h"
#include "sweep_script.h"
#include "theme/theme.h"
#include "window/desktop.h"
#include "window/main_window.h"
#include "wiring.h"

#include "devicebench/cost.h"
#include "devicebench/version.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDebug>
#include <QSettings>

#include <cstdio>
#include <optional>
#include <string>

namespace {

using devicebench::DashboardOptions;
using devicebench::MainWindow;

const QString kThemeKey = QStringLiteral("appearance/theme");

// Without a display QApplication aborts: --help and --version still work (offscreen), and
// anything else gets a clear message instead of Qt's abort. False: exit 1.
bool checkDisplay(int argc, char *argv[]) {
    if (!qEnvironmentVariableIsEmpty("DISPLAY") ||
        !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY") ||
        !qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        return true;
    bool infoOnly = false;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        infoOnly = infoOnly || arg == "--help" || arg == "-h" || arg == "--help-all" ||
                   arg == "--version" || arg == "-v";
    }
    if (!infoOnly) {
        std::fprintf(stderr, "devicebench: no display (DISPLAY and WAYLAND_DISPLAY are unset).\n"
                             "  Run the same experiment headless with devicebench-cli (see "
                             "devicebench-cli run --help),\n  or start the dashboard under a "
                             "virtual display: xvfb-run -a devicebench\n");
        return false;
    }
    qputenv("QT_QPA_PLATFORM", "offscreen");
    return true;
}

// Names, desktop file and icon. The icon, styles and chart palette come from the resources
// (resources/, ui/theme/theme.h): a broken one stops here with a message (false: exit 1)
// rather than drawing black later.
bool setUpApplication() {
    QApplication::setApplicationName(QStringLiteral("DeviceBench"));
    QApplication::setOrganizationName(QStringLiteral("DeviceBench"));
    QApplication::setApplicationVersion(QString::fromUtf8(devicebench::kVersion));
    // The installed desktop file's name (packaging/), so that desktops match the window to it.
    QApplication::setDesktopFileName(QStringLiteral("org.devicebench.DeviceBench"));
    try {
        devicebench::theme::loadAll();
    } catch (const devicebench::theme::ThemeError &e) {
        std::fprintf(stderr, "devicebench: %s\n", e.what());
        return false;
    }
    QApplication::setWindowIcon(devicebench::theme::applicationIcon());
    return true;
}

// The theme given, else the saved one (not in a scripted session), else "system"; applied to
// the application. nullopt for a --theme that is none of them (exit 2).
std::optional<QString> applyTheme(const DashboardOptions &options, const QSettings &stored) {
    QString theme = options.theme;
    if (theme.isEmpty() && !options.quit)
        theme = stored.value(kThemeKey).toString();
    const QStringList themes = {QStringLiteral("system"), QStringLiteral("light"),
                                QStringLiteral("dark")};
    if (!themes.contains(theme)) {
        if (!options.theme.isEmpty()) {
            std::fprintf(stderr, "devicebench: --theme: '%s' is not system, light or dark\n",
                         qPrintable(theme));
            return std::nullopt;
        }
        theme = QStringLiteral("system");
    }
    if (theme != QLatin1String("system")) {
        QApplication::setStyle(QStringLiteral("Fusion"));
        QApplication::setPalette(devicebench::theme::palette(
            theme == QLatin1String("dark") ? devicebench::theme::Theme::Dark
                                           : devicebench::theme::Theme::Light));
    }
    return theme;
}

// The saved runs for an interactive session (or --with-history); for a scripted one only where
// its own runs write their records (--runs-folder), so that it exports exactly the runs it was
// given and leaves the saved ones untouched.
bool keepsHistory(const DashboardOptions &options) { return !options.quit || options.withHistory; }
QString runsFolderFor(const DashboardOptions &options) {
    if (options.runsFolder.isEmpty() && keepsHistory(options))
        return MainWindow::defaultRunsFolder();
    return options.runsFolder;
}

// The shipped price table (share/devicebench/prices/prices.json) as the window's defaults and
// the store's prices, before the saved ones are restored, so that the costs (bars, Compare box,
// CSV) are filled for priced runs from the start. Without it: no table, and a note in the
// Prices dialog.
void loadShippedPrices(MainWindow &window) {
    const std::string path = devicebench::defaultPriceTablePath();
    if (path.empty()) {
        window.setShippedPrices({}, QStringLiteral("No shipped price table: the program's data "
                                                   "folder could not be found."));
        return;
    }
    try {
        window.setShippedPrices(devicebench::readPriceTable(path), QString());
    } catch (const devicebench::PriceError &e) {
        window.setShippedPrices({}, QStringLiteral("No shipped price table: ") +
                                        QString::fromUtf8(e.what()));
    }
}

// What the window opens with besides its runs: a download, imported records, a sweep folder.
// Returns 1 when an import was skipped or the sweep folder could not be shown, else 0.
int openStartupItems(const DashboardOptions &options, const QCommandLineParser &parser,
                     MainWindow &window) {
    if (!options.fetchUrl.isEmpty()) {
        devicebench::FetchDialog *fetch = window.openFetchDialog();
        fetch->setUrl(options.fetchUrl);
        if (!options.fetchMd5.isEmpty())
            fetch->setExpectedMd5(options.fetchMd5);
        if (!options.fetchDir.isEmpty())
            fetch->setTargetDir(options.fetchDir);
        fetch->startDownload();
    }
    int exitCode = 0;
    if (!options.imports.isEmpty()) {
        for (const QString &message : window.importRecords(options.imports).rejected) {
            std::fprintf(stderr, "devicebench: skipped: %s\n", qPrintable(message));
            exitCode = 1;
        }
    }
    if (!devicebench::applySweepScript(parser, window)) // --sweep-folder: the Sweep view
        exitCode = 1;
    return exitCode;
}

} // namespace

int main(int argc, char *argv[]) {
    if (!checkDisplay(argc, argv))
        return 1;
    QApplication app(argc, argv);
    if (!setUpApplication())
        return 1;
    QCommandLineParser parser;
    devicebench::addDashboardOptions(parser);
    if (!devicebench::parseCommandLine(parser, QApplication::arguments()))
        return devicebench::kExitBadInput;
    const std::optional<DashboardOptions> options = devicebench::readDashboardOptions(parser);
    if (!options)
        return devicebench::kExitBadInput;
    devicebench::setUpLogging(options->logLevel,
                              devicebench::defaultLogFolder()); // warns if no file
    devicebench::routeQtMessagesToLog();

    // Settings of the last session (QSettings: ~/.config/DeviceBench/DeviceBench.conf). A
    // scripted session (--quit) must reproduce the same run every time: it ignores them.
    QSettings stored;
    const std::optional<QString> theme = applyTheme(*options, stored);
    if (!theme)
        return 2;

    // The composition root: the controllers (each a job on a worker thread), then the window,
    // wired together (wiring.h). The device probe starts now and never holds up the window.
    devicebench::RunController controller;
    devicebench::ProbeController probe;
    devicebench::FetchController fetcher;
    devicebench::SweepController sweeps;
    MainWindow window(nullptr, runsFolderFor(*options),
                      keepsHistory(*options) ? devicebench::RunsFolderRole::History
                                             : devicebench::RunsFolderRole::SessionRecords);
    devicebench::wireDashboard(window, controller, probe, fetcher, &sweeps);
    loadShippedPrices(window);
    if (!options->quit) {
        window.restoreSettings(stored); // the command line's settings below override them
        if (const QString problem = devicebench::settingsFileProblem(stored); !problem.isEmpty()) {
            qWarning().noquote() << problem;
            window.showStartupProblem(problem);
        }
    }
    devicebench::applyChartControls(parser, window);
    const devicebench::RunConfig settings =
        devicebench::withCommandLineSettings(window.runConfig("cpu"), options->settings, parser);
    if (const int refused = devicebench::checkCommandLineSettings(
            settings, options->script, *options, window.store().runCount()); // the saved runs
        refused != 0)
        return refused;
    window.setRunConfig(settings);
    if (options->quit)
        window.resize(1560, 960); // a script gets the same window every time
    window.show();

    devicebench::ScriptedSession session(
        window, controller, parser, options->script,
        {options->exportPng, options->exportCsv, options->quit, options->exportHtml},
        openStartupItems(*options, parser, window), options->interleave);
    if (options->reproduce)
        session.reproduceFirst(devicebench::reproductionOverrides(options->settings));
    session.begin(options->screenshot);
    const int rc = QApplication::exec();
    if (!options->quit) {
        window.saveSettings(stored);
        if (!options->theme.isEmpty())
            stored.setValue(kThemeKey, *theme);
    }
    return rc != 0 ? rc : session.exitCode();
}
