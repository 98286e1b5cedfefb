// SPDX-License-Identifier: MIT
// `devicebench-cli compare RECORD...`: runs recorded here or elsewhere, side by side, with the
// same store, PNG and CSVs as the dashboard's "Import runs…".
#pragma once

#include "cli_command.h"
#include "cli_compare_options.h"

#include <iosfwd>
#include <string>
#include <vector>

namespace devicebench::cli {

// Adds the `compare` subcommand, its options and its action to `app`.
CLI::App *addCompareCommand(CLI::App &app, const CommandContext &context, CommandAction &chosen);

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
