// SPDX-License-Identifier: MIT
#include "session_checks.h"

#include "chart_script.h"

#include "devicebench/csv_export.h"
#include "devicebench/data_location.h"
#include "devicebench/devices.h"
#include "devicebench/planned_outputs.h"
#include "devicebench/recorded_run.h"
#include "devicebench/trainer.h"

#include <QFileInfo>

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace devicebench {

namespace {

// The files the session writes, checked against each other and the files it reads.
std::vector<std::string> sessionOutputProblems(const DashboardOptions &options) {
    std::vector<PlannedOutput> outputs =
        comparisonOutputs(options.exportCsv.toStdString(), options.exportPng.toStdString(),
                          options.exportHtml.toStdString(), "--export-");
    outputs.push_back({"--screenshot", options.screenshotPath.toStdString()});
    outputs.push_back({"--sweep-export-png", options.sweepExportPng.toStdString()});
    outputs.push_back({"--runs-folder", options.runsFolder.toStdString(), true});
    std::vector<PlannedInput> inputs =
        jsonFilesIn(options.sweepFolder.toStdString(), "the cell record");
    for (const QString &record : options.imports)
        inputs.push_back({"the --import record", record.toStdString()});
    for (const PlannedInput &record :
         jsonFilesIn(options.runsFolder.toStdString(), "the run record"))
        inputs.push_back(record);
    return checkPlannedOutputs(outputs, inputs);
}

// The most runs the session can show: the saved runs the window loaded, one per --run and at
// most one per --import.
int mostRunsShown(const DashboardOptions &options, int savedRuns) {
    return savedRuns + static_cast<int>(options.script.size()) +
           static_cast<int>(options.imports.size());
}

// An --export-* of a session without any run (a file of headers only, an empty report or
// picture would pass for a comparison).
std::vector<std::string> exportOfNothingProblems(const DashboardOptions &options, int savedRuns) {
    if (options.reproduce || mostRunsShown(options, savedRuns) > 0)
        return {};
    for (const auto &[flag, path] : {std::pair{"--export-png", options.exportPng},
                                     std::pair{"--export-csv", options.exportCsv},
                                     std::pair{"--export-html", options.exportHtml}})
        if (!path.isEmpty())
            return {std::string(flag) + " " + path.toStdString() +
                    ": the session has no runs to export (give --run or --import)"};
    return {};
}

// The run numbers the chart script names, against the most runs the session can show.
std::vector<std::string> namedRunProblems(const DashboardOptions &options, int savedRuns) {
    std::vector<std::string> problems;
    if (options.reproduce)
        return problems; // the article's set: counted only once shown
    const int runs = mostRunsShown(options, savedRuns);
    const std::string counted =
        (savedRuns > 0 ? " (" + std::to_string(savedRuns) + " saved, " : std::string(" (")) +
        "one per --run and --import)";
    for (const auto &[flag, number] : options.namedRuns)
        if (number > runs)
            problems.push_back(flag.toStdString() + ": no run #" + std::to_string(number) +
                               ": the session has " + std::to_string(runs) +
                               (runs == 1 ? " run" : " runs") + counted);
    return problems;
}

// --sweep-folder names a folder, and --sweep-baseline and --sweep-export-png come with it.
std::vector<std::string> sweepScriptProblems(const DashboardOptions &options) {
    if (options.sweepFolder.isEmpty()) {
        if (options.sweepBaseline.isEmpty() && options.sweepExportPng.isEmpty())
            return {};
        return {"--sweep-baseline and --sweep-export-png need --sweep-folder"};
    }
    const QFileInfo folder(options.sweepFolder);
    if (folder.isDir())
        return {};
    return {"--sweep-folder: " + options.sweepFolder.toStdString() +
            (folder.exists() ? " is not a folder" : " does not exist")};
}

// The devices of the scripted runs, each one this build can train on (resolveDevice's words:
// the devices that exist).
std::vector<std::string> deviceProblems(const std::deque<ScriptedRun> &script) {
    for (const ScriptedRun &run : script) {
        try {
            resolveDevice(run.device);
        } catch (const std::invalid_argument &e) {
            return {e.what()};
        }
    }
    return {};
}

// The data folder the scripted runs read, checked as the CLI checks it; "" when they read none
// (synthetic data, your own script) or no run is scripted (the window chooses it).
std::string dataFolderProblem(const RunConfig &config, const std::deque<ScriptedRun> &script) {
    if (script.empty() || config.synthetic || workloadRow(config.workload).ownData)
        return {};
    if (config.dataDir.empty())
        return "no data folder given: give --data-dir DIR (CIFAR-10's binary folder), or "
               "--synthetic";
    return checkCifar10Folder(config.dataDir);
}

} // namespace

int checkCommandLineSettings(const RunConfig &config, const std::deque<ScriptedRun> &script,
                             const DashboardOptions &options, int savedRuns) {
    std::vector<std::string> problems = sessionOutputProblems(options);
    if (problems.empty())
        problems = namedRunProblems(options, savedRuns);
    if (problems.empty())
        problems = exportOfNothingProblems(options, savedRuns);
    if (problems.empty())
        problems = sweepScriptProblems(options);
    if (problems.empty())
        problems = deviceProblems(script);
    if (problems.empty()) {
        if (const std::string data = dataFolderProblem(config, script); !data.empty()) {
            std::fprintf(stderr, "devicebench: %s\n", data.c_str());
            return kExitNoData;
        }
    }
    for (std::size_t i = 0; i < std::max<std::size_t>(script.size(), 1) && problems.empty(); ++i) {
        RunRequest check;
        check.config = config;
        if (!script.empty()) {
            if (script[i].threads > 0)
                check.config.threads = script[i].threads;
            check.config.device = script[i].device; // fp16 is refused on the CPU only
            problems = checkRunRequest(check);      // as the CLI: the Python of a script too
        } else {
            // Nothing runs yet: the data folder and the device are chosen in the window.
            if (!check.config.synthetic && check.config.dataDir.empty())
                check.config.synthetic = true;
            check.config.precision = Precision::Float32; // fp16 is for a GPU run, chosen there
            problems = validateRunConfig(check.config);
        }
    }
    for (const std::string &problem : problems)
        std::fprintf(stderr, "devicebench: %s\n", problem.c_str());
    return problems.empty() ? 0 : kExitBadInput;
}

} // namespace devicebench
