// SPDX-License-Identifier: MIT
// The HTML report's file, written and said (cli_report_file.h).
#include "cli_report_file.h"

#include "devicebench/html_report.h"

#include <ostream>

namespace devicebench::cli {

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
