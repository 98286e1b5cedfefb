// SPDX-License-Identifier: MIT
// A comparison as JSON: the documents of `devicebench-cli compare --json` and `run --json`
// (shapes in README.md, "JSON output"), and the data of the HTML report (html_report.h), which
// shows the same numbers. NaN and infinity are written as null (JSON has neither); text that is
// not UTF-8 gets U+FFFD when dumped. Plain C++ and nlohmann_json: no Qt, no LibTorch.
#pragma once

#include "devicebench/cost.h"
#include "devicebench/published.h"
#include "devicebench/run_groups.h"
#include "devicebench/run_record.h"
#include "devicebench/run_set.h"
#include "devicebench/run_types.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace devicebench {

using OrderedJson = nlohmann::ordered_json;

// {"epochSeconds": [...], "warmupEpochs", "meanAll", "hasStable", "stableMean", "median",
//  "stddev", "imagesPerSecond", "stableCount", "min", "max", "cv", "ciLow", "ciHigh"}: the
// members of Summary (run_types.h), seconds and images per second. A number that is undefined
// or unknown is null: "stddev", "cv", "ciLow" and "ciHigh" with fewer than 2 stable epochs,
// every stable statistic without a stable epoch.
OrderedJson summaryJson(const Summary &summary);

// A run's energy over its stable epochs (run_energy.h): {"sampled", "joulesPerStableEpoch",
// "stableEpochs", "totalJoules", "methods", "notMeasured": why not ("" when measured), "line":
// the summary's energy line}; joules null when not measured.
OrderedJson energyJson(const RunRecord &record, int warmupEpochs);

// The run record's JSON (docs/run-record.md) as an object.
OrderedJson recordJson(const RunRecord &record);

// recordJson of the record without its epochs, steps and samples: its "config", "started",
// "fingerprint" and "data" (and defaults elsewhere), at a fraction of the cost.
OrderedJson recordHeadJson(const RunRecord &record);

// A run's cost: {"basis", "perEpoch", "perTenEpochRun", "imagesPerMoney", "currency",
// "pricePerHour", "pricePerKwh", "priceMatch", "priceSource", "priceDate", "reason", "line"};
// numbers that do not exist are null.
OrderedJson costJson(const RunCost &cost);

// The document of `compare --json`:
//   {"command": "compare", "version", "exitCode", "baseline": <number of the baseline run>,
//    "runs": [{"number", "label", "file", "runId", "status", "reason", "comparable",
//              "differences": [field names], "isBaseline", "speedUp": {"ratio", "low", "high"},
//              "warmupEpochs", "summary": summaryJson, "timeToTarget": null or {"target" (%),
//              "reached", "epoch", "epochs", "seconds", "trainingSeconds", "line"},
//              "energy": energyJson,
//              "system": <the summary's system line>, "config": <record config>,
//              "started": <record started>}],
//    "control": [{"a": number, "b": number, "maxTestLossDiff", "warning": bool}],
//    "skipped": [{"file", "reason"}], "files": [written paths]}
OrderedJson compareJson(const RunSet &runs, const std::vector<ControlPair> &pairs, int exitCode,
                        OrderedJson skipped, OrderedJson files);

// compare's "groups" (run_groups.h): [{"number", "label", "runs": [run numbers], "n", "mean",
//  "stddev", "min", "max", "ciLow", "ciHigh" (seconds), "intervalFrom": "runs" | "epochs" |
//  null, "isBaseline", "speedUp": {"ratio", "low", "high"}, "comparable", "differences",
//  "maxTestLossDiff", "timeToTarget": null or the MLPerf score of its runs' times to target
//  {"runs", "reached", "olympic", "seconds" (+infinity, written null, when not reached
//  reliably), "min", "max", "line"}}], in the order of their first runs.
OrderedJson groupsJson(const RunSet &runs, const RunGroups &groups);

// compare's "controlSummary": {"comparablePairs", "largest": {"a", "b", "maxTestLossDiff",
//  "warning"} or null, "warnings": [pairs above kTestLossWarning, as "largest"]}.
OrderedJson controlSummaryJson(const RunSet &runs, const ControlSummary &control);

// --json's "programRatios": [{"scriptRun", "faithfulRun" (run numbers), "ratio", "line"}].
OrderedJson programRatiosJson(const RunSet &store);

// One entry per published row: {"file", "builtIn", "source": {"title", "shortName", "note",
// "program", "url"}, "settings": {...}, "label", "device", "deviceKind", "where",
// "stableMeanSeconds", "epochSeconds" (null when none published), "speedUp" (null without a
// baseline), "isBaseline", "match" ("like-for-like", "other-program", "other-settings",
// "no-run"), "note", "likeForLikeRuns": [run numbers]}.
OrderedJson publishedJson(const std::vector<PublishedSet> &sets, const PublishedBeside &beside,
                          const RunSet &store);

// What a comparison document holds beside compareJson's members. Pointers may be null.
struct ComparisonParts {
    const RunGroups *groups = nullptr;                    // "groups" ([] when null)
    const ControlSummary *control = nullptr;              // "controlSummary" (no pair when null)
    const std::vector<ControlPair> *pairs = nullptr;      // "control": every pair; null: left out
    const std::vector<PublishedSet> *published = nullptr; // with `beside`: "published" and
    const PublishedBeside *beside = nullptr;              // "programRatios"; null: left out
};

// compare's whole --json document: compareJson with "groups", "controlSummary" and, as
// `parts` has them, "control", "published" and "programRatios".
OrderedJson comparisonDocument(const RunSet &runs, const ComparisonParts &parts, int exitCode,
                               OrderedJson skipped, OrderedJson files);

// `document` pretty-printed with two spaces and a final newline.
std::string dumpJson(const OrderedJson &document);

} // namespace devicebench
