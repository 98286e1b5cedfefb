// SPDX-License-Identifier: MIT
// A comparison as JSON (comparison_json.h).
#include "devicebench/comparison_json.h"

#include "devicebench/comparison.h"
#include "devicebench/contention.h"
#include "devicebench/machine_drift.h"
#include "devicebench/reproduction.h"
#include "devicebench/run_energy.h"
#include "devicebench/version.h"

#include <cmath>
#include <cstddef>

namespace devicebench {
namespace {

const char *matchName(PublishedMatch match) {
    switch (match) {
    case PublishedMatch::LikeForLike:
        return "like-for-like";
    case PublishedMatch::OtherProgram:
        return "other-program";
    case PublishedMatch::OtherSettings:
        return "other-settings";
    case PublishedMatch::NoRun:
        break;
    }
    return "no-run";
}

} // namespace

OrderedJson summaryJson(const Summary &s) {
    OrderedJson j;
    j["epochSeconds"] = s.epochSeconds;
    j["warmupEpochs"] = s.warmupEpochs;
    j["meanAll"] = s.meanAll;
    j["hasStable"] = s.hasStable;
    j["stableMean"] = s.stableMean;
    j["median"] = s.median;
    j["stddev"] = s.stddev;
    j["imagesPerSecond"] = s.imagesPerSecond;
    j["stableCount"] = s.stableCount;
    j["min"] = s.min;
    j["max"] = s.max;
    j["cv"] = s.cv;
    j["ciLow"] = s.ciLow;
    j["ciHigh"] = s.ciHigh;
    return j;
}

OrderedJson energyJson(const RunRecord &record, int warmupEpochs) {
    const EnergySummary energy = summarizeEnergy(record.epochs, warmupEpochs);
    OrderedJson j;
    j["sampled"] = record.sampling.sampled;
    j["joulesPerStableEpoch"] = energy.meanJoules; // NaN (null): not measured
    j["stableEpochs"] = energy.epochs;
    j["totalJoules"] = energy.totalJoules;
    j["methods"] = energy.methods;
    j["notMeasured"] = energyNotMeasuredReason(record.epochs);
    j["line"] = energyLine(record.epochs, warmupEpochs, record.sampling);
    return j;
}

OrderedJson recordJson(const RunRecord &record) { return OrderedJson::parse(toJson(record)); }

OrderedJson recordHeadJson(const RunRecord &record) {
    RunRecord head;
    head.schemaVersion = record.schemaVersion;
    head.runId = record.runId;
    head.createdUtc = record.createdUtc;
    head.model = record.model;
    head.precision = record.precision;
    head.workload = record.workload;
    head.config = record.config;
    head.started = record.started;
    head.fingerprint = record.fingerprint;
    head.data = record.data;
    head.sampling = record.sampling;
    head.status = record.status;
    head.reason = record.reason;
    return recordJson(head);
}

namespace {

OrderedJson controlPairJson(const RunSet &store, const ControlPair &pair) {
    return {{"a", store.run(pair.indexA).number},
            {"b", store.run(pair.indexB).number},
            {"maxTestLossDiff", pair.maxTestLossDiff},
            {"warning", pair.warning}};
}

// A run's time to its target, or null without a target.
OrderedJson targetJson(const TargetResult &t) {
    if (!t.set)
        return nullptr;
    return {{"target", t.target},       {"reached", t.reached},
            {"epoch", t.epoch},         {"epochs", t.epochs},
            {"seconds", t.seconds},     {"trainingSeconds", t.trainingSeconds},
            {"line", describeTarget(t)}};
}

// A group's MLPerf score of its times to target, or null when its runs have none.
OrderedJson scoreJson(const TargetScore &s) {
    if (s.runs == 0)
        return nullptr;
    return {{"runs", s.runs},          {"reached", s.reached}, {"olympic", s.olympic},
            {"seconds", s.seconds},    {"min", s.min},         {"max", s.max},
            {"line", describeScore(s)}};
}

} // namespace

OrderedJson groupsJson(const RunSet &store, const RunGroups &groups) {
    OrderedJson list = OrderedJson::array();
    for (const RunGroup &g : groups.groups) {
        std::vector<int> numbers;
        for (const int index : g.runs)
            numbers.push_back(store.run(index).number);
        const GroupStats &s = g.stats;
        OrderedJson j;
        j["number"] = g.number;
        j["label"] = g.label;
        j["runs"] = numbers;
        j["n"] = s.n;
        j["mean"] = s.mean; // NaN: null
        j["stddev"] = s.stddev;
        j["min"] = s.min;
        j["max"] = s.max;
        j["ciLow"] = s.ciLow;
        j["ciHigh"] = s.ciHigh;
        j["intervalFrom"] =
            std::isnan(s.ciLow) ? OrderedJson(nullptr) : OrderedJson(s.n >= 2 ? "runs" : "epochs");
        j["isBaseline"] = g.isBaseline;
        j["speedUp"] = {
            {"ratio", g.speedUp.ratio}, {"low", g.speedUp.low}, {"high", g.speedUp.high}};
        j["comparable"] = g.differences.empty();
        j["differences"] = g.differences;
        j["maxTestLossDiff"] = g.maxTestLossDiff;
        j["timeToTarget"] = scoreJson(g.target);
        list.push_back(std::move(j));
    }
    return list;
}

OrderedJson controlSummaryJson(const RunSet &store, const ControlSummary &control) {
    OrderedJson warnings = OrderedJson::array();
    for (const ControlPair &pair : control.warnings)
        warnings.push_back(controlPairJson(store, pair));
    OrderedJson j;
    j["comparablePairs"] = control.comparablePairs;
    j["largest"] = control.largest.indexA >= 0 ? controlPairJson(store, control.largest)
                                               : OrderedJson(nullptr);
    j["warnings"] = std::move(warnings);
    return j;
}

OrderedJson compareJson(const RunSet &store, const std::vector<ControlPair> &pairs, int exitCode,
                        OrderedJson skipped, OrderedJson files) {
    OrderedJson runs = OrderedJson::array();
    for (const RunEntry &run : store.runs()) {
        const OrderedJson record = recordHeadJson(run.record);
        OrderedJson j;
        j["number"] = run.number;
        j["label"] = run.label;
        j["file"] = run.origin;
        j["runId"] = run.record.runId;
        j["model"] = run.record.model;
        j["workload"] = run.record.workload;
        j["precision"] = run.record.precision;
        j["status"] = toString(run.state);
        j["reason"] = run.reason;
        j["comparable"] = run.comparable();
        j["differences"] = run.differences;
        j["isBaseline"] = run.isBaseline;
        j["speedUp"] = {
            {"ratio", run.speedUp.ratio}, {"low", run.speedUp.low}, {"high", run.speedUp.high}};
        j["warmupEpochs"] = run.warmupEpochs;
        j["summary"] = summaryJson(run.summary);
        j["timeToTarget"] = targetJson(run.target);
        j["contendedStableEpochs"] = contendedStableEpochs(run.record.epochs, run.warmupEpochs);
        j["speedChangedStableEpochs"] =
            speedChangedStableEpochs(run.record.epochs, run.warmupEpochs);
        j["canaryDrift"] = stableCanaryDrift(run.record.epochs, run.warmupEpochs); // NaN: null
        j["machineSpeed"] = {{"compared", run.machineSpeed.compared},
                             {"change", run.machineSpeed.change},
                             {"biased", run.machineSpeed.biased}};
        j["achievedGflops"] = achievedGflops(run.record, run.summary); // NaN: null
        j["energy"] = energyJson(run.record, run.warmupEpochs);
        j["system"] =
            systemLine(run.record.epochs, run.warmupEpochs, run.record.sampling.memoryMeasure);
        j["cost"] = costJson(run.cost);
        j["config"] = record["config"];
        j["started"] = record["started"];
        runs.push_back(std::move(j));
    }
    OrderedJson control = OrderedJson::array();
    for (const ControlPair &pair : pairs)
        control.push_back(controlPairJson(store, pair));
    OrderedJson document;
    document["command"] = "compare";
    document["version"] = kVersion;
    document["exitCode"] = exitCode;
    document["baseline"] = store.runCount() > 0
                               ? OrderedJson(store.run(store.baselineIndex()).number)
                               : OrderedJson(nullptr); // compare --published alone
    document["runs"] = std::move(runs);
    document["control"] = std::move(control);
    document["skipped"] = std::move(skipped);
    document["files"] = std::move(files);
    return document;
}

OrderedJson costJson(const RunCost &cost) {
    const RunPrice &p = cost.price;
    OrderedJson j;
    j["basis"] = toString(cost.basis);
    j["perEpoch"] = cost.perEpoch; // NaN: null
    j["perTenEpochRun"] = cost.perRun;
    j["imagesPerMoney"] = cost.imagesPerMoney;
    j["currency"] = cost.currency;
    j["pricePerHour"] = p.perHour;
    j["pricePerKwh"] = cost.perKwh;
    j["priceMatch"] = p.match;
    j["priceSource"] = p.source;
    j["priceDate"] = p.date;
    j["reason"] = cost.reason;
    j["line"] = costLine(cost);
    return j;
}

OrderedJson programRatiosJson(const RunSet &store) {
    OrderedJson ratios = OrderedJson::array();
    for (const ProgramRatio &ratio : programRatios(store)) {
        OrderedJson j;
        j["scriptRun"] = store.run(ratio.scriptIndex).number;
        j["faithfulRun"] = store.run(ratio.faithfulIndex).number;
        j["ratio"] = ratio.ratio;
        j["line"] = ratio.line;
        ratios.push_back(std::move(j));
    }
    return ratios;
}

OrderedJson publishedJson(const std::vector<PublishedSet> &sets, const PublishedBeside &beside,
                          const RunSet &store) {
    OrderedJson rows = OrderedJson::array();
    for (const PublishedEntry &entry : beside.rows) {
        const PublishedSet &set = sets[static_cast<std::size_t>(entry.setIndex)];
        const PublishedRow &row = set.rows[static_cast<std::size_t>(entry.rowIndex)];
        const PublishedSettings &s = set.settings;
        OrderedJson runs = OrderedJson::array();
        for (int index : likeForLikeRuns(set, store))
            runs.push_back(store.run(index).number);
        OrderedJson j;
        j["file"] = set.file;
        j["builtIn"] = set.builtIn;
        j["source"] = {{"title", set.source.title},
                       {"shortName", set.source.shortName},
                       {"note", set.source.note},
                       {"program", set.source.program},
                       {"url", set.source.url}};
        j["settings"] = {{"model", s.model},
                         {"batchSize", s.batchSize},
                         {"epochs", s.epochs},
                         {"warmupEpochs", s.warmupEpochs},
                         {"learningRate", s.learningRate},
                         {"precision", shortName(s.precision)},
                         {"imageSize", s.imageSize},
                         {"trainImages", s.trainImages},
                         {"testImages", s.testImages}};
        j["label"] = entry.label;
        j["device"] = row.device;
        j["deviceKind"] = row.deviceKind;
        j["where"] = row.where;
        j["stableMeanSeconds"] = row.stableMeanSeconds;
        j["epochSeconds"] =
            row.epochSeconds.empty() ? OrderedJson(nullptr) : OrderedJson(row.epochSeconds);
        j["speedUp"] =
            std::isfinite(entry.speedUp) ? OrderedJson(entry.speedUp) : OrderedJson(nullptr);
        j["isBaseline"] = entry.isBaseline;
        j["match"] = matchName(entry.comparability.match);
        j["note"] = entry.comparability.note;
        j["likeForLikeRuns"] = std::move(runs);
        rows.push_back(std::move(j));
    }
    return rows;
}

OrderedJson comparisonDocument(const RunSet &runs, const ComparisonParts &parts, int exitCode,
                               OrderedJson skipped, OrderedJson files) {
    const std::vector<ControlPair> none;
    OrderedJson document = compareJson(runs, parts.pairs != nullptr ? *parts.pairs : none, exitCode,
                                       std::move(skipped), std::move(files));
    document["groups"] =
        parts.groups != nullptr ? groupsJson(runs, *parts.groups) : OrderedJson::array();
    document["controlSummary"] =
        controlSummaryJson(runs, parts.control != nullptr ? *parts.control : ControlSummary());
    if (parts.pairs == nullptr)
        document.erase("control"); // every pair: compare --runs only
    if (parts.published != nullptr && parts.beside != nullptr) {
        document["published"] = publishedJson(*parts.published, *parts.beside, runs);
        document["programRatios"] = programRatiosJson(runs);
    }
    return document;
}

std::string dumpJson(const OrderedJson &document) {
    return document.dump(2, ' ', false, OrderedJson::error_handler_t::replace) + "\n";
}

} // namespace devicebench
