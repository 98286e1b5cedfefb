// SPDX-License-Identifier: MIT
// The comparison CSVs' columns as tables (csv_export.h writes the files from them): each column
// its name in the header, its unit and how its cell is made, a number with its decimals or a
// text. The per-epoch table is public so that the window's epoch table shows the same values.
// Plain C++.
#pragma once

#include "devicebench/csv_export.h"
#include "devicebench/run_record.h"
#include "devicebench/run_set.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace devicebench {

// One column of a CSV over rows of type Row. A text column has `text`; a number column has
// `value` instead, printed by `format` with `decimals`, or `absent` when it has none ("" for
// unknown, "n/a" for undefined). A NaN value prints "nan".
template <class Row> struct CsvColumn {
    using Value = std::function<std::optional<double>(const Row &)>;
    using Format = std::string (*)(double value, int decimals);

    std::string name{};                             // in the header line
    std::function<std::string(const Row &)> text{}; // a text column's cell
    std::string unit{};                             // a number's: "s", "J", "bytes", ...; "" none
    int decimals = 0;
    Value value{};
    std::string absent{};
    Format format = csvNumber;

    static CsvColumn number(std::string name, std::string unit, int decimals, Value value,
                            std::string absent = {}) {
        return {std::move(name),  {}, std::move(unit), decimals, std::move(value),
                std::move(absent)};
    }
    bool isNumber() const { return static_cast<bool>(value); }
    // The cell of `row`, before quoting (csvField).
    std::string cell(const Row &row) const {
        if (!value)
            return text(row);
        const std::optional<double> v = value(row);
        return v ? format(*v, decimals) : absent;
    }
};

template <class Row> using CsvColumns = std::vector<CsvColumn<Row>>;

// What one line of the per-epoch CSV is made from: a run's epoch and what the comparison
// derived for the run (RunEntry's), so that the window can make it from its own runs.
struct EpochCsvRow {
    const RunRecord &record;
    const EpochResult &epoch;
    std::string label; // RunEntry::label
    RunState state;
    bool warmup;                                 // under the set's warm-up setting
    const std::vector<std::string> &differences; // from the baseline; empty: comparable

    // The row of `run`'s epoch `epoch` (one of run.record.epochs).
    static EpochCsvRow of(const RunEntry &run, const EpochResult &epoch) {
        return {run.record,     epoch, run.label, run.state, run.isWarmup(epoch.epoch),
                run.differences};
    }
};

// The per-epoch CSV's columns in order (docs/run-record.md, "The comparison CSV").
const CsvColumns<EpochCsvRow> &epochCsvColumns();

// The per-epoch column named `name` ("seconds"); throws std::out_of_range naming it when there
// is none.
const CsvColumn<EpochCsvRow> &epochCsvColumn(const std::string &name);

} // namespace devicebench
