// SPDX-License-Identifier: MIT
// The dashboard's command line: declared once, read once into DashboardOptions, so that main()
// reads as the order of a session.
#pragma once

#include "script_options.h"

#include "devicebench/run_types.h"
#include "window/main_window.h" // ReproductionOverrides

#include <QString>
#include <QStringList>

#include <deque>
#include <optional>
#include <string>
#include <utility>
#include <vector>

class QCommandLineParser;

namespace devicebench {

// The run settings given on the command line; unset ones keep the window's.
struct RunSettingsOptions {
    std::optional<std::string> dataDir;
    bool synthetic = false;
    std::optional<int> epochs;
    std::optional<int> warmupEpochs;
    std::optional<int> threads;
    std::optional<int> trainImages;
    std::optional<int> testImages;
    std::optional<Workload> workload;
    std::optional<std::string> python; // --python: the article's script's Python
    std::optional<Precision> precision;
    std::optional<Tf32> tf32;
    std::optional<double> targetAccuracy; // percent; checked with the run (validateRunConfig)
};

// Everything main() needs from the command line (the chart and sweep scripts read the parser
// themselves: chart_script.h, sweep_script.h).
struct DashboardOptions {
    RunSettingsOptions settings;
    std::deque<ScriptedRun> script; // the --run specs, in order
    bool interleave = false;        // --interleave: the script as one interleaved run set
    bool reproduce = false;         // --reproduce: "Reproduce the article" when the window opens
    QString logLevel;
    QString theme;     // as given; empty: the saved one
    bool quit = false; // a scripted session: no saved settings, exports exactly its runs
    bool withHistory = false;
    QString runsFolder; // as given; empty: see runsFolderFor
    QStringList imports;
    QString exportPng;
    QString exportCsv;
    QString exportHtml;
    QString fetchUrl; // empty: no download at start
    QString fetchMd5;
    QString fetchDir;
    bool screenshot = false;
    QString screenshotPath;                         // --screenshot FILE
    QString sweepFolder;                            // --sweep-folder DIR
    QString sweepBaseline;                          // --sweep-baseline LABEL
    QString sweepExportPng;                         // --sweep-export-png FILE
    std::vector<std::pair<QString, int>> namedRuns; // ("--hide-run", 7): namedRunNumbers
};

// Declares every option of the dashboard (with --help and --version) on `parser`.
void addDashboardOptions(QCommandLineParser &parser);

// Parses `arguments` (the program's name first) into `parser`: false after saying on stderr
// what is wrong (an unknown option, a value missing, an argument that is no option: exit 2);
// --help and --version print and exit 0.
bool parseCommandLine(QCommandLineParser &parser, const QStringList &arguments);

// The parsed command line; nullopt after saying on stderr what is wrong (exit 2).
std::optional<DashboardOptions> readDashboardOptions(const QCommandLineParser &parser);

// `base` (the window's settings) with the command line's on top; an --epochs without
// --warmup-epochs gets the article's 2 warm-up epochs, but never all of them.
RunConfig withCommandLineSettings(RunConfig config, const RunSettingsOptions &settings,
                                  const QCommandLineParser &parser);

// The command line's --epochs, --warmup-epochs, --train-images and --test-images, which replace
// the published settings of --reproduce's runs.
ReproductionOverrides reproductionOverrides(const RunSettingsOptions &settings);

// The command line's settings and outputs checked before anything runs, as the CLI checks
// its own: every scripted run by the engine's checkRunRequest (the settings before the
// window's spin boxes clamp them, --epochs 0 would become 1; a script's Python); the
// --export-* files, --screenshot, --sweep-export-png and the --runs-folder by
// checkPlannedOutputs (writable, none another's, none a file the session reads: an --import
// record, a cell record of --sweep-folder, a record of --runs-folder); and the run numbers of
// --hide-run, --hover and --hover-bar against the most runs the session can show (`savedRuns`,
// the history the window loaded, then one per --run and --import; not checked with
// --reproduce); --sweep-folder a folder, and the options that need it given with it; the
// scripted runs' devices (ones this build can train on) and data folder (checkCifar10Folder).
// Returns the exit code, as the CLI's: 0 when all hold; after printing the messages on stderr,
// kExitNoData (3) for the data folder, else kExitBadInput (2). Nothing is run either way.
inline constexpr int kExitBadInput = 2;
inline constexpr int kExitNoData = 3;
int checkCommandLineSettings(const RunConfig &config, const std::deque<ScriptedRun> &script,
                             const DashboardOptions &options, int savedRuns);

} // namespace devicebench
