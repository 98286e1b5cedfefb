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

// The exit codes of a refused command line, as the CLI's (session_checks.h).
inline constexpr int kExitBadInput = 2;
inline constexpr int kExitNoData = 3;

} // namespace devicebench
