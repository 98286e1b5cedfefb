// SPDX-License-Identifier: MIT
#include "cli_support.h"

#include "cli_command.h"

#ifdef DEVICEBENCH_HAVE_PNG
#include "export/png_export.h"
#include "export/sweep_png.h"
#endif

#include "devicebench/csv_export.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <filesystem>
#include <iomanip>
#include <limits>
#include <ostream>
#include <sstream>
#include <string>
#include <system_error>
#include <unistd.h>

namespace devicebench::cli {

std::string count(std::size_t n, const char *one, const char *many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

std::string fixed(double value, int decimals) {
    if (!std::isfinite(value)) {
        return "–";
    }
    std::ostringstream s;
    s << std::fixed << std::setprecision(decimals) << value;
    return s.str();
}

std::string grouped(std::int64_t value) {
    std::string digits = std::to_string(value);
    for (auto i = static_cast<std::ptrdiff_t>(digits.size()) - 3; i > (value < 0 ? 1 : 0); i -= 3)
        digits.insert(static_cast<std::size_t>(i), ",");
    return digits;
}

std::string describeModel(const std::string &model, int imageSize, std::int64_t parameters,
                          std::int64_t multiplyAddsPerImage) {
    std::string text = model + " at " + std::to_string(imageSize) + " px";
    if (parameters > 0 && multiplyAddsPerImage > 0) {
        text += " (" + grouped(parameters) + " parameters, " +
                fixed(static_cast<double>(multiplyAddsPerImage) / 1e6, 1) +
                " M multiply-adds per image)";
    }
    return text;
}

bool writePng(const RunSet &runs, const std::string &path, std::string *error,
              const std::vector<PublishedSet> *published) {
#ifdef DEVICEBENCH_HAVE_PNG
    return writeComparisonPng(runs, path, error, published);
#else
    static_cast<void>(runs);
    static_cast<void>(path);
    static_cast<void>(published);
    if (error != nullptr)
        *error = kPngNeedsFullBuild;
    return false;
#endif
}

bool writeComparisonFiles(const RunSet &runs, const std::string &csvPath,
                          const std::string &pngPath, std::ostream &out, std::ostream &err,
                          std::vector<std::string> *written, const PublishedBeside *beside,
                          const std::vector<PublishedSet> *sets) {
    bool ok = true;
    if (!csvPath.empty()) {
        try {
            writeComparisonCsv(runs, csvPath, beside, sets);
            const std::vector<std::string> paths = comparisonCsvPaths(csvPath);
            out << "wrote " << listedPaths(paths) << "\n";
            written->insert(written->end(), paths.begin(), paths.end());
        } catch (const ExportError &e) {
            err << "devicebench-cli: error: " << e.what() << "\n";
            ok = false;
        }
    }
    if (!pngPath.empty()) {
        std::string error;
        if (writePng(runs, pngPath, &error, sets)) {
            out << "wrote " << pngPath << "\n";
            written->push_back(pngPath);
        } else {
            err << "devicebench-cli: error: " << error << "\n";
            ok = false;
        }
    }
    return ok;
}

bool writeSweepPicture(const std::vector<SweepCellRecord> &records,
                       const std::string &baselineLabel, const std::string &path,
                       std::string *error) {
#ifdef DEVICEBENCH_HAVE_PNG
    return writeSweepPng(records, baselineLabel, path, error);
#else
    static_cast<void>(records);
    static_cast<void>(baselineLabel);
    static_cast<void>(path);
    if (error != nullptr)
        *error = kPngNeedsFullBuild;
    return false;
#endif
}

std::string splitList(const char *flag, const char *expected, const std::vector<std::string> &given,
                      std::vector<std::string> *items) {
    items->clear();
    if (given.empty()) { // CLI11 turns a lone "" into no value at all
        return std::string(flag) + " '' has an empty item: give " + expected +
               ", or a comma-separated list of them";
    }
    for (const std::string &value : given) {
        std::size_t start = 0;
        while (true) {
            const std::size_t comma = value.find(',', start);
            const std::string item = value.substr(start, comma - start);
            if (item.empty()) {
                return std::string(flag) + " '" + value + "' has an empty item: give " + expected +
                       ", or a comma-separated list of them";
            }
            items->push_back(item);
            if (comma == std::string::npos) {
                break;
            }
            start = comma + 1;
        }
    }
    return {};
}

std::string parseWholeNumbers(const char *flag, const std::vector<std::string> &items,
                              std::vector<int> *values) {
    values->clear();
    for (const std::string &item : items) {
        int value = 0;
        const char *end = item.data() + item.size();
        const auto [ptr, ec] = std::from_chars(item.data(), end, value);
        if (ec == std::errc::result_out_of_range && ptr == end) {
            return std::string(flag) + ": " + item + " is out of range: it must be from " +
                   std::to_string(std::numeric_limits<int>::min()) + " to " +
                   std::to_string(std::numeric_limits<int>::max());
        }
        if (ec != std::errc() || ptr != end) {
            return std::string(flag) + ": '" + item + "' is not a whole number";
        }
        values->push_back(value);
    }
    return {};
}

int refuseBadOutputs(const std::vector<PlannedOutput> &outputs,
                     const std::vector<PlannedInput> &inputs, std::ostream &err) {
    const std::vector<std::string> problems = checkPlannedOutputs(outputs, inputs);
    for (const std::string &problem : problems)
        err << "devicebench-cli: error: " << problem << "\n";
    return problems.empty() ? kExitOk : kExitUsage;
}

std::string makeRecordFolder(const std::string &dir) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec || !std::filesystem::is_directory(dir))
        return "cannot create the record folder " + dir + ": " +
               (ec ? ec.message() : std::string("not a folder"));
    if (::access(dir.c_str(), W_OK) != 0)
        return "cannot write records into " + dir + ": the folder is not writable";
    return {};
}

std::size_t columns(const std::string &text) {
    return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char ch) {
        return (static_cast<unsigned char>(ch) & 0xC0U) != 0x80U;
    }));
}

std::string pad(const std::string &text, std::size_t width) {
    const std::size_t w = columns(text);
    return text + std::string(w < width ? width - w : 0, ' ');
}

} // namespace devicebench::cli
