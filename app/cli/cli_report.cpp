// SPDX-License-Identifier: MIT
// `devicebench-cli report RECORD... -o FILE` (cli_report.h).
#include "cli_report.h"
#include "cli_compare.h"

#include <memory>

namespace devicebench::cli {

CLI::App *addReportCommand(CLI::App &app, const CommandContext &context, CommandAction &chosen) {
    auto options = std::make_shared<CompareOptions>(); // kept by the callback
    auto *report = app.add_subcommand(
        "report", "One self-contained HTML page of a comparison of run records (compare's "
                  "rules and options): the answer, tables, charts, settings; opens offline");
    options->htmlFlag = "-o";
    report->add_option("-o,--output", options->htmlPath, "Write the report (HTML) to FILE")
        ->required();
    const CLI::Option *baselineOption = addCompareOptions(*report, *options);
    setAction(*report, chosen, [options, baselineOption, &context] {
        finishCompareOptions(*options, *baselineOption);
        return compareCommand(*options, context.out, context.err);
    });
    return report;
}

} // namespace devicebench::cli
