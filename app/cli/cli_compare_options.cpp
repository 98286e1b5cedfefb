// SPDX-License-Identifier: MIT
// `devicebench-cli compare`'s and `report`'s options (cli_compare_options.h).
#include "cli_compare_options.h"
#include "cli_support.h"

namespace devicebench::cli {

CLI::Option *addCompareOptions(CLI::App &compare, CompareOptions &options) {
    compare.add_option("records", options.records, "Run record files (JSON)");
    compare.add_option("--csv", options.csvPath,
                       "Write the per-epoch CSV to FILE, the per-run summary to "
                       "FILE-summary.csv and the per-group one to FILE-groups.csv beside it");
    compare.add_option("--png", options.pngPath,
                       kPngAvailable ? "Write the comparison picture to FILE"
                                     : "Write the comparison picture to FILE: needs the full "
                                       "build (DEVICEBENCH_BUILD_UI=ON), refused here");
    CLI::Option *baselineOption = compare.add_option(
        "--baseline", options.baseline,
        "Speed-ups against the N-th record given, from 1 (default: the slowest run)");
    compare
        .add_option("--warmup-epochs", options.warmupEpochs,
                    "Warm-up epochs for every run (default: each run's own)")
        ->check(CLI::Range(0, 100000));
    compare.add_flag("--runs", options.runs,
                     "After the groups, show the runs one by one: the per-run table, their "
                     "GFLOP/s and phase splits, every control pair (and --json's \"control\")");
    compare.add_flag("--json", options.json,
                     "Print one JSON document on stdout: {\"runs\": [...], \"groups\": [...], "
                     "\"controlSummary\": {...}, ...}; the table goes to stderr when it is a "
                     "terminal");
    addComparePublishedOptions(compare, options.published);
    addCostOptions(compare, options.cost);
    return baselineOption;
}

void finishCompareOptions(CompareOptions &options, const CLI::Option &baselineOption) {
    options.baselineGiven = baselineOption.count() > 0;
    options.published.show = options.published.show || !options.published.extraDir.empty() ||
                             options.published.baselineGiven;
}

} // namespace devicebench::cli
