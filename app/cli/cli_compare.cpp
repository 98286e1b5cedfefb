// SPDX-License-Identifier: MIT
// `devicebench-cli compare RECORD...` (cli_compare.h).
#include "cli_compare.h"
#include "cli_compare_control.h"
#include "cli_cost.h"
#include "cli_json.h"
#include "cli_phases.h"
#include "cli_report_file.h"
#include "cli_support.h"
#include "cli_target.h"

#include "devicebench/comparison.h"
#include "devicebench/contention.h"
#include "devicebench/csv_export.h"
#include "devicebench/machine_drift.h"
#include "devicebench/machine_speed.h"
#include "devicebench/run_groups.h"
#include "devicebench/run_record.h"
#include "devicebench/run_set.h"
#include "devicebench/version.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <iomanip>
#include <memory>
#include <ostream>
#include <sstream>
#include <unistd.h>

namespace devicebench::cli {
namespace {

std::string interval(double low, double high, int decimals) {
    if (std::isnan(low) || std::isnan(high))
        return "";
    if (std::isinf(high)) // a speed-up whose run interval reaches zero: unbounded above
        return "[" + fixed(low, decimals) + ", inf]";
    return "[" + fixed(low, decimals) + ", " + fixed(high, decimals) + "]";
}

std::string joined(const std::vector<std::string> &fields, const char *separator) {
    std::string text;
    for (const auto &f : fields)
        text += (text.empty() ? "" : separator) + f;
    return text;
}

// What can be refused before any record is read: --baseline outside 1..N, --png without the
// full build. kExitOk or kExitUsage.
int checkOptions(const CompareOptions &options, std::ostream &err) {
    const int recordCount = static_cast<int>(options.records.size());
    if (recordCount == 0 && !options.published.show) {
        err << "devicebench-cli: error: compare needs at least one run record (or --published)\n";
        return kExitUsage;
    }
    if (recordCount == 0 && (!options.csvPath.empty() || !options.pngPath.empty())) {
        err << "devicebench-cli: error: --csv and --png draw run records: give at least one "
               "(the published rows are in the text and in --json)\n";
        return kExitUsage;
    }
    if (options.baselineGiven && (options.baseline < 1 || options.baseline > recordCount)) {
        err << "devicebench-cli: error: --baseline " << options.baseline << ": " << recordCount
            << (recordCount == 1 ? " record was" : " records were") << " given (choose 1-"
            << recordCount << ")\n";
        return kExitUsage;
    }
    if (!options.pngPath.empty() && !kPngAvailable) {
        err << "devicebench-cli: error: " << kPngNeedsFullBuild << "\n";
        return kExitUsage;
    }
    if (const std::string problem = publishedDirProblem(options.published); !problem.empty()) {
        err << "devicebench-cli: error: " << problem << "\n";
        return kExitUsage;
    }
    std::vector<PlannedOutput> outputs =
        comparisonOutputs(options.csvPath, options.pngPath, options.htmlPath);
    outputs.back().what = options.htmlFlag; // the report's -o
    // What compare reads, which none of them may replace.
    std::vector<PlannedInput> inputs = publishedInputs(options.published);
    for (const std::string &record : options.records)
        inputs.push_back({"the run record", record});
    inputs.push_back({"the --prices file", options.cost.pricesFile});
    return refuseBadOutputs(outputs, inputs, err);
}

// Reads every record into `store`; one that cannot be read, or the same run again, is said on
// `err` and goes to `skipped`. Returns the store's id of the --baseline record, 0 when none.
int loadRecords(const CompareOptions &options, RunSet &store, std::ostream &err,
                OrderedJson &skipped) {
    int baselineId = 0;
    const int recordCount = static_cast<int>(options.records.size());
    for (int i = 0; i < recordCount; ++i) {
        const std::string &path = options.records[static_cast<std::size_t>(i)];
        try {
            const RunRecord record = readRunRecord(path);
            const int before = store.runCount();
            const int index = store.addRecord(record, path);
            if (options.baselineGiven && i + 1 == options.baseline)
                baselineId = store.run(index).id;
            if (store.runCount() == before) { // the store keeps one run per run id
                err << "devicebench-cli: skipped " << path << ": the same run (run id "
                    << record.runId << ") as " << store.run(index).origin << ", compared once\n";
                skipped.push_back({{"file", path}, {"reason", "the same run as another file"}});
            }
        } catch (const std::exception &e) {
            // The reason usually names the file already ("<file>: <problem>"): once is enough.
            std::string reason = e.what();
            if (reason.rfind(path + ": ", 0) == 0)
                reason.erase(0, path.size() + 2);
            err << "devicebench-cli: skipped " << path << ": " << reason << "\n";
            skipped.push_back({{"file", path}, {"reason", reason}});
        }
    }
    return baselineId;
}

// What needs the loaded runs: at least one, and --warmup-epochs below every run's epochs.
// kExitOk or kExitUsage.
int checkLoaded(const CompareOptions &options, const RunSet &store, std::ostream &err) {
    if (store.runCount() == 0 && !options.published.show) {
        err << "devicebench-cli: error: no run record could be read\n";
        return kExitUsage;
    }
    if (options.warmupEpochs < 0)
        return kExitOk;
    for (const RunEntry &run : store.runs()) {
        if (options.warmupEpochs >= run.record.config.epochs) {
            err << "devicebench-cli: error: --warmup-epochs " << options.warmupEpochs
                << " leaves no stable epoch: " << run.origin << " has " << run.record.config.epochs
                << " epochs (choose fewer warm-up epochs than "
                << "every run has epochs)\n";
            return kExitUsage;
        }
    }
    return kExitOk;
}

void printHeader(std::ostream &out, const RunSet &store, const RunGroups &groups) {
    const std::size_t groupCount = groups.groups.size();
    out << "DeviceBench " << kVersion << ": " << store.runCount()
        << (store.runCount() == 1 ? " run" : " runs") << " in " << groupCount
        << (groupCount == 1 ? " group" : " groups")
        << " (stable mean = mean seconds per epoch after warm-up; 95% interval, Student t on "
           "the log of the times)\n";
    if (store.anySynthetic())
        out << "SYNTHETIC DATA in some runs: times are real, accuracy is meaningless\n";
}

struct Row {
    std::string label, status, mean, interval, speedUp, comparable;
};

Row tableRow(const RunEntry &run) {
    const Summary &s = run.summary;
    Row row;
    row.label = run.label;
    row.status = toString(run.state);
    row.mean = s.hasStable ? fixed(s.stableMean, 3) + " s" : "no stable epochs";
    row.interval = s.hasStable ? interval(s.ciLow, s.ciHigh, 3) : "";
    if (!row.interval.empty())
        row.interval += " s";
    if (run.isBaseline) {
        row.speedUp = "baseline";
    } else if (std::isfinite(run.speedUp.ratio)) {
        row.speedUp = fixed(run.speedUp.ratio, 2) + "x";
        const std::string i = interval(run.speedUp.low, run.speedUp.high, 2);
        if (!i.empty())
            row.speedUp += " " + i;
    } else {
        row.speedUp = "–";
    }
    if (run.machineSpeed.biased) // the machine's speed changed between the two runs
        row.speedUp += " (biased)";
    row.comparable = run.comparable() ? "yes" : "not comparable: " + joined(run.differences, ", ");
    return row;
}

// The table, one row per run under a header, columns sized to their contents.
void printTable(std::ostream &out, const RunSet &store, const RunEntry &baseline) {
    std::vector<Row> rows;
    rows.push_back({"run", "status", "stable mean", "95% interval",
                    "speed-up vs #" + std::to_string(baseline.number), "comparable"});
    for (const RunEntry &run : store.runs())
        rows.push_back(tableRow(run));
    std::size_t w[5] = {0, 0, 0, 0, 0};
    for (const Row &row : rows) {
        w[0] = std::max(w[0], columns(row.label));
        w[1] = std::max(w[1], columns(row.status));
        w[2] = std::max(w[2], columns(row.mean));
        w[3] = std::max(w[3], columns(row.interval));
        w[4] = std::max(w[4], columns(row.speedUp));
    }
    for (const Row &row : rows) {
        out << "  " << pad(row.label, w[0]) << "  " << pad(row.status, w[1]) << "  "
            << pad(row.mean, w[2]) << "  " << pad(row.interval, w[3]) << "  "
            << pad(row.speedUp, w[4]) << "  " << row.comparable << "\n";
    }
}

// Each run's achieved GFLOP/s (achievedGflops, comparison.h), where its model's multiply-adds
// are known.
void printThroughput(std::ostream &out, const RunSet &store) {
    bool header = false;
    for (const RunEntry &run : store.runs()) {
        const RunStarted &s = run.record.started;
        const double gflops = achievedGflops(run.record, run.summary);
        if (!std::isfinite(gflops))
            continue;
        if (!header)
            out << "achieved (the model's counted multiply-adds x 2 FLOP, training x 3, per "
                   "stable-mean epoch):\n";
        header = true;
        out << "  #" << run.number << " " << fixed(gflops, 2) << " GFLOP/s  "
            << describeModel(run.record.model, run.record.config.imageSize, s.modelParameters,
                             s.multiplyAddsPerImage)
            << "\n";
    }
}

// The warnings and notes on what a run's numbers rest on.
void printCaveats(std::ostream &out, const RunSet &store, const RunEntry &baseline) {
    // A stable mean with epochs from a busy machine is not the device's alone.
    for (const RunEntry &run : store.runs()) {
        const std::string warning = contentionWarning(run.record.epochs, run.warmupEpochs);
        if (!warning.empty())
            out << "WARNING #" << run.number << ": " << warning << "\n";
    }
    // A machine whose speed changed during a run, or between the run and the baseline.
    for (const RunEntry &run : store.runs()) {
        if (!speedChangedStableEpochs(run.record.epochs, run.warmupEpochs).empty())
            out << "WARNING #" << run.number << ": "
                << driftSummary(run.record.epochs, run.warmupEpochs) << "\n";
        const std::string across =
            machineSpeedWarning(run.machineSpeed, "run #" + std::to_string(run.number),
                                "run #" + std::to_string(baseline.number));
        if (!across.empty())
            out << "WARNING #" << run.number << ": " << across << "\n";
    }
    // A precision the device only emulates is slower than fp32 there: say so with its numbers.
    for (const RunEntry &run : store.runs()) {
        if (!run.record.started.precisionNative && !run.record.started.precisionNote.empty())
            out << "note: #" << run.number << ": " << run.record.started.precisionNote << "\n";
    }
    // Data identities from records made before the whole-file hash: comparable as before,
    // but say what that rests on (comparison.h, DataMatch).
    for (const RunEntry &run : store.runs()) {
        if (!run.isBaseline &&
            compareData(baseline.record, run.record) == DataMatch::SameByOlderMethod) {
            out << "note: #" << run.number << " and #" << baseline.number << ": "
                << dataNote(DataMatch::SameByOlderMethod) << "\n";
        }
    }
}

// A speed-up and its interval: "1.82x [1.45, 2.29]", "1.82x" without one, "–" without a ratio.
std::string speedUpText(const SpeedUp &s) {
    if (!std::isfinite(s.ratio))
        return "–";
    const std::string i = interval(s.low, s.high, 2);
    return fixed(s.ratio, 2) + "x" + (i.empty() ? "" : " " + i);
}

// The groups table: one row per group of repeated runs (run_groups.h), columns sized to their
// contents.
void printGroups(std::ostream &out, const RunSet &store, const RunGroups &groups) {
    const RunGroup &baseline = groups.groups[static_cast<std::size_t>(groups.baseline)];
    out << "groups (runs of one configuration on one machine: mean of their stable means, its "
           "95% interval over the runs with the epochs' spread, or one run's own; min-max of "
           "the runs):\n";
    std::vector<std::vector<std::string>> rows;
    rows.push_back({"group", "label", "runs", "n", "mean", "95% interval", "min-max",
                    "speed-up vs group " + std::to_string(baseline.number), "comparable"});
    for (const RunGroup &g : groups.groups) {
        const GroupStats &s = g.stats;
        const std::string ci = interval(s.ciLow, s.ciHigh, 3);
        rows.push_back(
            {std::to_string(g.number), g.label, runNumbersText(store, g.runs),
             "n = " + std::to_string(s.n), s.n > 0 ? fixed(s.mean, 3) + " s" : "no stable epochs",
             ci.empty() ? "" : ci + " s",
             s.n > 0 ? fixed(s.min, 3) + "-" + fixed(s.max, 3) + " s" : "",
             g.isBaseline ? "baseline" : speedUpText(g.speedUp),
             g.differences.empty() ? "yes" : "not comparable: " + joined(g.differences, ", ")});
    }
    std::vector<std::size_t> width(rows.front().size(), 0);
    for (const auto &row : rows) {
        for (std::size_t c = 0; c + 1 < row.size(); ++c)
            width[c] = std::max(width[c], columns(row[c]));
    }
    for (const auto &row : rows) {
        out << " ";
        for (std::size_t c = 0; c + 1 < row.size(); ++c)
            out << " " << pad(row[c], width[c]) << " ";
        out << " " << row.back() << "\n";
    }
}

// The runs' comparison: header, groups, with --runs the table, throughput and phase splits,
// then the caveats and the control summarised (with --runs every pair). Returns every control
// pair with --runs, none without.
std::vector<ControlPair> printRuns(std::ostream &out, const RunSet &store, const RunGroups &groups,
                                   const ControlSummary &control, bool runs) {
    const RunEntry &baseline = store.run(store.baselineIndex());
    printHeader(out, store, groups);
    printGroups(out, store, groups);
    printTimeToTarget(out, store, groups);
    if (runs) {
        out << "runs:\n";
        printTable(out, store, baseline);
        printThroughput(out, store);
        printPhaseSplits(out, store); // phase-timed runs
    }
    // What each run costs, or with repeated runs (and no --runs) each group.
    if (runs || groups.groups.size() == static_cast<std::size_t>(store.runCount()))
        printCosts(out, store);
    else
        printGroupCosts(out, store, groups);
    printCaveats(out, store, baseline);
    printControlSummary(out, store, control);
    if (!runs)
        return {};
    std::vector<ControlPair> pairs = store.controlPairs();
    printControl(out, store, pairs);
    return pairs;
}

} // namespace

int compareCommand(const CompareOptions &options, std::ostream &stdOut, std::ostream &err) {
    // With --json, stdout carries the JSON document only; the table goes to a terminal.
    std::ostringstream dropped;
    std::ostream &text = isatty(fileno(stderr)) != 0 ? err : dropped;
    std::ostream &out = options.json ? text : stdOut;
    if (const int code = checkOptions(options, err); code != kExitOk)
        return code;

    CostSettings prices;
    if (const int code = prepareCost(options.cost, err, &prices); code != kExitOk)
        return code;
    RunSet store;
    store.setWarmupEpochs(options.warmupEpochs);
    store.setCostSettings(prices);
    OrderedJson skipped = OrderedJson::array();
    const int baselineId = loadRecords(options, store, err, skipped);
    int exitCode = skipped.empty() ? kExitOk : kExitRunFailed;
    if (const int code = checkLoaded(options, store, err); code != kExitOk)
        return code;
    if (options.baselineGiven && baselineId == 0) {
        err << "devicebench-cli: --baseline " << options.baseline
            << ": that record was skipped; the baseline is the slowest run\n";
    }
    store.setBaseline(baselineId);
    PublishedLoad published;
    PublishedBeside beside;
    if (options.published.show) {
        if (const int code = preparePublished(options.published, store, err, &published, &beside);
            code != kExitOk)
            return code;
    }

    std::vector<ControlPair> pairs;
    RunGroups groups;
    ControlSummary control;
    if (store.runCount() > 0) {
        groups = groupRuns(store);
        control = summarizeControl(store);
        pairs = printRuns(out, store, groups, control, options.runs);
    }
    if (options.published.show) {
        printPublished(out, published, beside, store);
        printProgramRatios(out, store);
    }

    std::vector<std::string> written;
    const bool rows = options.published.show; // the published rows in the summary CSV, PNG
    if (store.runCount() > 0 &&
        !writeComparisonFiles(store, options.csvPath, options.pngPath, out, err, &written,
                              rows ? &beside : nullptr, rows ? &published.sets : nullptr))
        exitCode = kExitRunFailed;
    if (!options.htmlPath.empty() &&
        !writeReportFile(options.htmlPath, store, rows ? &published.sets : nullptr,
                         rows ? &beside : nullptr, out, err, &written))
        exitCode = kExitRunFailed;
    if (options.json) {
        ComparisonParts parts;
        parts.groups = &groups;
        parts.control = &control;
        parts.pairs = options.runs ? &pairs : nullptr; // every pair: with --runs only
        if (options.published.show) {
            parts.published = &published.sets;
            parts.beside = &beside;
        }
        const OrderedJson document =
            comparisonDocument(store, parts, exitCode, std::move(skipped), OrderedJson(written));
        stdOut << dumpJson(document) << std::flush;
    }
    return exitCode;
}

CLI::App *addCompareCommand(CLI::App &app, const CommandContext &context, CommandAction &chosen) {
    auto options = std::make_shared<CompareOptions>(); // kept by the callback
    auto *compare = app.add_subcommand(
        "compare", "Compare run records (made here or elsewhere): table, PNG and CSV");
    const CLI::Option *baselineOption = addCompareOptions(*compare, *options);
    setAction(*compare, chosen, [options, baselineOption, &context] {
        finishCompareOptions(*options, *baselineOption);
        return compareCommand(*options, context.out, context.err);
    });
    return compare;
}

} // namespace devicebench::cli
