// SPDX-License-Identifier: MIT
// The published results (the article's table, the user's own reference files: published.h)
// beside the runs of `compare --published` and `run`: the options, the table and the
// like-for-like line, and the "published" array of --json.
#pragma once

#include "cli_json.h"

#include "devicebench/planned_outputs.h"
#include "devicebench/published.h"

#include <CLI/CLI.hpp>

#include <iosfwd>
#include <string>
#include <vector>

namespace devicebench {
class RunSet;
}

namespace devicebench::cli {

struct PublishedOptions {
    bool show = false;          // compare: --published; run: on unless --no-published
    std::string extraDir;       // --published-dir: one more folder of reference files
    int baselineRow = 0;        // compare: --published-baseline N (1-based over all rows); 0: none
    bool baselineGiven = false; // --published-baseline was given (0 and below are refused)
};

// compare's --published, --published-dir and --published-baseline.
void addComparePublishedOptions(CLI::App &command, PublishedOptions &options);

// run's --no-published and --published-dir (the block is shown by default).
void addRunPublishedOptions(CLI::App &command, PublishedOptions &options);

// "" when --published-dir is not given or names a folder that can be read, else the problem
// naming it: "--published-dir '/x' does not exist", "... is not a folder", "... cannot be read:
// <OS error>". Checked before anything runs (exit 2), as a bad file inside it is named.
std::string publishedDirProblem(const PublishedOptions &options);

// The reference files the published block will read (every "*.json" of publishedFolders), as
// inputs that no output of the command may replace; none when the block is not shown.
std::vector<PlannedInput> publishedInputs(const PublishedOptions &options);

// The reference files of publishedFolders(options.extraDir); each that cannot be read is said on
// `err` ("devicebench-cli: skipped <file>: <problem>") and left out.
PublishedLoad loadPublishedFiles(const PublishedOptions &options, std::ostream &err);

// Loads the reference files (loadPublishedFiles) and sets them beside the store's runs
// (publishedBeside with options.baselineRow) into *load and *beside. A missing built-in file
// is said on `err`. kExitOk, or kExitUsage when --published-baseline names no row.
int preparePublished(const PublishedOptions &options, const RunSet &store, std::ostream &err,
                     PublishedLoad *load, PublishedBeside *beside);

// The published rows beside the store's runs: a table (run or row, stable mean, speed-up against
// the baseline, the note: like for like, other program, other settings), each source's title and
// note, and per set one line saying which runs can be compared with it like for like.
// `beside` is publishedBeside(load.sets, store, baseline row).
void printPublished(std::ostream &out, const PublishedLoad &load, const PublishedBeside &beside,
                    const RunSet &store);

// What printPublishedAfterRuns showed, for the exports (the CSV's published rows, the PNG).
struct PublishedShown {
    bool shown = false;
    std::vector<PublishedSet> sets;
    PublishedBeside beside; // publishedBeside(sets, store)
};

// run's block after its summaries: loads the reference files and prints printPublished's
// block, only when options.show, the store has a run and the built-in file was found. Returns
// publishedJson's array, or null when nothing was shown; what was shown goes to *shown (when
// not null).
OrderedJson printPublishedAfterRuns(const PublishedOptions &options, const RunSet &store,
                                    std::ostream &out, std::ostream &err,
                                    PublishedShown *shown = nullptr);

// One line per article-script run of the store and its faithful partner that differ only in
// the program (programRatios, reproduction.h): "DeviceBench's faithful workload: 0.79 x the
// article's script on ..."; nothing when there is none.
void printProgramRatios(std::ostream &out, const RunSet &store);

// --json's "programRatios" and "published": programRatiosJson and publishedJson
// (comparison_json.h).

} // namespace devicebench::cli
