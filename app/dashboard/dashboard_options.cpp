// SPDX-License-Identifier: MIT
#include "dashboard_options.h"

#include "chart_script.h"
#include "window/desktop.h"
#include "window/main_window.h"

#include "devicebench/csv_export.h"
#include "devicebench/data_location.h"
#include "devicebench/devices.h"
#include "devicebench/planned_outputs.h"
#include "devicebench/precision_support.h"
#include "devicebench/recorded_run.h"
#include "devicebench/trainer.h"

#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <string>

namespace devicebench {
namespace {

// The workloads a scripted session can name: its command line takes no --script yet.
bool scriptedWorkload(const WorkloadRow &row) { return !row.userScript(); }

// "~/..." for a folder under the home folder, as the help shows it.
QString homeRelative(const QString &path) {
    return QDir::toNativeSeparators(path).replace(QDir::toNativeSeparators(QDir::homePath()),
                                                  QStringLiteral("~"));
}

// The settings of the runs (they override the saved ones).
void addRunSettingsOptions(QCommandLineParser &parser) {
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
        {QStringLiteral("workload"),
         QString::fromStdString(workloadChoices(scriptedWorkload) + "."), QStringLiteral("NAME")},
        {QStringLiteral("target-accuracy"),
         QStringLiteral("Time to accuracy: stop each run after the first epoch whose test "
                        "accuracy reaches P percent; the epochs are then the budget."),
         QStringLiteral("P")},
        {QStringLiteral("python"),
         QStringLiteral("The Python that runs the article's script (article-script runs and "
                        "--reproduce; default python3); it needs torch and torchvision."),
         QStringLiteral("PATH")},
        {QStringLiteral("precision"),
         QStringLiteral("fp32, bf16 (mixed precision) or fp16 (mixed precision with loss scaling, "
                        "CUDA only)."),
         QStringLiteral("NAME")},
        {QStringLiteral("tf32"), QStringLiteral("CUDA: TensorFloat-32 default, on or off."),
         QStringLiteral("MODE")},
    });
}

