// SPDX-License-Identifier: MIT
// `--json` output of `devicebench-cli run` and `compare`: one JSON document on stdout at the
// end, for scripts. The shapes are documented in README.md ("JSON output").
// NaN and infinity are written as null (JSON has neither); text that is not UTF-8 gets U+FFFD.
#pragma once

#include "devicebench/run_record.h"
#include "devicebench/run_types.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace devicebench {
class RunSet;
struct ControlPair;
struct ControlSummary;
struct RunGroups;
} // namespace devicebench

namespace devicebench::cli {

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

// The document of `compare --json`:
//   {"command": "compare", "version", "exitCode", "baseline": <number of the baseline run>,
//    "runs": [{"number", "label", "file", "runId", "status", "reason", "comparable",
//              "differences": [field names], "isBaseline", "speedUp": {"ratio", "low", "high"},
//              "warmupEpochs", "summary": summaryJson, "energy": energyJson,
//              "system": <the summary's system line>, "config": <record config>,
//              "started": <record started>}],
//    "control": [{"a": number, "b": number, "maxTestLossDiff", "warning": bool}],
//    "skipped": [{"file", "reason"}], "files": [written paths]}
OrderedJson compareJson(const RunSet &runs, const std::vector<ControlPair> &pairs, int exitCode,
                        OrderedJson skipped, OrderedJson files);

// compare's "groups" (run_groups.h): [{"number", "label", "runs": [run numbers], "n", "mean",
//  "stddev", "min", "max", "ciLow", "ciHigh" (seconds), "intervalFrom": "runs" | "epochs" |
//  null, "isBaseline", "speedUp": {"ratio", "low", "high"}, "comparable", "differences",
//  "maxTestLossDiff"}], in the order of their first runs.
OrderedJson groupsJson(const RunSet &runs, const RunGroups &groups);

// compare's "controlSummary": {"comparablePairs", "largest": {"a", "b", "maxTestLossDiff",
//  "warning"} or null, "warnings": [pairs above kTestLossWarning, as "largest"]}.
OrderedJson controlSummaryJson(const RunSet &runs, const ControlSummary &control);

// `document` pretty-printed with two spaces and a final newline.
std::string dumpJson(const OrderedJson &document);

} // namespace devicebench::cli
