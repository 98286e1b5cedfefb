// SPDX-License-Identifier: MIT
// `devicebench-cli compare RECORD...`: runs recorded here or elsewhere, side by side, with the
// same store, PNG and CSVs as the dashboard's "Import runs…".
#pragma once

#include "cli_command.h"
#include "cli_cost.h"
#include "cli_published.h"

#include <iosfwd>
#include <string>
#include <vector>

namespace devicebench::cli {

struct CompareOptions {
    std::vector<std::string> records; // run record files (docs/run-record.md)
    std::string csvPath;  // per-epoch CSV; the summary goes beside it as FILE-summary.csv
    std::string pngPath;  // the comparison picture
    std::string htmlPath; // the HTML report (report -o); empty: none
    std::string htmlFlag = "--html"; // how messages name htmlPath (report: "-o")
    int baseline = 0;                // 1-based position in `records` (when baselineGiven)
    bool baselineGiven = false;      // false: the slowest run is the baseline
    int warmupEpochs = -1;           // warm-up epochs for every run; -1 = each run's own
    bool json = false;               // as RunOptions::json
    bool runs = false;               // --runs: the runs one by one after the groups
    PublishedOptions published;      // --published: the published results beside the runs
    CostOptions cost;                // --price-per-hour, --price-per-kwh, --prices
};

// Adds the `compare` subcommand, its options and its action to `app`.
CLI::App *addCompareCommand(CLI::App &app, const CommandContext &context, CommandAction &chosen);

// compare's options (records, --csv, --png, --baseline, --warmup-epochs, --runs, --json, the
// published and cost options) into `options` on `command`; `report` has them too. Returns the
// --baseline option, which finishCompareOptions reads after the parse.
CLI::Option *addCompareOptions(CLI::App &command, CompareOptions &options);

// What the parse leaves to derive: baselineGiven, and published.show set by any published flag.
void finishCompareOptions(CompareOptions &options, const CLI::Option &baselineOption);

// Loads every record (a bad one: "skipped <file>: <reason>" on `err`, the others load),
// prints the groups of repeated runs (run_groups.h: label, runs, n, mean of the stable means
// with its interval and min-max, speed-up against the baseline group), the runs' warnings, the
// control summarised (the largest test-loss difference and its pair, every pair above
// kTestLossWarning), and with --runs the per-run table (run label, status, stable mean, 95%
// interval, speed-up against the baseline run, comparable or the differing fields), the
// per-run lines and every control pair; and writes the PNG and CSVs of the runs that loaded. A
// record given twice (same path or same run id) is compared once and reported as skipped. Returns
// kExitOk; kExitRunFailed when a record was skipped or an output could not be written; kExitUsage
// when no record loaded,
// --baseline is not 1..N, or --warmup-epochs is not below every loaded run's epochs, or
// (before any record is read) an output cannot be written or two outputs name one file
// (checkPlannedOutputs, planned_outputs.h). With htmlPath, the HTML report is written last.
// With --published, the published rows follow (cli_published.h), and no record is needed.
int compareCommand(const CompareOptions &options, std::ostream &out, std::ostream &err);

} // namespace devicebench::cli