// The session: scripted runs, exports, imports, the runs folder, logging, theme, download.
void addSessionOptions(QCommandLineParser &parser) {
    parser.addOptions({
        {QStringLiteral("run"),
         QStringLiteral("Start a run when the window opens: cpu, cpu:THREADS or cuda; repeat for "
                        "several, run one after another (see --interleave)."),
         QStringLiteral("SPEC")},
        {QStringLiteral("interleave"),
         QStringLiteral("Run the --run runs as one interleaved run set, as \"Run set\" with "
                        "\"Interleave epochs\" does: their epochs in alternation (run 1 epoch 1, "
                        "run 2 epoch 1, ...), so that a change of the machine's speed touches "
                        "every run alike.")},
        {QStringLiteral("reproduce"),
         QStringLiteral("\"Reproduce the article\" when the window opens: on the CPU and each GPU "
                        "that passed the probe, the article's script and DeviceBench's faithful "
                        "workload at the published settings, as one interleaved run set, with "
                        "the published results shown. --epochs, --warmup-epochs, "
                        "--train-images and --test-images replace the published settings (the "
                        "runs are then not like for like).")},
        {QStringLiteral("export-png"),
         QStringLiteral("After the scripted runs, export the comparison PNG to FILE."),
         QStringLiteral("FILE")},
        {QStringLiteral("export-csv"),
         QStringLiteral("After the scripted runs, export the comparison CSV to FILE."),
         QStringLiteral("FILE")},
        {QStringLiteral("export-html"),
         QStringLiteral("After the scripted runs, export the HTML report (one self-contained "
                        "page) to FILE."),
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
             .arg(homeRelative(MainWindow::defaultRunsFolder())),
         QStringLiteral("DIR")},
        {QStringLiteral("with-history"),
         QStringLiteral("With --quit: show, export and add to the saved runs, as an "
                        "interactive session does.")},
        {QStringLiteral("log-level"),
         QStringLiteral("Log messages of LEVEL and above (trace, debug, info, warn, error, off) to "
                        "stderr and to %1 (rotated at 1 MiB, 3 old files kept).")
             .arg(homeRelative(QDir(defaultLogFolder()).filePath(QString::fromUtf8(kLogFileName)))),
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
}

// Option `name` as a whole number when it is given; false after saying why when it is not one.
bool readInt(const QCommandLineParser &parser, const QString &name, std::optional<int> *value) {
    if (!parser.isSet(name))
        return true;
    int number = 0;
    if (!intOption(parser, name, &number))
        return false;
    *value = number;
    return true;
}

// --precision and --tf32 when given; false after naming the value and what is allowed.
bool readPrecisionSettings(const QCommandLineParser &parser, RunSettingsOptions *settings) {
    if (parser.isSet(QStringLiteral("precision"))) {
        Precision precision{};
        const QString text = parser.value(QStringLiteral("precision"));
        if (!parsePrecision(text.toStdString(), &precision)) {
            std::fprintf(stderr, "devicebench: --precision: '%s' is not fp32, bf16 or fp16\n",
                         qPrintable(text));
            return false;
        }
        settings->precision = precision;
    }
    if (parser.isSet(QStringLiteral("tf32"))) {
        Tf32 tf32{};
        const QString text = parser.value(QStringLiteral("tf32"));
        if (!parseTf32(text.toStdString(), &tf32)) {
            std::fprintf(stderr, "devicebench: --tf32: '%s' is not default, on or off\n",
                         qPrintable(text));
            return false;
        }
        settings->tf32 = tf32;
    }
    return true;
}

bool readRunSettings(const QCommandLineParser &parser, RunSettingsOptions *settings) {
    if (parser.isSet(QStringLiteral("data-dir")))
        settings->dataDir = parser.value(QStringLiteral("data-dir")).toStdString();
    settings->synthetic = parser.isSet(QStringLiteral("synthetic"));
    if (!readInt(parser, QStringLiteral("epochs"), &settings->epochs) ||
        !readInt(parser, QStringLiteral("warmup-epochs"), &settings->warmupEpochs) ||
        !readInt(parser, QStringLiteral("threads"), &settings->threads) ||
        !readInt(parser, QStringLiteral("train-images"), &settings->trainImages) ||
        !readInt(parser, QStringLiteral("test-images"), &settings->testImages))
        return false;
    if (parser.isSet(QStringLiteral("workload"))) {
        Workload workload{};
        if (!parseWorkload(parser.value(QStringLiteral("workload")).toStdString(), &workload)) {
            std::fprintf(stderr, "devicebench: --workload: '%s' is not %s\n",
                         qPrintable(parser.value(QStringLiteral("workload"))),
                         workloadChoices(scriptedWorkload).c_str());
            return false;
        }
        settings->workload = workload;
    }
    if (parser.isSet(QStringLiteral("python")))
        settings->python = parser.value(QStringLiteral("python")).toStdString();
    if (parser.isSet(QStringLiteral("target-accuracy"))) {
        bool ok = false;
        const QString text = parser.value(QStringLiteral("target-accuracy"));
        settings->targetAccuracy = text.toDouble(&ok);
        if (!ok) {
            std::fprintf(stderr, "devicebench: --target-accuracy: '%s' is not a number\n",
                         qPrintable(text));
            return false;
        }
    }
    return readPrecisionSettings(parser, settings);
}

void readSession(const QCommandLineParser &parser, DashboardOptions *options) {
    options->theme = parser.value(QStringLiteral("theme"));
    options->quit = parser.isSet(QStringLiteral("quit"));
    options->withHistory = parser.isSet(QStringLiteral("with-history"));
    options->runsFolder = parser.value(QStringLiteral("runs-folder"));
    options->imports = parser.values(QStringLiteral("import"));
    options->exportPng = parser.value(QStringLiteral("export-png"));
    options->exportCsv = parser.value(QStringLiteral("export-csv"));
    options->exportHtml = parser.value(QStringLiteral("export-html"));
    options->fetchUrl = parser.value(QStringLiteral("fetch-url"));
    options->fetchMd5 = parser.value(QStringLiteral("fetch-md5"));
    options->fetchDir = parser.value(QStringLiteral("fetch-dir"));
    options->screenshot = parser.isSet(QStringLiteral("screenshot"));
    options->screenshotPath = parser.value(QStringLiteral("screenshot"));
    options->sweepFolder = parser.value(QStringLiteral("sweep-folder"));
    options->sweepBaseline = parser.value(QStringLiteral("sweep-baseline"));
    options->sweepExportPng = parser.value(QStringLiteral("sweep-export-png"));
    options->namedRuns = namedRunNumbers(parser);
    options->interleave = parser.isSet(QStringLiteral("interleave"));
    options->reproduce = parser.isSet(QStringLiteral("reproduce"));
}

} // namespace

void addDashboardOptions(QCommandLineParser &parser) {
    parser.setApplicationDescription(
        QStringLiteral("How much faster does training run on this device than on that one?\n"
                       "Trains one small CNN on CIFAR-10 on the CPU or a GPU and compares the "
                       "stable mean seconds per epoch. For headless runs use devicebench-cli."));
    parser.addHelpOption();
    parser.addVersionOption();
    addRunSettingsOptions(parser);
    addSessionOptions(parser);
    addChartScriptOptions(parser); // --smoothing, --zoom, --screenshot, ...
    addPhasesOption(parser);
}

bool parseCommandLine(QCommandLineParser &parser, const QStringList &arguments) {
    const auto refuse = [](const QString &problem) {
        std::fprintf(stderr, "devicebench: %s (devicebench --help lists the options)\n",
                     qPrintable(problem));
        return false;
    };
    if (!parser.parse(arguments)) { // "Unknown option 'bogus'." -> "unknown option 'bogus'"
        QString problem = parser.errorText();
        if (problem.endsWith(QLatin1Char('.')))
            problem.chop(1);
        if (!problem.isEmpty())
            problem[0] = problem[0].toLower();
        return refuse(problem);
    }
    if (parser.isSet(QStringLiteral("help")) || parser.isSet(QStringLiteral("help-all")))
        parser.showHelp(0); // exits
    if (parser.isSet(QStringLiteral("version")))
        parser.showVersion(); // exits
    if (!parser.positionalArguments().isEmpty())
        return refuse(QStringLiteral("unexpected argument '%1': the dashboard takes options "
                                     "only, a run record with --import FILE")
                          .arg(parser.positionalArguments().constFirst()));
    return true;
}

std::optional<DashboardOptions> readDashboardOptions(const QCommandLineParser &parser) {
    DashboardOptions options;
    if (!checkOptionsGivenOnceWithValues(parser) || !checkChartScriptOptions(parser) ||
        !parseRunSpecs(parser, &options.script))
        return std::nullopt;
    options.logLevel = parser.value(QStringLiteral("log-level"));
    if (!isLogLevelName(options.logLevel)) {
        std::fprintf(stderr,
                     "devicebench: --log-level: '%s' is not trace, debug, info, warn, error or "
                     "off\n",
                     qPrintable(options.logLevel));
        return std::nullopt;
    }
    if (!readRunSettings(parser, &options.settings))
        return std::nullopt;
    readSession(parser, &options);
    return options;
}

RunConfig withCommandLineSettings(RunConfig config, const RunSettingsOptions &settings,
                                  const QCommandLineParser &parser) {
    if (settings.dataDir)
        config.dataDir = *settings.dataDir;
    if (settings.synthetic)
        config.synthetic = true;
    applyPhasesOption(parser, &config);
    config.epochs = settings.epochs.value_or(config.epochs);
    config.warmupEpochs = settings.warmupEpochs.value_or(config.warmupEpochs);
    config.threads = settings.threads.value_or(config.threads);
    if (settings.trainImages)
        config.trainImages = *settings.trainImages;
    if (settings.testImages)
        config.testImages = *settings.testImages;
    if (settings.epochs && !settings.warmupEpochs)
        config.warmupEpochs = std::max(0, std::min(kDefaultWarmupEpochs, config.epochs - 1));
    if (settings.workload && *settings.workload != config.workload) {
        config.workload = *settings.workload;
        config = withRecipePreset(config); // a recipe's preset, as choosing it in the window
    }
    if (settings.python)
        config.python = *settings.python;
    config.precision = settings.precision.value_or(config.precision);
    config.tf32 = settings.tf32.value_or(config.tf32);
    if (settings.targetAccuracy)
        config.targetAccuracy = settings.targetAccuracy;
    return config;
}

ReproductionOverrides reproductionOverrides(const RunSettingsOptions &settings) {
    ReproductionOverrides overrides;
    overrides.epochs = settings.epochs;
    overrides.warmupEpochs = settings.warmupEpochs;
    overrides.trainImages = settings.trainImages;
    overrides.testImages = settings.testImages;
    return overrides;
}

} // namespace devicebench
