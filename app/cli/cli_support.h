// SPDX-License-Identifier: MIT
// Small pieces shared by the CLI's subcommands.
#pragma once

#include "devicebench/planned_outputs.h"

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace devicebench {
class RunSet;
struct PublishedBeside;
struct PublishedSet;
struct SweepCellRecord;
} // namespace devicebench

namespace devicebench::cli {

// `value` with `decimals` digits after the point ("–" when not finite).
std::string fixed(double value, int decimals);

// `n` and the noun: "1 model", "2 models".
std::string count(std::size_t n, const char *one, const char *many);

// Width in terminal columns of UTF-8 text (code points; labels are mostly ASCII), and `text`
// padded with spaces to `width` columns: the tables of compare and run.
std::size_t columns(const std::string &text);
std::string pad(const std::string &text, std::size_t width);

// The model a run trains, for its first line: "<model> at <S> px" and, when known
// (not 0), its trainable parameters and forward multiply-adds per image, e.g.
// "resnet18 at 32 px (11,173,962 parameters, 555.4 M multiply-adds per image)".
// 11173962 -> "11,173,962".
std::string grouped(std::int64_t value);

std::string describeModel(const std::string &model, int imageSize, std::int64_t parameters,
                          std::int64_t multiplyAddsPerImage);

// The comparison picture (--png): writeComparisonPng() of the full build (ui/png_export.h).
// Without it (DEVICEBENCH_BUILD_UI=OFF), false with `*error` saying that PNG needs the full
// build. kPngAvailable tells which, so that --png is refused before any run.
#ifdef DEVICEBENCH_HAVE_PNG
inline constexpr bool kPngAvailable = true;
#else
inline constexpr bool kPngAvailable = false;
#endif
inline constexpr const char *kPngNeedsFullBuild =
    "--png needs the full build (DEVICEBENCH_BUILD_UI=ON): this devicebench-cli was built "
    "without Qt; write the CSV with --csv, or draw the picture with a full build's "
    "`devicebench-cli compare RECORD... --png FILE` from the run records";
// `published` (may be null): the published sets, drawn as hatched bars beside the runs.
bool writePng(const RunSet &runs, const std::string &path, std::string *error,
              const std::vector<PublishedSet> *published = nullptr);

// The outputs of `run`, `reproduce` and `compare`: the per-epoch CSV with its summary beside it
// (csvPath) and the picture (pngPath) of `runs`, each where its path is not empty; "wrote ..."
// on `out`, "devicebench-cli: error: ..." on `err`. The paths written go to *written. False
// when one could not be written. With `sets` (the published rows shown, `beside` as shown), the
// summary holds the published rows (summaryCsv, csv_export.h) and the picture their bars.
bool writeComparisonFiles(const RunSet &runs, const std::string &csvPath,
                          const std::string &pngPath, std::ostream &out, std::ostream &err,
                          std::vector<std::string> *written,
                          const PublishedBeside *beside = nullptr,
                          const std::vector<PublishedSet> *sets = nullptr);

// The sweep picture (sweep --png): writeSweepPng() of the full build (ui/sweep_png.h); without
// it, false with `*error` = kPngNeedsFullBuild, as writePng.
bool writeSweepPicture(const std::vector<SweepCellRecord> &records,
                       const std::string &baselineLabel, const std::string &path,
                       std::string *error);

// Splits each value of a list flag ("1,2", or the flag given twice) into its items into
// *items. CLI11's own splitting drops empty items, so "1,,2" would run 1 and 2 without a word:
// refused here. Returns "" or the problem, naming the flag and the value; `expected` says what
// an item is ("cpu, cuda or cuda:N").
std::string splitList(const char *flag, const char *expected, const std::vector<std::string> &given,
                      std::vector<std::string> *items);

// Each item as a whole number into *values: "2x", "1.5" and "" are refused. Returns "" or
// "<flag>: '<item>' is not a whole number".
std::string parseWholeNumbers(const char *flag, const std::vector<std::string> &items,
                              std::vector<int> *values);

// Checks `outputs` against each other and against the files the command reads, `inputs`, before
// anything runs (checkPlannedOutputs): kExitOk, or kExitUsage with each problem on `err` as
// "devicebench-cli: error: ...".
int refuseBadOutputs(const std::vector<PlannedOutput> &outputs,
                     const std::vector<PlannedInput> &inputs, std::ostream &err);

// Creates the record folder `dir` (--out-dir) with its parents when missing. "" when it is a
// writable folder now, else "cannot create the record folder <dir>: <OS error>" or "cannot
// write records into <dir>: the folder is not writable".
std::string makeRecordFolder(const std::string &dir);

} // namespace devicebench::cli
