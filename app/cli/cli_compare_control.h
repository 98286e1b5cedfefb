// SPDX-License-Identifier: MIT
// compare's control: the test losses of comparable runs of one seed, which should agree up to
// float rounding (docs/MEASURING.md), as lines of text. Includes nothing of app/cli.
#pragma once

#include <iosfwd>
#include <vector>

namespace devicebench {
class RunSet;
struct ControlPair;
struct ControlSummary;
} // namespace devicebench

namespace devicebench::cli {

// How many comparable pairs, the largest difference and its pair, and every pair above
// kTestLossWarning ("WARNING #1 vs #3: max test-loss difference 0.05 (above 0.01: ...)").
void printControlSummary(std::ostream &out, const RunSet &store, const ControlSummary &control);

// With --runs: the largest test-loss difference of each comparable pair, one line each.
void printControl(std::ostream &out, const RunSet &store, const std::vector<ControlPair> &pairs);

} // namespace devicebench::cli
