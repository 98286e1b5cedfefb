// SPDX-License-Identifier: MIT
// How a run is named in every view (comparison.h: runLabel, modelLabel, jobMachineLabel,
// deviceKind, backendLabel).
#include "devicebench/comparison.h"
#include "devicebench/display_text.h"
#include "devicebench/precision_text.h"
#include "devicebench/workloads.h"

#include <algorithm>
#include <set>
#include <string>
#include <vector>

namespace devicebench {

namespace {

// The device the record ran on: as started, else as configured.
const std::string &recordDevice(const RunRecord &record) {
    return record.started.device.empty() ? record.config.device : record.started.device;
}

int recordThreads(const RunRecord &record) {
    return record.started.device.empty() ? record.config.threads : record.started.threads;
}

std::string threadsText(int threads) {
    return std::to_string(threads) + (threads == 1 ? " thread" : " threads");
}

// " (1 thread)", " (2 threads)", " (1\u20132 threads)" for ranks that differ.
std::string rankThreadsText(const RunRecord &record) {
    const std::vector<RankPlacement> &ranks = record.started.distributed.ranks;
    if (ranks.empty())
        return " (" + threadsText(recordThreads(record)) + ")";
    const auto [low, high] = std::minmax_element(
        ranks.begin(), ranks.end(),
        [](const RankPlacement &a, const RankPlacement &b) { return a.threads < b.threads; });
    if (low->threads == high->threads)
        return " (" + threadsText(low->threads) + ")";
    return " (" + std::to_string(low->threads) + "\u2013" + threadsText(high->threads) + ")";
}

// " @ host-a" for one host, " @ 4 hosts" for several.
std::string hostsText(const RunRecord &record) {
    std::set<std::string> hosts;
    for (const RankPlacement &rank : record.started.distributed.ranks)
        if (!rank.host.empty())
            hosts.insert(rank.host);
    if (hosts.size() > 1)
        return " @ " + std::to_string(hosts.size()) + " hosts";
    if (hosts.size() == 1)
        return " @ " + displayText(*hosts.begin());
    return " @ " + (record.fingerprint.hostName.empty() ? "unknown host"
                                                        : displayText(record.fingerprint.hostName));
}

} // namespace

std::string backendLabel(const std::string &backend) {
    if (backend == "gloo")
        return "Gloo";
    if (backend == "nccl")
        return "NCCL";
    return backend;
}

std::string deviceKind(const RunRecord &record) {
    const std::string &device = recordDevice(record);
    if (device == "cpu")
        return "CPU";
    if (const std::string name = gpuName(record.fingerprint, device); !name.empty())
        return displayText(name);
    if (!record.started.deviceName.empty())
        return displayText(record.started.deviceName);
    return displayText(device);
}

std::string jobMachineLabel(const RunRecord &record) {
    const DistributedInfo &d = record.started.distributed;
    if (!d.isJob())
        return machineLabel(record.fingerprint, recordDevice(record), recordThreads(record));
    std::string label = std::to_string(d.worldSize) + " x " + deviceKind(record);
    if (recordDevice(record) == "cpu")
        label += rankThreadsText(record);
    if (!d.backend.empty())
        label += ", " + backendLabel(d.backend);
    return label + hostsText(record);
}

std::string runLabel(const RunRecord &record) {
    const DistributedInfo &d = record.started.distributed;
    std::string label;
    if (d.isJob()) {
        label = jobMachineLabel(record);
    } else {
        if (d.worldSize > 0) // a rank of a job: its own clock, not a device of its own
            label = "rank " + std::to_string(d.rank) + " of " + std::to_string(d.worldSize) + ": ";
        label += machineLabel(record.fingerprint, recordDevice(record), recordThreads(record));
    }
    label += modelLabel(record);
    // Runs of other batch sizes are other groups: the label says which ("CPU x2 · batch 32").
    if (record.config.batchSize != kDefaultBatchSize && record.config.batchSize > 0)
        label += " \u00b7 batch " + std::to_string(record.config.batchSize);
    // The article's float32 is the default; mixed precision is named ("CPU x2 bf16"), and a
    // precision this version does not know by its text.
    if (record.precision != "float32") {
        label += isRecordedPrecision(record.precision)
                     ? " " + precisionShortText(record.precision)
                     : " precision '" + displayText(record.precision) + "'";
    }
    // TF32 set on or off (CUDA runs; LibTorch's default is unlabelled).
    if (record.config.tf32 != Tf32::Default)
        label += " TF32 " + std::string(toString(record.config.tf32));
    // The article's computation is the default; any other workload is named in the label.
    if (!record.workload.empty() && record.workload != toString(Workload::Faithful) &&
        workloadRow(record.config.workload).engineModel) { // a script's file names it already
        label += " (" + displayText(record.workload) + ")";
    }
    // Phase timing synchronises the device at every phase: its times are another
    // kind of number, and every view of the run says so.
    if (record.config.phases) {
        label += " (phase-timed)";
    }
    // Times on generated data are real, accuracy is not: every view of the run says so.
    if (record.data.variant == "synthetic") {
        label += " [synthetic]";
    }
    return label;
}

std::string scriptWorkText(const std::string &script, const RunStarted &started) {
    std::string text =
        script.empty() ? "your script" : displayText(script.substr(script.rfind('/') + 1));
    if (!started.modelName.empty())
        text += ": " + displayText(started.modelName);
    if (!started.modelWrapper.empty())
        text += " in " + displayText(started.modelWrapper);
    return text;
}

std::string trainedName(const RunRecord &record) {
    return workloadRow(record.config.workload).engineModel
               ? displayText(record.model)
               : scriptWorkText(record.config.script, record.started);
}

std::string modelLabel(const RunRecord &record) {
    if (!workloadRow(record.config.workload).engineModel) // the script's file and its model
        return " \u00b7 " + scriptWorkText(record.config.script, record.started);
    std::string label;
    if (!record.model.empty() && record.model != kDefaultModel) {
        label += " \u00b7 " + displayText(record.model);
    }
    if (record.config.imageSize != kDefaultImageSize) {
        label += " \u00b7 " + std::to_string(record.config.imageSize) + " px";
    }
    return label;
}

} // namespace devicebench
