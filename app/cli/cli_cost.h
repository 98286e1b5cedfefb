// SPDX-License-Identifier: MIT
// What the runs cost (devicebench/cost.h) in `run`, `reproduce` and `compare`: the options
// (--price-per-hour, --price-per-kwh, --prices), the prices they give, the block of cost lines
// after the runs and each run's "cost" in --json.
#pragma once

#include "cli_json.h"

#include "devicebench/cost.h"
#include "devicebench/run_groups.h"

#include <CLI/CLI.hpp>

#include <iosfwd>
#include <string>

namespace devicebench {
class RunSet;
}

namespace devicebench::cli {

// The cost options as given; empty: not given.
struct CostOptions {
    std::string pricePerHour; // "0.35" for every run, or "cuda=0.35,cpu=0"
    std::string pricePerKwh;  // "0.30"
    std::string pricesFile;   // a price table of the user's (same format as the shipped one)
};

// --price-per-hour, --price-per-kwh and --prices on `command`.
void addCostOptions(CLI::App &command, CostOptions &options);

// The prices `options` give into *settings: the table of --prices, else the shipped one (a
// missing shipped table is a note on `err`, and runs get no table price), the user's prices
// over it. kExitOk, or kExitUsage with "devicebench-cli: error: --price-per-hour 'x': ..."
// naming the flag and the value (or the --prices file's field) on `err`.
int prepareCost(const CostOptions &options, std::ostream &err, CostSettings *settings);

// One cost line per run of `store` (costLine), under a header that says what the figures are;
// nothing for an empty store.
void printCosts(std::ostream &out, const RunSet &store);

// The same a group of repeated runs a line (meanCost of its runs), for compare without --runs.
void printGroupCosts(std::ostream &out, const RunSet &store, const RunGroups &groups);

// A run's cost in --json: costJson (comparison_json.h).

} // namespace devicebench::cli
