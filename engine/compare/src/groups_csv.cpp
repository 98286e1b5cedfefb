// SPDX-License-Identifier: MIT
// The groups CSV (csv_export.h: groupsCsv): one line per group of repeated runs.
#include "devicebench/csv_export.h"
#include "devicebench/run_groups.h"
#include "devicebench/run_set.h"

#include "csv_table.h"

#include <cmath>
#include <cstddef>
#include <limits>
#include <optional>
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

using Column = CsvColumn<GroupRow>;
// A value that does not exist for the group (a spread of fewer than 2 runs), as the summary
// CSV writes it.
constexpr const char *kUndefined = "n/a";

// What the interval is from: "runs" (2 or more), "epochs" (one run's), "" (none).
std::string intervalFrom(const GroupStats &s) {
    if (std::isnan(s.ciLow))
        return {};
    return s.n >= 2 ? "runs" : "epochs";
}

// A bound of the speed-up's interval: NaN without a speed-up, none ("n/a") without an interval.
std::optional<double> speedUpBound(const SpeedUp &speedUp, double bound) {
    if (!std::isfinite(speedUp.ratio))
        return std::numeric_limits<double>::quiet_NaN();
    return detail::unlessNaN(bound);
}

// The group, its runs and what they share (from its first run).
CsvColumns<GroupRow> sharedColumns() {
    return {
        {"group", [](const GroupRow &x) { return std::to_string(x.group.number); }},
        {"label", [](const GroupRow &x) { return x.group.label; }},
        {"runs", [](const GroupRow &x) { return x.runs; }},
        {"n", [](const GroupRow &x) { return std::to_string(x.group.stats.n); }},
        {"members", [](const GroupRow &x) { return std::to_string(x.group.runs.size()); }},
        {"device", [](const GroupRow &x) { return detail::deviceOf(x.r); }},
        {"host", [](const GroupRow &x) { return x.r.fingerprint.hostName; }},
        {"threads", [](const GroupRow &x) { return std::to_string(x.r.started.threads); }},
        {"cpu_model", [](const GroupRow &x) { return x.r.fingerprint.cpuModel; }},
        {"model", [](const GroupRow &x) { return x.r.model; }},
        {"image_size", [](const GroupRow &x) { return std::to_string(x.r.config.imageSize); }},
        {"batch_size", // empty: a script that did not state its batch size
         [](const GroupRow &x) {
             return x.r.config.batchSize > 0 ? std::to_string(x.r.config.batchSize) : "";
         }},
        {"precision", [](const GroupRow &x) { return detail::precisionName(x.r); }},
        {"workload", [](const GroupRow &x) { return x.r.workload; }},
        {"epochs", [](const GroupRow &x) { return std::to_string(x.r.config.epochs); }},
    };
}

// The statistics of the runs' stable means, the speed-up against the baseline group and the
// control.
CsvColumns<GroupRow> statisticsColumns() {
    const auto defined = [](double GroupStats::*value) {
        return [value](const GroupRow &x) { return detail::unlessNaN(x.group.stats.*value); };
    };
    return {
        Column::number("mean_s", "s", 4, [](const GroupRow &x) { return x.group.stats.mean; }),
        Column::number("stddev_s", "s", 4, defined(&GroupStats::stddev), kUndefined),
        Column::number("min_s", "s", 4, [](const GroupRow &x) { return x.group.stats.min; }),
        Column::number("max_s", "s", 4, [](const GroupRow &x) { return x.group.stats.max; }),
        Column::number("ci95_low_s", "s", 4, defined(&GroupStats::ciLow), kUndefined),
        Column::number("ci95_high_s", "s", 4, defined(&GroupStats::ciHigh), kUndefined),
        {"interval_from", [](const GroupRow &x) { return intervalFrom(x.group.stats); }},
        Column::number("speedup", "", 4, [](const GroupRow &x) { return x.group.speedUp.ratio; }),
        Column::number(
            "speedup_low", "", 4,
            [](const GroupRow &x) { return speedUpBound(x.group.speedUp, x.group.speedUp.low); },
            kUndefined),
        Column::number(
            "speedup_high", "", 4,
            [](const GroupRow &x) { return speedUpBound(x.group.speedUp, x.group.speedUp.high); },
            kUndefined),
        {"baseline", [](const GroupRow &x) { return x.baseline; }},
        {"comparable", [](const GroupRow &x) { return detail::flag(x.group.differences.empty()); }},
        {"differences", [](const GroupRow &x) { return detail::joined(x.group.differences, ";"); }},
        Column::number("max_test_loss_diff", "nats", 6,
                       [](const GroupRow &x) -> std::optional<double> {
                           if (x.group.runs.size() < 2)
                               return std::nullopt;
                           return x.group.maxTestLossDiff;
                       }),
    };
}

const CsvColumns<GroupRow> &groupColumns() {
    using detail::operator+;
    static const CsvColumns<GroupRow> columns = sharedColumns() + statisticsColumns();
    return columns;
}

} // namespace

int groupsCsvColumnCount() { return static_cast<int>(groupColumns().size()); }

std::string groupsCsv(const RunSet &runs) {
    const CsvColumns<GroupRow> &columns = groupColumns();
    std::string csv = detail::csvHeader(columns);
    const RunGroups groups = groupRuns(runs);
    if (groups.groups.empty())
        return csv;
    const std::string baseline = groups.groups[static_cast<std::size_t>(groups.baseline)].label +
                                 " (group " + std::to_string(groups.baseline + 1) + ")";
    for (const RunGroup &group : groups.groups) {
        const GroupRow row{group, runs.run(group.runs.front()).record, baseline,
                           runNumbersText(runs, group.runs)};
        csv += detail::csvRow(columns, row);
    }
    return csv;
}

} // namespace devicebench
