// SPDX-License-Identifier: MIT
// What the runs cost (cli_cost.h).
#include "cli_cost.h"
#include "cli_command.h"

#include "devicebench/run_set.h"

#include <ostream>
#include <vector>

namespace devicebench::cli {

void addCostOptions(CLI::App &command, CostOptions &options) {
    command.add_option("--price-per-hour", options.pricePerHour,
                       "What the devices cost: PRICE per hour for every run, or DEVICE=PRICE "
                       "pairs (cuda=0.35,cpu=0); wins over the price table");
    command.add_option("--price-per-kwh", options.pricePerKwh,
                       "PRICE of a kWh: a run with no price per hour (or 0, a machine already "
                       "paid for) costs its measured energy at it");
    command.add_option("--prices", options.pricesFile,
                       "A price table of your own (JSON, the format of "
                       "share/devicebench/prices/prices.json) instead of the shipped examples");
}

int prepareCost(const CostOptions &options, std::ostream &err, CostSettings *settings) {
    CostSettings made;
    if (!options.pricePerHour.empty()) {
        if (const std::string problem = parsePriceOverrides(options.pricePerHour, &made.overrides);
            !problem.empty()) {
            err << "devicebench-cli: error: --price-per-hour '" << options.pricePerHour
                << "': " << problem << "\n";
            return kExitUsage;
        }
    }
    if (!options.pricePerKwh.empty()) {
        if (const std::string problem = parsePrice(options.pricePerKwh, &made.perKwh);
            !problem.empty()) {
            err << "devicebench-cli: error: --price-per-kwh '" << options.pricePerKwh
                << "': " << problem << "\n";
            return kExitUsage;
        }
    }
    try {
        if (!options.pricesFile.empty()) {
            made.table = readPriceTable(options.pricesFile);
        } else if (const std::string shipped = defaultPriceTablePath(); !shipped.empty()) {
            made.table = readPriceTable(shipped);
        }
    } catch (const PriceError &e) {
        if (!options.pricesFile.empty()) {
            err << "devicebench-cli: error: --prices: " << e.what() << "\n";
            return kExitUsage;
        }
        // A build or bundle without its data files still runs; its runs get no table price.
        err << "devicebench-cli: note: no shipped price table: " << e.what() << "\n";
    }
    *settings = std::move(made);
    return kExitOk;
}

namespace {

void printCostHeader(std::ostream &out, const char *what) {
    out << "cost (per stable epoch" << what << "; per " << kArticleRunEpochs
        << "-epoch run = the article's " << kArticleRunEpochs
        << " epochs at that rate; prices change: set yours with --price-per-hour or --prices):\n";
}

} // namespace

void printCosts(std::ostream &out, const RunSet &store) {
    if (store.runCount() == 0)
        return;
    printCostHeader(out, "");
    for (const RunEntry &run : store.runs())
        out << "  #" << run.number << " " << costLine(run.cost) << "\n";
}

void printGroupCosts(std::ostream &out, const RunSet &store, const RunGroups &groups) {
    if (groups.groups.empty())
        return;
    printCostHeader(out, ", a group's the mean of its runs'");
    for (const RunGroup &group : groups.groups) {
        std::vector<RunCost> costs; // over the runs the group's row counts (n), as its mean
        for (const int run : group.runs)
            if (countsInGroupStats(store.run(run).summary))
                costs.push_back(store.run(run).cost);
        out << "  group " << group.number << " (n = " << group.stats.n << ") "
            << costLine(meanCost(costs)) << "\n";
    }
}

} // namespace devicebench::cli
