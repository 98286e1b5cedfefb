// SPDX-License-Identifier: MIT
// The per-epoch CSV (csv_export.h: epochCsv): its table of columns, one line per run and epoch.
// A new column is one entry here, at the end of the table so that readers of the columns
// before keep them (docs/run-record.md, "Adding a per-epoch column").
#include "devicebench/csv_columns.h"
#include "devicebench/csv_export.h"
#include "devicebench/run_set.h"

#include "csv_table.h"
#include "system_csv.h"

#include <cmath>
#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>

namespace devicebench {
namespace {

using detail::columnsOf;
using detail::CsvColumns;
using detail::finite;
using detail::flag;
using detail::unlessNaN;
using Row = EpochCsvRow;
using Column = CsvColumn<EpochCsvRow>;

// A number of what the epoch got from the machine (contention.h); none when the load was not
// measured (older records).
Column::Value loadValue(double EpochLoad::*value) {
    return [value](const Row &x) -> std::optional<double> {
        if (!x.epoch.load.measured)
            return std::nullopt;
        return x.epoch.load.*value;
    };
}

// A canary number of the epoch; none when the epoch has no canary (older records) or the value
// is not known (no run-threads canary on CUDA).
Column::Value canaryValue(double (*value)(const EpochResult &)) {
    return [value](const Row &x) -> std::optional<double> {
        if (!x.epoch.canary.measured)
            return std::nullopt;
        return unlessNaN(value(x.epoch));
    };
}

// The run, the epoch and what it measured; then what the epoch got from the machine.
CsvColumns<Row> firstColumns() {
    return {
        {"run", [](const Row &x) { return x.label; }},
        {"device", [](const Row &x) { return detail::deviceOf(x.record); }},
        {"threads", [](const Row &x) { return std::to_string(x.record.started.threads); }},
        {"epoch", [](const Row &x) { return std::to_string(x.epoch.epoch); }},
        Column::number("seconds", "s", 4, [](const Row &x) { return x.epoch.seconds; }),
        {"warmup", [](const Row &x) { return flag(x.warmup); }},
        Column::number("train_loss", "nats", 6, [](const Row &x) { return x.epoch.trainLoss; }),
        Column::number("test_loss", "nats", 6, [](const Row &x) { return x.epoch.testLoss; }),
        Column::number("test_accuracy", "fraction", 6,
                       [](const Row &x) { return x.epoch.testAccuracy; }),
        Column::number("images_per_s", "images/s", 2,
                       [](const Row &x) { return x.epoch.imagesPerSecond; }),
        {"data",
         [](const Row &x) {
             return x.record.started.synthetic || x.record.config.synthetic ? "synthetic"
                                                                            : "cifar-10";
         }},
        {"status", [](const Row &x) { return toString(x.state); }},
        {"host", [](const Row &x) { return x.record.fingerprint.hostName; }},
        {"comparable", [](const Row &x) { return flag(x.differences.empty()); }},
        {"differences", [](const Row &x) { return detail::joined(x.differences, ";"); }},
        {"contended",
         [](const Row &x) {
             return x.epoch.load.measured ? flag(x.epoch.load.contended) : std::string();
         }},
        Column::number("cpu_share", "fraction", 4, loadValue(&EpochLoad::cpuShare)),
        Column::number("other_cpus", "cpus", 4, loadValue(&EpochLoad::otherCpus)),
        Column::number("steal_fraction", "fraction", 4, loadValue(&EpochLoad::stealFraction)),
        Column::number("load_average", "", 2, loadValue(&EpochLoad::loadAverage)),
    };
}

// Each phase's seconds, all empty when the epoch was not phase-timed.
std::optional<double> phaseSeconds(const Row &x, std::size_t phase) {
    const PhaseTimes &p = x.epoch.phases;
    if (!p.measured)
        return std::nullopt;
    return p.*phaseFields()[phase].seconds;
}

// Added with precision as a setting, then with the canary (machine_drift.h): after the columns
// of earlier versions, empty in records written before them.
CsvColumns<Row> precisionAndCanaryColumns() {
    return {
        {"precision", [](const Row &x) { return detail::precisionName(x.record); }},
        // float16: the steps the loss scaler skipped; empty without a loss scaler.
        {"skipped_steps",
         [](const Row &x) {
             const auto n = x.epoch.skippedSteps;
             return n >= 0 ? std::to_string(n) : std::string();
         }},
        Column::number("started_unix_s", "s", 3,
                       [](const Row &x) { return unlessNaN(x.epoch.startedUnixSeconds); }),
        Column::number("canary_s", "s", 6,
                       canaryValue([](const EpochResult &e) { return e.canary.seconds; })),
        Column::number("canary_run_threads_s", "s", 6, canaryValue([](const EpochResult &e) {
                           return e.canary.runThreadsSeconds;
                       })),
        Column::number("canary_change", "fraction", 6,
                       canaryValue([](const EpochResult &e) { return e.canaryChange; })),
        {"speed_changed",
         [](const Row &x) {
             return x.epoch.canary.measured ? flag(x.epoch.speedChanged) : std::string();
         }},
    };
}

// Added with time to accuracy: the test pass's seconds, and the wall seconds from the run's first
// step to the end of this epoch (the Accuracy view's x: accuracyOverTime's clock).
CsvColumns<Row> timeToAccuracyColumns() {
    return {
        Column::number("test_s", "s", 4,
                       [](const Row &x) { return unlessNaN(x.epoch.testSeconds); }),
        Column::number("elapsed_s", "s", 4,
                       [](const Row &x) {
                           double seconds = 0.0;
                           for (const EpochResult &e : x.record.epochs)
                               seconds += e.epoch <= x.epoch.epoch ? e.seconds : 0.0;
                           return seconds;
                       }),
    };
}

CsvColumns<Row> makeEpochColumns() {
    using detail::operator+;
    return firstColumns() +
           columnsOf<Row>(detail::modelColumns(),
                          [](const Row &x) -> const RunRecord & { return x.record; }) +
           detail::phaseColumns<Row>("_s", "s", 6, phaseSeconds, "") + precisionAndCanaryColumns() +
           // Added with the system sampler: empty for epochs that were not sampled.
           columnsOf<Row>(detail::epochSystemColumns(),
                          [](const Row &x) -> const EpochResult & { return x.epoch; }) +
           timeToAccuracyColumns();
}

} // namespace

const CsvColumns<EpochCsvRow> &epochCsvColumns() {
    static const CsvColumns<EpochCsvRow> columns = makeEpochColumns();
    return columns;
}

const CsvColumn<EpochCsvRow> &epochCsvColumn(const std::string &name) {
    for (const Column &column : epochCsvColumns()) {
        if (column.name == name)
            return column;
    }
    throw std::out_of_range("no per-epoch CSV column '" + name + "'");
}

int epochCsvColumnCount() { return static_cast<int>(epochCsvColumns().size()); }

std::string epochCsv(const RunSet &runs) {
    const CsvColumns<Row> &columns = epochCsvColumns();
    std::string csv = detail::csvHeader(columns);
    for (const RunEntry &run : runs.runs()) {
        for (const EpochResult &e : run.record.epochs)
            csv += detail::csvRow(columns, EpochCsvRow::of(run, e));
    }
    return csv;
}

} // namespace devicebench
