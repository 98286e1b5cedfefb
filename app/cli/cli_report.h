// SPDX-License-Identifier: MIT
// The HTML report (devicebench/html_report.h) from the CLI: `devicebench-cli report
// RECORD... -o FILE` (compare's rules, options and refusals, and the page; its file:
// cli_report_file.h).
#pragma once

#include "cli_command.h"

namespace devicebench::cli {

// Adds the `report` subcommand (compare's options and -o/--output FILE) and its action.
CLI::App *addReportCommand(CLI::App &app, const CommandContext &context, CommandAction &chosen);

} // namespace devicebench::cli
