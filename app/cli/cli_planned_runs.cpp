// SPDX-License-Identifier: MIT
// The planned runs of `run` and `reproduce` (cli_planned_runs.h).
#include "cli_planned_runs.h"
#include "cli_console.h"
#include "cli_cost.h"
#include "cli_json.h"
#include "cli_phases.h"
#include "cli_published.h"
#include "cli_report_file.h"
#include "cli_support.h"
#include "cli_train_child.h"

#include "devicebench/atomic_file.h"
#include "devicebench/contention.h"
#include "devicebench/devices.h"
#include "devicebench/interleaved_run.h"
#include "devicebench/machine_drift.h"
#include "devicebench/machine_speed.h"
#include "devicebench/recorded_run.h"
#include "devicebench/run_energy.h"
#include "devicebench/run_record.h"
#include "devicebench/run_set.h"
#include "devicebench/summary.h"
#include "devicebench/time_to_target.h"
#include "devicebench/trainer.h"
#include "devicebench/version.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iomanip>
#include <memory>
#include <ostream>
#include <sstream>
#include <unistd.h>

namespace devicebench::cli {
namespace {

constexpr const char *kSyntheticNote = "SYNTHETIC DATA: times are real, accuracy is meaningless";

// --record holds one run; --out-dir is made when missing, as the runs start (checkRunOptions
// has checked every output before). kExitOk, kExitUsage or kExitRunFailed.
int prepareRecordFolders(const RunOptions &options, std::size_t runCount, std::ostream &err) {
    if (!options.recordPath.empty() && runCount > 1) {
        err << "devicebench-cli: error: --record FILE holds one run, but this command makes "
            << runCount << " runs; use --out-dir DIR for one record per run\n";
        return kExitUsage;
    }
    if (!options.outDir.empty()) {
        if (const std::string problem = makeRecordFolder(options.outDir); !problem.empty()) {
            err << "devicebench-cli: error: " << problem << "\n";
            return kExitRunFailed;
        }
    }
    return kExitOk;
}

// True when the runs (a sweep's grid) differ in `field`.
template <typename Field> bool differ(const std::vector<RunConfig> &runs, Field field) {
    return std::any_of(runs.begin(), runs.end(),
                       [&](const RunConfig &c) { return c.*field != runs.front().*field; });
}

// "#2 cpu, 2 threads", and the settings in which the runs differ: "#2 cpu, 2 threads, resnet18
// 64 px b256 bf16".
std::string runName(const std::vector<RunConfig> &runs, std::size_t i) {
    const RunConfig &c = runs[i];
    std::string name = "#" + std::to_string(i + 1) + " " + c.device + ", " +
                       threadsText(c.threads > 0 ? c.threads : availableCores());
    std::string settings;
    if (differ(runs, &RunConfig::model))
        settings += " " + c.model;
    if (differ(runs, &RunConfig::imageSize))
        settings += " " + std::to_string(c.imageSize) + " px";
    if (differ(runs, &RunConfig::batchSize))
        settings += " b" + std::to_string(c.batchSize);
    if (differ(runs, &RunConfig::precision))
        settings += " " + std::string(shortName(c.precision));
    return settings.empty() ? name : name + "," + settings;
}

void printHeader(std::ostream &out, const std::vector<RunConfig> &runs) {
    const RunConfig &base = runs.front();
    const bool oneModel = !differ(runs, &RunConfig::model) && !differ(runs, &RunConfig::imageSize);
    const std::string count = std::to_string(runs.size()) + (runs.size() == 1 ? " run" : " runs");
    out << "DeviceBench " << kVersion << ": ";
    if (!workloadRow(base.workload).engineModel) // the script says what it trains when it starts
        out << "your script " << base.script.substr(base.script.rfind('/') + 1) << ", " << count
            << "\n";
    else
        out << (oneModel ? describeModel(base.model, base.imageSize, 0, 0) : "several models")
            << " on CIFAR-10, " << count << "\n";
    if (base.synthetic) {
        out << kSyntheticNote << "\n";
    }
    if (base.phases)
        out << kPhasesNote << "\n";
}

// Trains runs[i] (run number i + 1) as a recorded run (recorded_run.h, as the dashboard's):
// the recorder (in memory when no file is asked for; its record is the run in the comparison,
// the JSON output and the file alike), then TensorBoard (--logdir), then the console, which
// puts the run into `store`.
RunRequest requestOf(const RunOptions &options, const RunConfig &config) {
    RunRequest request;
    request.config = config;
    request.recordFile = options.recordPath;
    request.recordsFolder = options.outDir;
    request.tensorBoardFolder = options.logDir;
    return request;
}

RecordedRun runOne(const RunOptions &options, const std::vector<RunConfig> &runs, std::size_t i,
                   RunSet &store, std::ostream &out, std::ostream &err,
                   const std::atomic<bool> &stopRequested) {
    ConsoleObserver observer(out, err, store, static_cast<int>(i) + 1, runs[i], false);
    RecordedRun run = runRecorded(requestOf(options, runs[i]), &observer, stopRequested);
    observer.finish(run);
    return run;
}

// All of `runs` at once, their epochs in alternation (--interleave; interleaved_run.h), each
// with its console observer as runOne's.
std::vector<RecordedRun> runInterleaved(const RunOptions &options,
                                        const std::vector<RunConfig> &runs, RunSet &store,
                                        std::ostream &out, std::ostream &err,
                                        const std::atomic<bool> &stopRequested) {
    std::vector<std::unique_ptr<ConsoleObserver>> observers;
    std::vector<RecordObserver *> downstream;
    std::vector<RunRequest> requests;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        observers.push_back(std::make_unique<ConsoleObserver>(
            out, err, store, static_cast<int>(i) + 1, runs[i], true));
        downstream.push_back(observers.back().get());
        requests.push_back(requestOf(options, runs[i]));
    }
    out << "interleaved: the runs' epochs alternate (run 1 epoch 1, run 2 epoch 1, ...), each "
           "run in a process of its own\n";
    // Each child logs at this process's level, on this process's stderr.
    const ChildProgram child{trainChildCommand("devicebench-cli"), "devicebench-cli train-child",
                             true};
    std::vector<RecordedRun> ended =
        runRecordedInterleaved(requests, downstream, stopRequested, &child);
    for (std::size_t i = 0; i < ended.size() && i < observers.size(); ++i)
        observers[i]->finish(ended[i]);
    return ended;
}

// The files a run wrote ("wrote ..." on `out`) or could not write (on `err`). False when one
// could not be written.
bool reportRunFiles(const RecordedRun &run, std::ostream &out, std::ostream &err) {
    bool ok = true;
    if (!run.recordPath.empty()) {
        if (run.recordError.empty()) {
            out << "wrote record " << run.recordPath << "\n";
        } else {
            err << "devicebench-cli: error: " << run.recordError << "\n";
            ok = false;
        }
    }
    if (!run.eventError.empty()) {
        err << "devicebench-cli: error: " << run.eventError << "\n";
        ok = false;
    } else if (!run.eventFile.empty()) {
        out << "wrote TensorBoard events " << run.eventFile << "\n";
    }
    return ok;
}

// A run's entry in `run --json`'s "runs".
OrderedJson runJson(const RecordedRun &run, const std::string &label, const RunConfig &config) {
    OrderedJson json = recordJson(run.record);
    json["label"] = label;
    json["summary"] = summaryJson(run.outcome.summary);
    json["contendedStableEpochs"] = contendedStableEpochs(run.outcome.epochs, config.warmupEpochs);
    json["speedChangedStableEpochs"] =
        speedChangedStableEpochs(run.outcome.epochs, config.warmupEpochs);
    json["canaryDrift"] = stableCanaryDrift(run.outcome.epochs, config.warmupEpochs);
    json["recordFile"] =
        run.recordPath.empty() ? OrderedJson(nullptr) : OrderedJson(run.recordPath);
    json["tensorboardFile"] =
        run.eventFile.empty() ? OrderedJson(nullptr) : OrderedJson(run.eventFile);
    return json;
}

// With a target, the runs compared by what they deliver: each one's time to it and its
// speed-up against the slowest run that reached it (time_to_target.h); nothing without one.
void printTargetComparison(std::ostream &out, const std::vector<RunConfig> &runs,
                           const std::vector<RecordedRun> &results) {
    std::vector<TargetResult> targets;
    double slowest = 0.0;
    for (const RecordedRun &r : results) {
        targets.push_back(timeToTarget(r.record.epochs, r.record.config.targetAccuracy));
        if (targets.back().reached)
            slowest = std::max(slowest, targets.back().seconds);
    }
    if (std::none_of(targets.begin(), targets.end(), [](const TargetResult &t) { return t.set; }))
        return;
    out << "time to accuracy (speed-up against the slowest run that reached the target):\n";
    for (std::size_t i = 0; i < targets.size(); ++i) {
        out << "  " << runName(runs, i) << ": "
            << (targets[i].set ? describeTarget(targets[i]) : std::string("no target"));
        if (targets[i].reached && targets[i].seconds > 0.0)
            out << "  " << fixed(slowest / targets[i].seconds, 2) << "x";
        out << "\n";
    }
}

// The comparison of several runs: each one's stable mean and its speed-up against the slowest,
// marked "biased" when the machine was not the same speed during the two (machine_speed.h).
void printComparison(std::ostream &out, const std::vector<RunConfig> &runs,
                     const std::vector<RecordedRun> &results) {
    double slowest = 0.0;
    std::size_t slowestAt = 0;
    for (std::size_t i = 0; i < results.size(); ++i) {
        const Summary &s = results[i].outcome.summary;
        if (s.hasStable && s.stableMean > slowest) {
            slowest = s.stableMean;
            slowestAt = i;
        }
    }
    std::vector<std::string> warnings;
    out << "comparison (stable mean seconds per epoch; speed-up against the slowest run):\n";
    for (std::size_t i = 0; i < results.size(); ++i) {
        const auto &s = results[i].outcome.summary;
        out << "  " << runName(runs, i) << ": ";
        const MachineSpeedDifference machine =
            i == slowestAt ? MachineSpeedDifference{}
                           : machineSpeedDifference(results[slowestAt].record, results[i].record);
        if (s.hasStable) {
            out << fixed(s.stableMean, 3) << " s  " << fixed(slowest / s.stableMean, 2) << "x"
                << (machine.biased ? "  (biased: see the warning below)" : "") << "\n";
        } else {
            out << "no stable epochs\n";
        }
        const std::string warning = machineSpeedWarning(machine, "run #" + std::to_string(i + 1),
                                                        "run #" + std::to_string(slowestAt + 1));
        if (!warning.empty())
            warnings.push_back(warning);
    }
    for (const std::string &warning : warnings)
        out << "  WARNING: " << warning << "\n";
    printTargetComparison(out, runs, results);
}

// The exit code a run's end gives (kExitOk when it finished), said on `err` when it did not.
int reportRunEnd(const RunOutcome &outcome, const std::string &label, std::ostream &err) {
    if (outcome.status == RunStatus::Cancelled) {
        err << "devicebench-cli: run " << label << " cancelled: " << outcome.reason << "\n";
        return kExitCancelled;
    }
    if (outcome.status != RunStatus::Finished) {
        err << "devicebench-cli: run " << label << " " << toString(outcome.status) << ": "
            << outcome.reason << "\n";
        return kExitRunFailed;
    }
    return kExitOk;
}

// Every request as the engine checks it before a run (checkRunRequest: the settings, the
// Python of an article-script run, the TensorBoard folder), all before the first run starts.
// False, with each problem on `err`, when one is refused.
bool checkRequests(const RunOptions &options, const std::vector<RunConfig> &runs,
                   std::ostream &err) {
    bool ok = true;
    for (const RunConfig &config : runs) {
        for (const std::string &problem : checkRunRequest(requestOf(options, config))) {
            err << "devicebench-cli: error: " << problem << "\n";
            ok = false;
        }
        if (!ok)
            break; // the same Python would be refused again for the next run
    }
    return ok;
}

// What the runs gave: the store (every run, for the comparison and the exports), each run's
// result and its entry in --json's "runs".
struct RunResults {
    RunSet store;
    std::vector<RecordedRun> results;
    OrderedJson json = OrderedJson::array();
};

// Each run's "cost" (costJson) into its entry of --json's "runs"; entry i is run number i + 1,
// the store's id of it.
void addCosts(OrderedJson &runs, const RunSet &store) {
    for (std::size_t i = 0; i < runs.size(); ++i) {
        if (const RunEntry *run = store.findRun(static_cast<int>(i) + 1))
            runs[i]["cost"] = costJson(run->cost);
    }
}

// Runs every planned run (interleaved, or one after another until one is cancelled), printing
// each one's summary and files. Returns the exit code the runs give.
int runAll(const RunOptions &options, const std::vector<RunConfig> &runs, RunResults &done,
           std::ostream &out, std::ostream &err, const std::atomic<bool> &stopRequested) {
    int exitCode = kExitOk;
    const bool interleaved = options.interleave && runs.size() > 1;
    if (options.interleave && !interleaved)
        err << "devicebench-cli: note: --interleave has a single run to interleave; it runs "
               "alone\n";
    const std::vector<RecordedRun> together =
        interleaved ? runInterleaved(options, runs, done.store, out, err, stopRequested)
                    : std::vector<RecordedRun>();
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const RecordedRun run = interleaved
                                    ? together[i]
                                    : runOne(options, runs, i, done.store, out, err, stopRequested);
        const std::string label = "#" + std::to_string(i + 1) + " " + runs[i].device;
        printSummary(out, run.outcome, runs[i], run.record.sampling, label, options.base.synthetic);
        done.results.push_back(run);
        if (!reportRunFiles(run, out, err))
            exitCode = kExitRunFailed;
        if (options.json)
            done.json.push_back(runJson(run, label, runs[i]));
        if (const int code = reportRunEnd(run.outcome, label, err); code != kExitOk) {
            exitCode = code;
            if (code == kExitCancelled && !interleaved) // interleaved: every run has ended
                break;
        }
    }
    return exitCode;
}

} // namespace

