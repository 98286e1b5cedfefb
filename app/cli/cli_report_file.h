// SPDX-License-Identifier: MIT
// The HTML report's file (devicebench/html_report.h) as the commands that write one say it:
// `run --html`, `compare --html` and `report -o`. Includes nothing of app/cli.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace devicebench {
class RunSet;
struct PublishedBeside;
struct PublishedSet;
} // namespace devicebench

namespace devicebench::cli {

// Writes the report of `runs` (its groups and control, and the published rows of `sets` as
// `beside` shows them when both are given) to `path`: "wrote <path>" on `out` and the path
// into *written, or "devicebench-cli: error: Cannot write ..." on `err` and false.
bool writeReportFile(const std::string &path, const RunSet &runs,
                     const std::vector<PublishedSet> *sets, const PublishedBeside *beside,
                     std::ostream &out, std::ostream &err, std::vector<std::string> *written);

} // namespace devicebench::cli
