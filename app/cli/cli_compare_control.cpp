// SPDX-License-Identifier: MIT
// compare's control lines (cli_compare_control.h).
#include "cli_compare_control.h"

#include "devicebench/comparison.h"
#include "devicebench/run_groups.h"
#include "devicebench/run_set.h"

#include <cmath>
#include <iomanip>
#include <ostream>
#include <sstream>
#include <string>

namespace devicebench::cli {
namespace {

std::string lossDifferenceText(double difference) {
    if (std::isnan(difference))
        return "not reported (no epoch in common with a test loss in both runs)";
    std::ostringstream v;
    v << std::setprecision(3) << difference;
    return v.str();
}

// One control line: "#1 vs #2: max test-loss difference 0.05"; with `warn`, WARNING and why
// when it is above the threshold.
void printControlPair(std::ostream &out, const RunSet &store, const ControlPair &pair,
                      const char *prefix, bool warn) {
    const bool warning = warn && pair.warning;
    out << "  " << (warning ? "WARNING " : "") << prefix << "#" << store.run(pair.indexA).number
        << " vs #" << store.run(pair.indexB).number << ": max test-loss difference "
        << lossDifferenceText(pair.maxTestLossDiff);
    if (warning)
        out << " (above " << kTestLossWarning << ": the runs did not compute the same thing)";
    out << "\n";
}

} // namespace

// The control summarised: how many comparable pairs, the largest difference and its pair, every
// pair above the threshold.
void printControlSummary(std::ostream &out, const RunSet &store, const ControlSummary &control) {
    out << "control (comparable runs, same seed: test losses should agree up to float "
           "rounding; "
        << control.comparablePairs << (control.comparablePairs == 1 ? " pair" : " pairs") << "):\n";
    if (control.comparablePairs == 0) {
        out << "  no two runs are comparable\n";
        return;
    }
    if (control.largest.indexA < 0) {
        out << "  largest: not reported (no comparable pair has an epoch with both test losses)\n";
        return;
    }
    printControlPair(out, store, control.largest, "largest: ", false);
    for (const ControlPair &pair : control.warnings)
        printControlPair(out, store, pair, "", true);
    if (control.warnings.empty())
        out << "  no pair above " << kTestLossWarning << "\n";
}

// With --runs: the largest test-loss difference of each comparable pair.
void printControl(std::ostream &out, const RunSet &store, const std::vector<ControlPair> &pairs) {
    if (pairs.empty())
        return;
    out << "control, every comparable pair:\n";
    for (const ControlPair &pair : pairs)
        printControlPair(out, store, pair, "", true);
}

} // namespace devicebench::cli