int runPlanned(const RunOptions &options, const std::vector<RunConfig> &runs,
               const std::string &command, const std::string &intro, std::ostream &stdOut,
               std::ostream &err, const std::atomic<bool> &stopRequested) {
    // With --json, stdout carries the JSON document only; the text goes to a terminal.
    std::ostringstream dropped;
    std::ostream &text = isatty(fileno(stderr)) != 0 ? err : dropped;
    std::ostream &out = options.json ? text : stdOut;
    if (!checkRequests(options, runs, err))
        return kExitUsage;
    CostSettings prices;
    if (const int code = prepareCost(options.cost, err, &prices); code != kExitOk)
        return code;
    if (const int code = prepareRecordFolders(options, runs.size(), err); code != kExitOk)
        return code; // after every check: a refused command leaves no folder behind

    printHeader(out, runs);
    if (!intro.empty())
        out << intro << "\n";
    RunResults done;
    done.store.setCostSettings(prices);
    int exitCode = runAll(options, runs, done, out, err, stopRequested);
    if (runs.size() > 1)
        printComparison(out, runs, done.results);
    printCosts(out, done.store);
    if (options.baselineRun > 0)
        done.store.setBaseline(options.baselineRun); // the store's id is the run's number
    PublishedShown shown;
    const OrderedJson published =
        printPublishedAfterRuns(options.published, done.store, out, err, &shown);
    printProgramRatios(out, done.store);

    std::vector<std::string> written;
    if (!writeComparisonFiles(done.store, options.csvPath, options.pngPath, out, err, &written,
                              shown.shown ? &shown.beside : nullptr,
                              shown.shown ? &shown.sets : nullptr))
        exitCode = exitCode == kExitOk ? kExitRunFailed : exitCode;
    if (!options.htmlPath.empty() &&
        !writeReportFile(options.htmlPath, done.store, shown.shown ? &shown.sets : nullptr,
                         shown.shown ? &shown.beside : nullptr, out, err, &written))
        exitCode = exitCode == kExitOk ? kExitRunFailed : exitCode;
    if (options.json) {
        OrderedJson document;
        document["command"] = command;
        document["version"] = kVersion;
        document["exitCode"] = exitCode;
        document["synthetic"] = options.base.synthetic;
        addCosts(done.json, done.store);
        document["runs"] = std::move(done.json);
        document["files"] = OrderedJson(written);
        if (!published.is_null())
            document["published"] = published;
        document["programRatios"] = programRatiosJson(done.store);
        stdOut << dumpJson(document) << std::flush;
    }
    return exitCode;
}

} // namespace devicebench::cli
