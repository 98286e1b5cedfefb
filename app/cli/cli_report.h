// SPDX-License-Identifier: MIT
// The HTML report (devicebench/html_report.h) from the CLI: `devicebench-cli report
// RECORD... -o FILE` (compare's rules, options and refusals, and the page), and the checks and
// writing that `run --html FILE` shares.
#pragma once

#include "cli_command.h"

#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

namespace devicebench {
class RunSet;
struct PublishedBeside;
struct PublishedSet;
} // namespace devicebench

namespace devicebench::cli {

// Adds the `report` subcommand (compare's options and -o/--output FILE) and its action.
CLI::App *addReportCommand(CLI::App &app, const CommandContext &context, CommandAction &chosen);

// Writes the report of `runs` (its groups and control, and the published rows of `sets` as
// `beside` shows them when both are given) to `path`: "wrote <path>" on `out` and the path
// into *written, or "devicebench-cli: error: Cannot write ..." on `err` and false.
bool writeReportFile(const std::string &path, const RunSet &runs,
                     const std::vector<PublishedSet> *sets, const PublishedBeside *beside,
                     std::ostream &out, std::ostream &err, std::vector<std::string> *written);

} // namespace devicebench::cli
