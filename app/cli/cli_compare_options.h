// SPDX-License-Identifier: MIT
// What `compare` and `report` are asked for (CompareOptions) and the options that fill it.
#pragma once

#include "cli_cost.h"
#include "cli_published.h"

#include <CLI/CLI.hpp>

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

// compare's options (records, --csv, --png, --baseline, --warmup-epochs, --runs, --json, the
// published and cost options) into `options` on `command`; `report` has them too. Returns the
// --baseline option, which finishCompareOptions reads after the parse.
CLI::Option *addCompareOptions(CLI::App &command, CompareOptions &options);

// What the parse leaves to derive: baselineGiven, and published.show set by any published flag.
void finishCompareOptions(CompareOptions &options, const CLI::Option &baselineOption);

} // namespace devicebench::cli
