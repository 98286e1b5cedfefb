// SPDX-License-Identifier: MIT
// The comparison as CSV (every run of a RunSet): the per-epoch and the summary file, the same
// from the CLI and the dashboard's "Export CSV". UTF-8, '.' as the decimal point whatever the
// locale, RFC 4180 quoting. Plain C++.
#pragma once

#include "devicebench/planned_outputs.h"

#include <stdexcept>
#include <string>
#include <vector>

namespace devicebench {

class RunSet;
struct PublishedBeside;
struct PublishedSet;

// A file of the comparison could not be written; what() names the path and the OS error,
// e.g. "Cannot write /x/y.csv: No such file or directory".
class ExportError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// One CSV cell, RFC 4180 quoted where needed. Text a spreadsheet would run as a formula
// (starting with '=', '+', '-', '@', TAB or CR; OWASP "CSV Injection") gets a leading ': "=1+1"
// -> "'=1+1"; a number (isCsvNumber) is left as it is. Every writer's cells go through it.
std::string csvField(const std::string &field);

// `value` as "%.<decimals>f" in the C locale whatever the process locale (a Qt application sets
// the user's): "1234.50"; "nan", "inf", "-inf" when not finite.
std::string csvNumber(double value, int decimals);

// True when `text` is a number as the writers print them ("-1.5", "+2e-3", "nan", "-inf").
bool isCsvNumber(const std::string &text);

// The per-epoch CSV: a header line, then one line per run and finished epoch, runs in set
// order, ending with what the system sampler read in the epoch (CPU, memory, GPU, energy).
// Columns and cell formats: docs/run-record.md, "The comparison CSV"; the table they are
// written from: epochCsvColumns() (csv_columns.h).
std::string epochCsv(const RunSet &runs);
// Its columns, counted from its table.
int epochCsvColumnCount();

// The summary CSV: a header line, then one line per run (statistics, speed-up against the
// baseline, fingerprint, model, phase split, the stable epochs' system readings and energy,
// and at the end what the run costs under the set's prices: cost.h). Columns: docs/run-record.md.
std::string summaryCsv(const RunSet &runs);
// Its columns, counted from its table.
int summaryCsvColumnCount();

// The summary CSV with the published rows (published.h) after the runs: summaryCsv's columns,
// then three more at the end, "origin" ("run" or "published"), "published_note" (like for like,
// other program ..., other settings ...) and "published_source" (the source's title), so that a
// reader of the first summaryCsvColumnCount() columns reads it as before. A published row fills
// run (its label), device, status "published", epochs, warmup_epochs, stable_mean_s, speedup
// (against `baseline`: a chosen published row, else the runs' baseline), baseline, comparable
// (1: like for like), model, image_size and precision; its other cells are empty. `beside` is
// publishedBeside(*sets, runs, ...); null: publishedBeside(*sets, runs). `sets` null: summaryCsv.
std::string summaryCsv(const RunSet &runs, const PublishedBeside *beside,
                       const std::vector<PublishedSet> *sets);
// Its columns: summaryCsvColumnCount() and the three.
int summaryCsvPublishedColumnCount();

// The groups CSV: a header line, then one line per group of repeated runs (run_groups.h): its
// runs, n, mean of the stable means with the interval over the runs and min-max, speed-up
// against the baseline group. A file of its own, so that the per-run files keep their rows.
// Columns: docs/run-record.md. Written by writeComparisonCsv beside the summary.
std::string groupsCsv(const RunSet &runs);
// Its columns, counted from its table.
int groupsCsvColumnCount();

// Where the groups CSV goes beside `csvPath`: "x/out.csv" -> "x/out-groups.csv".
std::string groupsCsvPath(const std::string &csvPath);

// Where the summary CSV goes beside the per-epoch CSV `csvPath`: "x/out.csv" ->
// "x/out-summary.csv" (".csv" in any case; a path without it gets "-summary.csv" appended).
std::string summaryCsvPath(const std::string &csvPath);

// The three files writeComparisonCsv writes for `csvPath`, in order: per epoch, per run, per
// group ({csvPath, summaryCsvPath(csvPath), groupsCsvPath(csvPath)}).
std::vector<std::string> comparisonCsvPaths(const std::string &csvPath);

// The comparison files a command writes, for checkPlannedOutputs (planned_outputs.h) with its
// other outputs: `pngPath`, `csvPath` and the two CSVs beside it, `htmlPath`, each named by
// its flag: `flagPrefix` + "png", "csv", "html" ("--png"; the dashboard's "--export-png"), and
// "the per-run CSV beside --csv", ...; "" paths are skipped.
std::vector<PlannedOutput> comparisonOutputs(const std::string &csvPath, const std::string &pngPath,
                                             const std::string &htmlPath,
                                             const std::string &flagPrefix = "--");

// "a, b and c": the names for a "wrote ..." or "Saved ..." line.
std::string listedPaths(const std::vector<std::string> &paths);

// Writes `bytes` to `path` atomically (atomic_file.h). Throws ExportError "Cannot write <path>:
// <OS error>" (or "...: only N of M bytes could be written (disk full?)"); `path` then stays as
// it was.
void writeExportFile(const std::string &path, const std::string &bytes);

// Writes epochCsv() to `csvPath`, then summaryCsv() to summaryCsvPath(csvPath), then
// groupsCsv() to groupsCsvPath(csvPath). Throws ExportError as writeExportFile. The three
// targets are checked first (checkReplaceable, atomic_file.h): a folder or device in the way
// stops the set before any file is written; a write that fails later leaves the later ones
// unwritten.
void writeComparisonCsv(const RunSet &runs, const std::string &csvPath);

// The same with the published rows in the summary (summaryCsv with `beside` and `sets`).
void writeComparisonCsv(const RunSet &runs, const std::string &csvPath,
                        const PublishedBeside *beside, const std::vector<PublishedSet> *sets);

} // namespace devicebench
