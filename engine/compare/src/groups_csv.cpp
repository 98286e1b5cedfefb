// SPDX-License-Identifier: MIT
// The groups CSV (csv_export.h: groupsCsv): one line per group of repeated runs.
#include "devicebench/csv_export.h"
#include "devicebench/precision_text.h"
#include "devicebench/run_groups.h"
#include "devicebench/run_set.h"

#include "csv_table.h"

#include <cmath>
#include <string>

namespace devicebench {
namespace {

using detail::CsvColumns;

struct GroupRow {
    const RunGroup &group;
    const RunRecord &r;   // the group's first run: what its runs share
    std::string baseline; // the baseline group's label and number
    std::string runs;     // runNumbersText of its runs
};

std::string number(double value, int decimals) { return csvNumber(value, decimals); }

// A value that does not exist for the group (a spread of fewer than 2 runs): "n/a", as the
// summary CSV writes it.
std::string defined(double value, int decimals) {
    return std::isnan(value) ? std::string("n/a") : number(value, decimals);
}

std::string joined(const std::vector<std::string> &fields) {
    std::string text;
    for (const std::string &f : fields)
        text += (text.empty() ? "" : ";") + f;
    return text;
}

// What the interval is from: "runs" (2 or more), "epochs" (one run's), "" (none).
std::string intervalFrom(const GroupStats &s) {
    if (std::isnan(s.ciLow))
        return {};
    return s.n >= 2 ? "runs" : "epochs";
}

const std::string &deviceOf(const RunRecord &r) {
    return r.started.device.empty() ? r.config.device : r.started.device;
}

const CsvColumns<GroupRow> kGroupColumns = {
    {"group", [](const GroupRow &x) { return std::to_string(x.group.number); }},
    {"label", [](const GroupRow &x) { return x.group.label; }},
    {"runs", [](const GroupRow &x) { return x.runs; }},
    {"n", [](const GroupRow &x) { return std::to_string(x.group.stats.n); }},
    {"members", [](const GroupRow &x) { return std::to_string(x.group.runs.size()); }},
    {"device", [](const GroupRow &x) { return deviceOf(x.r); }},
    {"host", [](const GroupRow &x) { return x.r.fingerprint.hostName; }},
    {"threads", [](const GroupRow &x) { return std::to_string(x.r.started.threads); }},
    {"cpu_model", [](const GroupRow &x) { return x.r.fingerprint.cpuModel; }},
    {"model", [](const GroupRow &x) { return x.r.model; }},
    {"image_size", [](const GroupRow &x) { return std::to_string(x.r.config.imageSize); }},
    {"batch_size", [](const GroupRow &x) { return std::to_string(x.r.config.batchSize); }},
    {"precision", [](const GroupRow &x) { return precisionShortText(x.r.precision); }},
    {"workload", [](const GroupRow &x) { return x.r.workload; }},
    {"epochs", [](const GroupRow &x) { return std::to_string(x.r.config.epochs); }},
    {"mean_s", [](const GroupRow &x) { return number(x.group.stats.mean, 4); }},
    {"stddev_s", [](const GroupRow &x) { return defined(x.group.stats.stddev, 4); }},
    {"min_s", [](const GroupRow &x) { return number(x.group.stats.min, 4); }},
    {"max_s", [](const GroupRow &x) { return number(x.group.stats.max, 4); }},
    {"ci95_low_s", [](const GroupRow &x) { return defined(x.group.stats.ciLow, 4); }},
    {"ci95_high_s", [](const GroupRow &x) { return defined(x.group.stats.ciHigh, 4); }},
    {"interval_from", [](const GroupRow &x) { return intervalFrom(x.group.stats); }},
    {"speedup", [](const GroupRow &x) { return number(x.group.speedUp.ratio, 4); }},
    {"speedup_low",
     [](const GroupRow &x) {
         return std::isfinite(x.group.speedUp.ratio) ? defined(x.group.speedUp.low, 4) : "nan";
     }},
    {"speedup_high",
     [](const GroupRow &x) {
         return std::isfinite(x.group.speedUp.ratio) ? defined(x.group.speedUp.high, 4) : "nan";
     }},
    {"baseline", [](const GroupRow &x) { return x.baseline; }},
    {"comparable", [](const GroupRow &x) { return x.group.differences.empty() ? "1" : "0"; }},
    {"differences", [](const GroupRow &x) { return joined(x.group.differences); }},
    {"max_test_loss_diff",
     [](const GroupRow &x) {
         return x.group.runs.size() < 2 ? std::string() : number(x.group.maxTestLossDiff, 6);
     }},
};

} // namespace

std::string groupsCsv(const RunSet &runs) {
    std::string csv = detail::csvHeader(kGroupColumns);
    const RunGroups groups = groupRuns(runs);
    if (groups.groups.empty())
        return csv;
    const std::string baseline = groups.groups[static_cast<std::size_t>(groups.baseline)].label +
                                 " (group " + std::to_string(groups.baseline + 1) + ")";
    for (const RunGroup &group : groups.groups) {
        const GroupRow row{group, runs.run(group.runs.front()).record, baseline,
                           runNumbersText(runs, group.runs)};
        csv += detail::csvRow(kGroupColumns, row);
    }
    return csv;
}

} // namespace devicebench
