// SPDX-License-Identifier: MIT
// The DeviceBench dashboard: run the published CIFAR-10 experiment on the CPU and the GPU and
// compare their stable seconds per epoch.
//
// Besides the interactive use, the dashboard can be scripted, for demonstrations and for
// reproducing a comparison exactly: settings from the command line, a list of runs started
// one after another (--run cpu:1 --run cpu:2 --run cuda), exports written when the last run
// ends, and --quit to close afterwards. Everything goes through the same window, controller
// and exports as a user's clicks.
#include "chart_script.h"
#include "dialogs/fetch_dialog.h"
#include "fetch_controller.h"
#include "probe_controller.h"
#include "run_controller.h"
#include "script_options.h"
#include "stop_signals.h"
#include "sweep_controller.h"
#include "sweep_script.h"
#include "theme/theme.h"
#include "window/desktop.h"
#include "window/main_window.h"
#include "wiring.h"

#include "devicebench/run_types.h"
#include "devicebench/trainer.h"
#include "devicebench/version.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QSettings>
#include <QTimer>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <deque>
#include <string>

int main(int argc, char *argv[]) {
    // Without a display QApplication aborts: --help and --version still work (offscreen), and
    // anything else gets a clear message instead of Qt's abort.
    const bool noDisplay = qEnvironmentVariableIsEmpty("DISPLAY") &&
                           qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY") &&
                           qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM");
    if (noDisplay) {
        bool infoOnly = false;
        for (int i = 1; i < argc; ++i) {
            const std::string arg = argv[i];
            infoOnly = infoOnly || arg == "--help" || arg == "-h" || arg == "--help-all" ||
                       arg == "--version" || arg == "-v";
        }
        if (!infoOnly) {
            std::fprintf(stderr,
                         "devicebench: no display (DISPLAY and WAYLAND_DISPLAY are unset).\n"
                         "  Run the same experiment headless with devicebench-cli (see "
                         "devicebench-cli run --help),\n  or start the dashboard under a "
                         "virtual display: xvfb-run -a devicebench\n");
            return 1;
        }
        qputenv("QT_QPA_PLATFORM", "offscreen");
    }
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("DeviceBench"));
    QApplication::setOrganizationName(QStringLiteral("DeviceBench"));
    QApplication::setApplicationVersion(QString::fromUtf8(devicebench::kVersion));
    // The installed desktop file's name (packaging/), so that desktops match the window to it.
    QApplication::setDesktopFileName(QStringLiteral("org.devicebench.DeviceBench"));
    // The icon, styles and chart palette come from the resources (resources/, ui/theme.h): a
    // broken one stops here with a message rather than drawing black later.
    try {
        devicebench::theme::loadAll();
    } catch (const devicebench::theme::ThemeError &e) {
        std::fprintf(stderr, "devicebench: %s\n", e.what());
        return 1;
    }
    QApplication::setWindowIcon(devicebench::theme::applicationIcon());

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("How much faster does training run on this device than on that one?\n"
                       "Trains one small CNN on CIFAR-10 on the CPU or a GPU and compares the "
                       "stable mean seconds per epoch. For headless runs use devicebench-cli."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QString valueName = QStringLiteral("N");
    parser.addOptions({
        {QStringLiteral("data-dir"), QStringLiteral("CIFAR-10 binary folder."),
         QStringLiteral("DIR")},
        {QStringLiteral("synthetic"),
         QStringLiteral("Use synthetic data (times are real, accuracy is meaningless).")},
        {QStringLiteral("epochs"), QStringLiteral("Epochs."), valueName},
        {QStringLiteral("warmup-epochs"), QStringLiteral("Warm-up epochs."), valueName},
        {QStringLiteral("threads"), QStringLiteral("CPU threads."), valueName},
        {QStringLiteral("train-images"),
         QStringLiteral("Use only the first N training images (0 = all)."), valueName},
        {QStringLiteral("test-images"),
         QStringLiteral("Use only the first N test images (0 = all)."), valueName},
        {QStringLiteral("workload"), QStringLiteral("faithful or tuned."), QStringLiteral("NAME")},
        {QStringLiteral("run"),
         QStringLiteral("Start a run when the window opens: cpu, cpu:THREADS or cuda; repeat for "
                        "several, run one after another."),
         QStringLiteral("SPEC")},
        {QStringLiteral("export-png"),
         QStringLiteral("After the scripted runs, export the comparison PNG to FILE."),
         QStringLiteral("FILE")},
        {QStringLiteral("export-csv"),
         QStringLiteral("After the scripted runs, export the comparison CSV to FILE."),
         QStringLiteral("FILE")},
        {QStringLiteral("import"),
         QStringLiteral("Import a run record (JSON) when the window opens, as \"Import runs…\" "
                        "does; repeat for several."),
         QStringLiteral("FILE")},
        {QStringLiteral("quit"),
         QStringLiteral("Quit after the scripted runs and exports. A scripted session (with "
                        "--quit) neither reads nor writes the saved settings, and neither "
                        "shows nor adds to the saved runs: it exports exactly the runs it was "
                        "given (see --runs-folder, --with-history).")},
        {QStringLiteral("runs-folder"),
         QStringLiteral("Keep run records in DIR. Interactive: the saved runs (default %1). "
                        "Scripted (--quit): only this session's runs are written there; "
                        "without it they are not kept.")
             .arg(QDir::toNativeSeparators(devicebench::MainWindow::defaultRunsFolder())
                      .replace(QDir::toNativeSeparators(QDir::homePath()), QStringLiteral("~"))),
         QStringLiteral("DIR")},
        {QStringLiteral("with-history"),
         QStringLiteral("With --quit: show, export and add to the saved runs, as an "
                        "interactive session does.")},
        {QStringLiteral("log-level"),
         QStringLiteral("Log messages of LEVEL and above (trace, debug, info, warn, error, off) to "
                        "stderr and to %1 (rotated at 1 MiB, 3 old files kept).")
             .arg(QDir::toNativeSeparators(
                      QDir(devicebench::defaultLogFolder())
                          .filePath(QString::fromUtf8(devicebench::kLogFileName)))
                      .replace(QDir::toNativeSeparators(QDir::homePath()), QStringLiteral("~"))),
         QStringLiteral("LEVEL"), QStringLiteral("info")},
        {QStringLiteral("theme"),
         QStringLiteral(
             "system (the desktop's palette), light or dark (the Fusion style with a light or dark "
             "palette). Remembered for the next start; default: the last one given, else system."),
         QStringLiteral("NAME")},
        {QStringLiteral("fetch-url"),
         QStringLiteral(
             "Open \"Get CIFAR-10…\" and start downloading from URL (a mirror, or a test server)."),
         QStringLiteral("URL")},
        {QStringLiteral("fetch-md5"),
         QStringLiteral(
             "With --fetch-url: the MD5 the archive must have (default: the official one)."),
         QStringLiteral("HEX")},
        {QStringLiteral("fetch-dir"),
         QStringLiteral("With --fetch-url: the folder that receives cifar-10-batches-bin."),
         QStringLiteral("DIR")},
    });
    devicebench::addChartScriptOptions(parser); // --smoothing, --zoom, --screenshot, ...
    devicebench::addPhasesOption(parser);
    parser.process(app);
    if (!devicebench::checkChartScriptOptions(parser)) {
        return 2;
    }

    std::deque<devicebench::ScriptedRun> script;
    if (!devicebench::parseRunSpecs(parser, &script)) {
        return 2;
    }

    const QString logLevel = parser.value(QStringLiteral("log-level"));
    if (!devicebench::isLogLevelName(logLevel)) {
        std::fprintf(
            stderr,
            "devicebench: --log-level: '%s' is not trace, debug, info, warn, error or off\n",
            qPrintable(logLevel));
        return 2;
    }
    devicebench::setUpLogging(logLevel,
                              devicebench::defaultLogFolder()); // warns on stderr if no file
    devicebench::routeQtMessagesToLog();

    // Settings of the last session (QSettings: ~/.config/DeviceBench/DeviceBench.conf). A
    // scripted session (--quit) must reproduce the same run every time: it ignores them.
    const bool keepSettings = !parser.isSet(QStringLiteral("quit"));
    QSettings stored;
    const QString themeKey = QStringLiteral("appearance/theme");
    QString theme = parser.value(QStringLiteral("theme"));
    if (theme.isEmpty() && keepSettings) {
        theme = stored.value(themeKey).toString();
    }
    const QStringList themes = {QStringLiteral("system"), QStringLiteral("light"),
                                QStringLiteral("dark")};
    if (!themes.contains(theme)) {
        if (parser.isSet(QStringLiteral("theme"))) {
            std::fprintf(stderr, "devicebench: --theme: '%s' is not system, light or dark\n",
                         qPrintable(theme));
            return 2;
        }
        theme = QStringLiteral("system");
    }
    if (theme != QLatin1String("system")) {
        QApplication::setStyle(QStringLiteral("Fusion"));
        QApplication::setPalette(devicebench::theme::palette(
            theme == QLatin1String("dark") ? devicebench::theme::Theme::Dark
                                           : devicebench::theme::Theme::Light));
    }

    // The composition root: the controllers (each a job on a worker thread), then the window,
    // wired together (wiring.h). The device probe starts now and never holds up the window.
    // The runs folder: the saved runs for an interactive session (or --with-history); for a
    // scripted one only where its own runs write their records (--runs-folder), so that it
    // exports exactly the runs it was given and leaves the saved ones untouched.
    const bool history = keepSettings || parser.isSet(QStringLiteral("with-history"));
    QString runsFolder = parser.value(QStringLiteral("runs-folder"));
    if (runsFolder.isEmpty() && history)
        runsFolder = devicebench::MainWindow::defaultRunsFolder();
    devicebench::RunController controller;
    devicebench::ProbeController probe;
    devicebench::FetchController fetcher;
    devicebench::SweepController sweeps;
    devicebench::MainWindow window(nullptr, runsFolder,
                                   history ? devicebench::RunsFolderRole::History
                                           : devicebench::RunsFolderRole::SessionRecords);
    devicebench::wireDashboard(window, controller, probe, fetcher, &sweeps);
    if (keepSettings) {
        window.restoreSettings(stored); // the command line's settings below override them
    }
    devicebench::applyChartControls(parser, window);

    devicebench::RunConfig settings = window.runConfig("cpu");
    if (parser.isSet(QStringLiteral("data-dir"))) {
        settings.dataDir = parser.value(QStringLiteral("data-dir")).toStdString();
    }
    if (parser.isSet(QStringLiteral("synthetic"))) {
        settings.synthetic = true;
    }
    devicebench::applyPhasesOption(parser, &settings);
    int trainImages = static_cast<int>(settings.trainImages);
    int testImages = static_cast<int>(settings.testImages);
    if (!devicebench::intOption(parser, QStringLiteral("epochs"), &settings.epochs) ||
        !devicebench::intOption(parser, QStringLiteral("warmup-epochs"), &settings.warmupEpochs) ||
        !devicebench::intOption(parser, QStringLiteral("threads"), &settings.threads) ||
        !devicebench::intOption(parser, QStringLiteral("train-images"), &trainImages) ||
        !devicebench::intOption(parser, QStringLiteral("test-images"), &testImages)) {
        return 2;
    }
    settings.trainImages = trainImages;
    if (parser.isSet(QStringLiteral("epochs")) && !parser.isSet(QStringLiteral("warmup-epochs"))) {
        // As the CLI: the article's 2 warm-up epochs, but never all of them.
        settings.warmupEpochs =
            std::max(0, std::min(devicebench::kDefaultWarmupEpochs, settings.epochs - 1));
    }
    if (parser.isSet(QStringLiteral("workload")) &&
        !devicebench::parseWorkload(parser.value(QStringLiteral("workload")).toStdString(),
                                    &settings.workload)) {
        std::fprintf(stderr, "devicebench: --workload: '%s' is not faithful or tuned\n",
                     qPrintable(parser.value(QStringLiteral("workload"))));
        return 2;
    }
    settings.testImages = testImages;
    // Checked before the window's spin boxes clamp them (--epochs 0 would become 1): a script
    // must get the settings it asked for or an error, never others.
    for (std::size_t i = 0; i < std::max<std::size_t>(script.size(), 1); ++i) {
        devicebench::RunConfig check = settings;
        if (!script.empty() && script[i].threads > 0) {
            check.threads = script[i].threads;
        }
        if (script.empty() && !check.synthetic && check.dataDir.empty()) {
            check.synthetic = true; // nothing runs yet: the folder is chosen in the window
        }
        const auto problems = devicebench::validateRunConfig(check);
        for (const std::string &problem : problems) {
            std::fprintf(stderr, "devicebench: %s\n", problem.c_str());
        }
        if (!problems.empty()) {
            return 2;
        }
    }
    window.setRunConfig(settings);
    if (!keepSettings) {
        window.resize(1560, 960); // a script gets the same window every time
    }
    window.show();
    if (parser.isSet(QStringLiteral("fetch-url"))) {
        devicebench::FetchDialog *fetch = window.openFetchDialog();
        fetch->setUrl(parser.value(QStringLiteral("fetch-url")));
        if (parser.isSet(QStringLiteral("fetch-md5")))
            fetch->setExpectedMd5(parser.value(QStringLiteral("fetch-md5")));
        if (parser.isSet(QStringLiteral("fetch-dir")))
            fetch->setTargetDir(parser.value(QStringLiteral("fetch-dir")));
        fetch->startDownload();
    }
    int exitCode = 0;
    if (parser.isSet(QStringLiteral("import"))) {
        const auto report = window.importRecords(parser.values(QStringLiteral("import")));
        for (const QString &message : report.rejected) {
            std::fprintf(stderr, "devicebench: skipped: %s\n", qPrintable(message));
            exitCode = 1;
        }
    }
    if (!devicebench::applySweepScript(parser, window)) // --sweep-folder: the Sweep view
        exitCode = 1;

    // SIGINT/SIGTERM: as the CLI, the run ends after its current step with a "cancelled"
    // record, what finished is exported, and the program exits 130 (stop_signals.h).
    devicebench::StopSignals stopSignals;
    if (!stopSignals.installed())
        std::fprintf(stderr, "devicebench: SIGINT/SIGTERM keep their default action: %s\n",
                     qPrintable(stopSignals.error()));
    bool stopSignalled = false;
    std::string askedDevice; // of the scripted run asked for and not yet accepted; "" when none

    auto startNext = [&]() {
        if (!script.empty() && !stopSignalled) {
            const devicebench::ScriptedRun next = script.front();
            script.pop_front();
            devicebench::RunConfig c = window.runConfig(next.device);
            if (next.threads > 0) {
                c.threads = next.threads;
                window.setRunConfig(c);
            }
            askedDevice = next.device;
            window.startRun(next.device); // accepted or refused: the signals below say which
            return;
        }
        // Script done: the chart script (zoom, hover, screenshot), exports, then maybe quit.
        if (!devicebench::finishChartScript(parser, window)) {
            exitCode = 1;
        }
        QString error;
        const QString png = parser.value(QStringLiteral("export-png"));
        const QString csv = parser.value(QStringLiteral("export-csv"));
        if (!png.isEmpty() && !window.exportPng(png, &error)) {
            std::fprintf(stderr, "devicebench: %s\n", qPrintable(error));
            exitCode = 1;
        }
        if (!csv.isEmpty() && !window.exportCsv(csv, &error)) {
            std::fprintf(stderr, "devicebench: %s\n", qPrintable(error));
            exitCode = 1;
        }
        if (stopSignalled) {
            QTimer::singleShot(0, &app, [&]() { QApplication::exit(devicebench::kExitStopped); });
        } else if (parser.isSet(QStringLiteral("quit"))) {
            QTimer::singleShot(0, &app, [&]() { QApplication::exit(exitCode); });
        }
    };
    QObject::connect(&stopSignals, &devicebench::StopSignals::stopRequested, &app, [&](int sig) {
        if (stopSignalled)
            return;
        stopSignalled = true;
        script.clear();
        const bool exports = parser.isSet(QStringLiteral("export-png")) ||
                             parser.isSet(QStringLiteral("export-csv"));
        std::fprintf(stderr, "devicebench: %s: %s%s\n", sig == SIGINT ? "SIGINT" : "SIGTERM",
                     window.isRunning() ? "stopping the run after its current step" : "quitting",
                     exports ? ", exporting what finished" : "");
        if (window.isRunning())
            controller.stop(); // runEnded (cancelled) then leads to startNext
        else
            startNext();
    });
    const bool scripted = !script.empty();
    QObject::connect(&controller, &devicebench::RunController::runAccepted, &app,
                     [&]() { askedDevice.clear(); });
    // A scripted run that did not start ends the script with the reasons (the engine's).
    QObject::connect(&window, &devicebench::MainWindow::runRefused, &app,
                     [&](const QStringList &reasons) {
                         if (askedDevice.empty())
                             return;
                         std::string why;
                         for (const QString &reason : reasons)
                             why += "\n  " + reason.toStdString();
                         std::fprintf(stderr, "devicebench: scripted run on %s did not start%s\n",
                                      askedDevice.c_str(), why.c_str());
                         askedDevice.clear();
                         exitCode = 1;
                         script.clear();
                         QTimer::singleShot(0, &app, startNext);
                     });
    // When a run ends: a script goes on with its next run (or its exports); an interactive
    // session only when a signal stopped the run (then it exports and quits).
    QObject::connect(&controller, &devicebench::RunController::runEnded, &app,
                     [&](int, const devicebench::RunOutcome &outcome) {
                         if (!scripted && !stopSignalled)
                             return;
                         if (outcome.status != devicebench::RunStatus::Finished && !stopSignalled) {
                             std::fprintf(stderr, "devicebench: run %s: %s\n",
                                          devicebench::toString(outcome.status),
                                          outcome.reason.c_str());
                             exitCode = 1; // a script must be able to tell
                         }
                         // Let the window take the outcome first.
                         QTimer::singleShot(0, &app, startNext);
                     });
    if (scripted) {
        QTimer::singleShot(0, &app, startNext);
    } else if (parser.isSet(QStringLiteral("quit")) || parser.isSet(QStringLiteral("screenshot"))) {
        QTimer::singleShot(300, &app, startNext); // once the window is shown and laid out
    }
    const int rc = QApplication::exec();
    if (keepSettings) {
        window.saveSettings(stored);
        if (parser.isSet(QStringLiteral("theme"))) {
            stored.setValue(themeKey, theme);
        }
    }
    return rc != 0 ? rc : exitCode;
}
