// SPDX-License-Identifier: MIT
// The comparison files of a command as planned outputs (csv_export.h): what the CLI's run,
// compare and report and the dashboard's scripted exports check before they start.
#include "devicebench/csv_export.h"

namespace devicebench {

std::vector<PlannedOutput> comparisonOutputs(const std::string &csvPath, const std::string &pngPath,
                                             const std::string &htmlPath,
                                             const std::string &flagPrefix) {
    std::vector<PlannedOutput> outputs{{flagPrefix + "png", pngPath}};
    if (!csvPath.empty()) {
        const std::vector<std::string> csvs = comparisonCsvPaths(csvPath);
        const std::string csvFlag = flagPrefix + "csv";
        outputs.push_back({csvFlag, csvs[0]});
        outputs.push_back({"the per-run CSV beside " + csvFlag, csvs[1]});
        outputs.push_back({"the per-group CSV beside " + csvFlag, csvs[2]});
    }
    outputs.push_back({flagPrefix + "html", htmlPath});
    return outputs;
}

} // namespace devicebench
