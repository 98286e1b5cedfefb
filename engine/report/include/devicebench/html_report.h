// SPDX-License-Identifier: MIT
// The HTML report of a comparison: one self-contained page (its data as JSON, Chart.js from
// Debian's libjs-chart.js and its own script and styles inlined, a Content-Security-Policy that
// allows no request) that any browser opens offline. It shows the numbers of
// comparisonDocument (comparison_json.h), the loss curves, the System readings and each run's
// settings; what it shows and how it was tested is docs/REPORT.md. Every string from a record
// is text in the page, never markup. Plain C++ and nlohmann_json: no Qt, no LibTorch.
#pragma once

#include "devicebench/comparison_json.h"

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace devicebench {

// A report that could not be written; what() names the file and the OS error.
class ReportError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// The question a comparison answers and its answer, one sentence each, from the groups: the
// fastest group against the baseline group (the fastest comparable one, else the fastest), e.g.
// "How much faster does small-cnn train on CPU x2 @ host than on CPU x1 @ host?" and "CPU x2 @ host
// trains small-cnn 1.82x [1.45, 2.29] faster than CPU x1 @ host." With one group, its stable mean;
// with none, a sentence saying so.
struct ReportAnswer {
    std::string question;
    std::string sentence;
};
ReportAnswer reportAnswer(const RunSet &runs, const RunGroups &groups);

// The most loss points a report keeps over all its runs; each run gets an equal share (at
// most kReportPointsPerRun, at least kReportMinPointsPerRun) of bucket means of its steps.
inline constexpr std::size_t kReportPointBudget = 60000;
inline constexpr std::size_t kReportPointsPerRun = 1000;
inline constexpr std::size_t kReportMinPointsPerRun = 100;

// The page's data: {"comparison": comparisonDocument(runs, parts, ...), "answer": {"question",
// "sentence"}, "curves": [{"number", "steps": [[epoch position, mean loss or null]...],
// "test": [[epoch, test loss or null]...]}], "system": [{"number", "samples", "readings":
// [{"name", "unit", "mean", "max"}]}], "runs": [{"number", "fingerprint", "data"}],
// "testLossWarning", "generated": `generatedUtc`, "version"}. A step's epoch position is its
// step number (counted over the run) over the steps per epoch.
OrderedJson reportData(const RunSet &runs, const ComparisonParts &parts,
                       const std::string &generatedUtc);

// `data` as text that is safe inside <script type="application/json">: `<`, `>`, `&`, U+2028
// and U+2029 written as \u escapes; text that is not UTF-8 gets U+FFFD.
std::string scriptSafeJson(const OrderedJson &data);

// The whole page for `data` (reportData's shape). `nonce`: the CSP nonce of its scripts and
// styles (letters and digits).
std::string htmlReport(const OrderedJson &data, const std::string &nonce);

// The current UTC time as "2026-12-03T08:10:00Z".
std::string utcNow();

// The page of `runs` (their groups and control; the published rows of `published` as `beside`
// sets them, when both are given), generated now, written atomically (atomic_file.h) to
// `path`. Throws ReportError ("Cannot write <path>: <why>"); then `path` is as it was.
void writeHtmlReport(const std::string &path, const RunSet &runs,
                     const std::vector<PublishedSet> *published = nullptr,
                     const PublishedBeside *beside = nullptr);

} // namespace devicebench
