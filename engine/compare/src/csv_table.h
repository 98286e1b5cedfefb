// SPDX-License-Identifier: MIT
// Engine-internal (compare, sweep): a CSV file as a table of columns, each a name and how its
// cell is made from a row, so that the header and every row are written from one list and a
// column's name sits beside its value. Cells go through csvField (csv_export.h).
#pragma once

#include "devicebench/csv_export.h"

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace devicebench::detail {

template <class Row> struct CsvColumn {
    std::string name;
    std::function<std::string(const Row &)> cell;
};

template <class Row> using CsvColumns = std::vector<CsvColumn<Row>>;

// `a`'s columns, then `b`'s.
template <class Row> CsvColumns<Row> operator+(CsvColumns<Row> a, const CsvColumns<Row> &b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

// `columns` of rows of type From, as columns of rows of type Row: `part` gives each Row's From.
template <class Row, class From, class Part>
CsvColumns<Row> columnsOf(const CsvColumns<From> &columns, Part part) {
    CsvColumns<Row> adapted;
    for (const CsvColumn<From> &c : columns)
        adapted.push_back(
            {c.name, [cell = c.cell, part](const Row &row) { return cell(part(row)); }});
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

} // namespace devicebench::detail
