// SPDX-License-Identifier: MIT
// `devicebench-cli report RECORD... -o FILE` and the report's checks (cli_report.h).
#include "cli_report.h"
#include "cli_compare.h"
#include "cli_support.h"

#include "devicebench/html_report.h"

#include <filesystem>
#include <memory>
#include <ostream>

namespace devicebench::cli {
namespace {

// The file `path` names, as far as it can be told before it exists.
std::filesystem::path resolved(const std::string &path) {
    std::error_code ec;
    std::filesystem::path p =
        std::filesystem::weakly_canonical(std::filesystem::absolute(path), ec);
    return ec ? std::filesystem::absolute(path).lexically_normal() : p;
}

} // namespace

CLI::App *addReportCommand(CLI::App &app, const CommandContext &context, CommandAction &chosen) {
    auto options = std::make_shared<CompareOptions>(); // kept by the callback
    auto *report = app.add_subcommand(
        "report", "One self-contained HTML page of a comparison of run records (compare's "
                  "rules and options): the answer, tables, charts, settings; opens offline");
    report->add_option("-o,--output", options->htmlPath, "Write the report (HTML) to FILE")
        ->required();
    const CLI::Option *baselineOption = addCompareOptions(*report, *options);
    setAction(*report, chosen, [options, baselineOption, &context] {
        finishCompareOptions(*options, *baselineOption);
        return compareCommand(*options, context.out, context.err);
    });
    return report;
}

std::string htmlOutputProblem(const std::string &html,
                              const std::vector<std::pair<std::string, std::string>> &others) {
    if (html.empty())
        return {};
    if (std::string problem = checkOutputFolder(html); !problem.empty())
        return problem;
    for (const auto &[flag, path] : others) {
        if (!path.empty() && resolved(path) == resolved(html))
            return "cannot write the report to " + html + ": it is also the " + flag +
                   " file; give the report a file of its own";
    }
    return {};
}

bool writeReportFile(const std::string &path, const RunSet &runs,
                     const std::vector<PublishedSet> *sets, const PublishedBeside *beside,
                     std::ostream &out, std::ostream &err, std::vector<std::string> *written) {
    try {
        writeHtmlReport(path, runs, sets, beside);
    } catch (const ReportError &e) {
        err << "devicebench-cli: error: " << e.what() << "\n";
        return false;
    }
    out << "wrote " << path << "\n";
    written->push_back(path);
    return true;
}

} // namespace devicebench::cli
