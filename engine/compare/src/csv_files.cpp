// SPDX-License-Identifier: MIT
// The CSV files of csv_export.h as files: the cell format (numbers, quoting, formula
// injection), their names beside --csv, the outputs a command checks before it starts, and
// the atomic writes. The rows and columns are epoch_csv.cpp's, summary_csv.cpp's and
// groups_csv.cpp's.
#include "devicebench/csv_export.h"

#include "ascii_case.h"

#include "devicebench/atomic_file.h"

#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <string>
#include <system_error>
#include <vector>

namespace devicebench {

std::string csvNumber(double value, int decimals) {
    if (std::isnan(value))
        return "nan";
    if (std::isinf(value))
        return value > 0 ? "inf" : "-inf";
    std::array<char, 512> buffer{};
    const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value,
                                      std::chars_format::fixed, decimals);
    if (result.ec != std::errc())
        return "nan"; // beyond 1e300 with decimals: not a time, a loss or a ratio we make
    return std::string(buffer.data(), result.ptr);
}

bool isCsvNumber(const std::string &text) {
    if (text == "nan" || text == "inf" || text == "-inf")
        return true;
    std::size_t i = 0;
    if (i < text.size() && (text[i] == '-' || text[i] == '+'))
        ++i;
    bool digits = false;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])) != 0) {
        ++i;
        digits = true;
    }
    if (i < text.size() && text[i] == '.') {
        ++i;
        while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])) != 0) {
            ++i;
            digits = true;
        }
    }
    if (!digits)
        return false;
    if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
        ++i;
        if (i < text.size() && (text[i] == '-' || text[i] == '+'))
            ++i;
        bool exponent = false;
        while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])) != 0) {
            ++i;
            exponent = true;
        }
        if (!exponent)
            return false;
    }
    return i == text.size();
}

std::string csvField(const std::string &field) {
    // OWASP "CSV Injection": a cell that starts with = + - @ TAB or CR is run as a formula by
    // spreadsheets; a leading single quote makes it text. Numbers ("-1.5") stay numbers.
    const bool formula = !field.empty() &&
                         std::string("=+-@\t\r").find(field[0]) != std::string::npos &&
                         !isCsvNumber(field);
    const std::string cell = formula ? "'" + field : field;
    if (cell.find_first_of(",\"\r\n") == std::string::npos)
        return cell;
    std::string quoted = "\"";
    for (const char ch : cell) {
        quoted += ch;
        if (ch == '"')
            quoted += '"';
    }
    return quoted + "\"";
}

namespace {
// `csvPath` without its ".csv" (any case), then `suffix` and ".csv".
std::string besideCsvPath(const std::string &csvPath, const char *suffix) {
    std::string base = csvPath;
    if (base.size() >= 4) {
        if (detail::lowerAscii(base.substr(base.size() - 4)) == ".csv")
            base.resize(base.size() - 4);
    }
    return base + suffix + ".csv";
}
} // namespace

std::string summaryCsvPath(const std::string &csvPath) {
    return besideCsvPath(csvPath, "-summary");
}

std::string groupsCsvPath(const std::string &csvPath) { return besideCsvPath(csvPath, "-groups"); }

std::vector<std::string> comparisonCsvPaths(const std::string &csvPath) {
    return {csvPath, summaryCsvPath(csvPath), groupsCsvPath(csvPath)};
}

std::string listedPaths(const std::vector<std::string> &paths) {
    std::string text;
    for (std::size_t i = 0; i < paths.size(); ++i)
        text += (i == 0 ? "" : i + 1 == paths.size() ? " and " : ", ") + paths[i];
    return text;
}

namespace {

// "Cannot write <path>: <why>" for a failed atomic write.
ExportError exportError(const std::string &path, const AtomicWriteError &e) {
    const bool full = e.stage() == AtomicWriteError::Stage::Write && e.outOfSpace();
    return ExportError("Cannot write " + path + ": " +
                       (full ? "only " + std::to_string(e.written()) + " of " +
                                   std::to_string(e.size()) + " bytes could be written (disk full?)"
                             : std::string(e.what())));
}

} // namespace

void writeExportFile(const std::string &path, const std::string &bytes) {
    try {
        writeFileAtomically(path, bytes);
    } catch (const AtomicWriteError &e) {
        throw exportError(path, e);
    }
}

void writeComparisonCsv(const RunSet &runs, const std::string &csvPath) {
    writeComparisonCsv(runs, csvPath, nullptr, nullptr);
}

void writeComparisonCsv(const RunSet &runs, const std::string &csvPath,
                        const PublishedBeside *beside, const std::vector<PublishedSet> *sets) {
    const std::vector<std::string> paths = comparisonCsvPaths(csvPath);
    for (const std::string &path : paths) {
        try {
            checkReplaceable(path);
        } catch (const AtomicWriteError &e) {
            throw exportError(path, e);
        }
    }
    writeExportFile(paths[0], epochCsv(runs));
    writeExportFile(paths[1], summaryCsv(runs, beside, sets));
    writeExportFile(paths[2], groupsCsv(runs));
}

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
