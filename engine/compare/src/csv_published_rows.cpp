// SPDX-License-Identifier: MIT
// The summary CSV with the published rows (csv_export.h): the runs' lines as summaryCsv writes
// them with an origin, then one line per published row with the cells it has, by column name.
#include "devicebench/csv_export.h"

#include "devicebench/precision_text.h"
#include "devicebench/published.h"
#include "devicebench/run_set.h"

#include <cstddef>
#include <iterator>
#include <map>
#include <string>
#include <vector>

namespace devicebench {
namespace {

// The columns after summaryCsv's when the published rows are in the file.
const char *const kPublishedColumns[] = {"origin", "published_note", "published_source"};

// `line` (a csvHeader or csvRow line, ending in "\n") with `cells` added at its end.
std::string withCells(std::string line, const std::vector<std::string> &cells) {
    line.pop_back();
    for (const std::string &cell : cells)
        line += "," + csvField(cell);
    return line + "\n";
}

// A published row's line: the cells it has, by column name, the other columns empty.
// `columns`: the summary's column names in order (its header line's).
std::string publishedLine(const PublishedSet &set, const PublishedEntry &entry,
                          const std::string &baseline, const std::vector<std::string> &columns) {
    const PublishedRow &row = set.rows[static_cast<std::size_t>(entry.rowIndex)];
    const PublishedSettings &s = set.settings;
    const std::map<std::string, std::string> cells{
        {"run", entry.label},
        {"device", row.device},
        {"status", "published"},
        {"epochs", std::to_string(s.epochs)},
        {"warmup_epochs", std::to_string(s.warmupEpochs)},
        {"stable_mean_s", csvNumber(entry.seconds, 4)},
        {"speedup", csvNumber(entry.speedUp, 4)},
        {"baseline", baseline},
        {"comparable", entry.comparability.likeForLike() ? "1" : "0"},
        {"model", s.model},
        {"image_size", std::to_string(s.imageSize)},
        {"precision", shortName(s.precision)},
    };
    std::string text;
    for (std::size_t i = 0; i < columns.size(); ++i) {
        const auto it = cells.find(columns[i]);
        text += (i == 0 ? "" : ",") + csvField(it == cells.end() ? std::string() : it->second);
    }
    return withCells(text + "\n", {"published", entry.comparability.note, set.source.title});
}

// The names of a CSV header line ("a,b,c\n"): the summary's are plain words, never quoted.
std::vector<std::string> columnNames(const std::string &header) {
    std::vector<std::string> names(1);
    for (const char ch : header) {
        if (ch == ',')
            names.emplace_back();
        else if (ch != '\n')
            names.back() += ch;
    }
    return names;
}

// What the published rows' speed-ups are against: the chosen row, else the runs' baseline.
std::string publishedBaseline(const PublishedBeside &beside, const RunSet &runs) {
    if (beside.baselineRow >= 0)
        return beside.rows[static_cast<std::size_t>(beside.baselineRow)].label;
    const int index = runs.baselineIndex();
    return index >= 0 ? runs.run(index).label : std::string();
}

} // namespace

int summaryCsvPublishedColumnCount() {
    return summaryCsvColumnCount() + static_cast<int>(std::size(kPublishedColumns));
}

std::string summaryCsv(const RunSet &runs, const PublishedBeside *beside,
                       const std::vector<PublishedSet> *sets) {
    if (sets == nullptr)
        return summaryCsv(runs);
    const PublishedBeside computed =
        beside == nullptr ? publishedBeside(*sets, runs) : PublishedBeside{};
    const PublishedBeside &rows = beside == nullptr ? computed : *beside;
    // The runs' lines as summaryCsv writes them, each with its origin and two empty cells.
    std::string csv;
    const std::string plain = summaryCsv(runs);
    std::size_t start = 0;
    for (std::size_t end = plain.find('\n'); end != std::string::npos;
         start = end + 1, end = plain.find('\n', start)) {
        const std::string line = plain.substr(start, end - start + 1);
        csv += start == 0
                   ? withCells(line, {std::begin(kPublishedColumns), std::end(kPublishedColumns)})
                   : withCells(line, {"run", "", ""});
    }
    const std::string baseline = publishedBaseline(rows, runs);
    const std::vector<std::string> columns = columnNames(plain.substr(0, plain.find('\n')));
    for (const PublishedEntry &entry : rows.rows)
        csv += publishedLine((*sets)[static_cast<std::size_t>(entry.setIndex)], entry, baseline,
                             columns);
    return csv;
}

} // namespace devicebench
