// SPDX-License-Identifier: MIT
// Engine-internal (compare, sweep): a CSV file written from a table of columns (CsvColumn,
// csv_columns.h), so that the header and every row come from one list and a column's name sits
// beside its value; and the cells the comparison's tables share. Cells go through csvField.
#pragma once

#include "devicebench/csv_columns.h"
#include "devicebench/csv_export.h"
#include "devicebench/phase_summary.h"
#include "devicebench/precision_text.h"
#include "devicebench/run_record.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace devicebench::detail {

using ::devicebench::CsvColumn;
using ::devicebench::CsvColumns;

// `a`'s columns, then `b`'s.
template <class Row> CsvColumns<Row> operator+(CsvColumns<Row> a, const CsvColumns<Row> &b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

// `columns` of rows of type From, as columns of rows of type Row: `part` gives each Row's From.
template <class Row, class From, class Part>
CsvColumns<Row> columnsOf(const CsvColumns<From> &columns, Part part) {
    CsvColumns<Row> adapted;
    for (const CsvColumn<From> &c : columns) {
        CsvColumn<Row> a{c.name, {}, c.unit, c.decimals, {}, c.absent, c.format};
        if (c.value)
            a.value = [value = c.value, part](const Row &row) { return value(part(row)); };
        else
            a.text = [text = c.text, part](const Row &row) { return text(part(row)); };
        adapted.push_back(std::move(a));
    }
    return adapted;
}

// The header line: the columns' names, comma-separated, ending in "\n".
template <class Row> std::string csvHeader(const CsvColumns<Row> &columns) {
    std::string text;
    for (std::size_t i = 0; i < columns.size(); ++i)
        text += (i == 0 ? "" : ",") + csvField(columns[i].name);
    return text + "\n";
}

// One row's line: each column's cell of `row`, comma-separated, ending in "\n".
template <class Row> std::string csvRow(const CsvColumns<Row> &columns, const Row &row) {
    std::string text;
    for (std::size_t i = 0; i < columns.size(); ++i)
        text += (i == 0 ? "" : ",") + csvField(columns[i].cell(row));
    return text + "\n";
}

// ---- cells the comparison's tables share -------------------------------------------------------

inline std::string flag(bool value) { return value ? "1" : "0"; }

inline std::string joined(const std::vector<std::string> &fields, const char *separator) {
    std::string text;
    for (std::size_t i = 0; i < fields.size(); ++i)
        text += (i == 0 ? "" : separator) + fields[i];
    return text;
}

// The device as started, else as configured.
inline std::string deviceOf(const RunRecord &r) {
    return r.started.device.empty() ? r.config.device : r.started.device;
}

// A value that is there only when finite; else the column's absent cell.
inline std::optional<double> finite(double value) {
    return std::isfinite(value) ? std::optional<double>(value) : std::nullopt;
}

// A value that is not known when NaN (an older record); infinities are printed.
inline std::optional<double> unlessNaN(double value) {
    return std::isnan(value) ? std::nullopt : std::optional<double>(value);
}

// The model trained, after the first columns in the per-epoch and per-run files: its name,
// image size and trainable parameters (empty when unknown: 0, a record from before).
inline CsvColumns<RunRecord> modelColumns() {
    return {
        {"model", [](const RunRecord &r) { return r.model; }},
        {"image_size", [](const RunRecord &r) { return std::to_string(r.config.imageSize); }},
        {"parameters",
         [](const RunRecord &r) {
             const std::int64_t n = r.started.modelParameters;
             return n > 0 ? std::to_string(n) : std::string();
         }},
    };
}

// Where the time goes (phase_summary.h), before the precision columns: one number column per
// phase of phaseFields(), "phase_<name><suffix>", its value `value(row, the phase's index)`.
template <class Row, class Value>
CsvColumns<Row> phaseColumns(const char *suffix, const char *unit, int decimals, Value value,
                             const char *absent) {
    CsvColumns<Row> columns;
    for (std::size_t i = 0; i < kPhaseCount; ++i)
        columns.push_back(CsvColumn<Row>::number(
            std::string("phase_") + phaseFields()[i].name + suffix, unit, decimals,
            [value, i](const Row &x) { return value(x, i); }, absent));
    return columns;
}

// The run's precision by its short name ("bf16"); a name this version does not know as written.
inline std::string precisionName(const RunRecord &r) { return precisionShortText(r.precision); }

} // namespace devicebench::detail
