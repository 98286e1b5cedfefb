// SPDX-License-Identifier: MIT
#include "cli_json.h"
#include "cli_cost.h"

#include "devicebench/comparison.h"
#include "devicebench/contention.h"
#include "devicebench/machine_drift.h"
#include "devicebench/run_energy.h"
#include "devicebench/run_set.h"

#include "devicebench/version.h"

namespace devicebench::cli {

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

OrderedJson compareJson(const RunSet &store, const std::vector<ControlPair> &pairs, int exitCode,
                        OrderedJson skipped, OrderedJson files) {
    OrderedJson runs = OrderedJson::array();
    for (const RunEntry &run : store.runs()) {
        const OrderedJson record = recordJson(run.record);
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
        j["contendedStableEpochs"] = contendedStableEpochs(run.record.epochs, run.warmupEpochs);
        j["speedChangedStableEpochs"] =
            speedChangedStableEpochs(run.record.epochs, run.warmupEpochs);
        j["canaryDrift"] = stableCanaryDrift(run.record.epochs, run.warmupEpochs); // NaN: null
        j["machineSpeed"] = {{"compared", run.machineSpeed.compared},
                             {"change", run.machineSpeed.change},
                             {"biased", run.machineSpeed.biased}};
        j["achievedGflops"] = achievedGflops(run.record, run.summary); // NaN: null
        j["energy"] = energyJson(run.record, run.warmupEpochs);
        j["system"] = systemLine(run.record.epochs, run.warmupEpochs);
        j["cost"] = costJson(run.cost);
        j["config"] = record["config"];
        j["started"] = record["started"];
        runs.push_back(std::move(j));
    }
    OrderedJson control = OrderedJson::array();
    for (const ControlPair &pair : pairs) {
        control.push_back({{"a", store.run(pair.indexA).number},
                           {"b", store.run(pair.indexB).number},
                           {"maxTestLossDiff", pair.maxTestLossDiff},
                           {"warning", pair.warning}});
    }
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

std::string dumpJson(const OrderedJson &document) {
    return document.dump(2, ' ', false, OrderedJson::error_handler_t::replace) + "\n";
}

} // namespace devicebench::cli
