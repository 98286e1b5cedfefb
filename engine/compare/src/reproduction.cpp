// SPDX-License-Identifier: MIT
// Reproducing the article (reproduction.h).
#include "devicebench/reproduction.h"

#include "devicebench/comparison.h"
#include "devicebench/fingerprint.h"

#include <cmath>
#include <cstdio>

namespace devicebench {
namespace {

bool sameMachineAndDevice(const RunRecord &a, const RunRecord &b) {
    return a.fingerprint.hostName == b.fingerprint.hostName &&
           a.fingerprint.cpuModel == b.fingerprint.cpuModel &&
           a.started.device == b.started.device && a.started.threads == b.started.threads;
}

// Only the program differs: same settings, data, machine, device and threads.
bool onlyProgramDiffers(const RunRecord &script, const RunRecord &faithful) {
    const std::vector<std::string> differences = workloadDifferences(script, faithful);
    return differences.size() == 1 && differences.front() == "workload" &&
           sameMachineAndDevice(script, faithful);
}

std::string ratioLine(const RunEntry &script, const RunEntry &faithful, double ratio) {
    char number[32];
    std::snprintf(number, sizeof number, "%.2f", ratio);
    std::string where = machineLabel(script.record.fingerprint, script.record.started.device,
                                     script.record.started.threads);
    if (script.record.started.device.rfind("cuda", 0) != 0 &&
        !script.record.fingerprint.cpuModel.empty())
        where += " (" + script.record.fingerprint.cpuModel + ")";
    return "DeviceBench's faithful workload: " + std::string(number) +
           " x the article's script on " + where + " (#" + std::to_string(faithful.number) +
           " against #" + std::to_string(script.number) + ")";
}

bool hasStableMean(const RunEntry &entry) {
    return entry.summary.hasStable && std::isfinite(entry.summary.stableMean) &&
           entry.summary.stableMean > 0.0;
}

} // namespace

const PublishedSet *articleSet(const std::vector<PublishedSet> &sets) {
    for (const PublishedSet &set : sets) {
        if (set.source.program == kArticleScriptWorkload)
            return &set;
    }
    return nullptr;
}

std::vector<RunConfig> reproductionRuns(const PublishedSet &set, const RunConfig &base,
                                        const std::vector<std::string> &devices) {
    RunConfig config = base;
    const PublishedSettings &s = set.settings;
    config.model = s.model;
    config.batchSize = s.batchSize;
    config.epochs = s.epochs;
    config.warmupEpochs = s.warmupEpochs;
    config.learningRate = s.learningRate;
    config.precision = s.precision;
    config.imageSize = s.imageSize;
    config.trainImages = 0; // all of them: the published rows trained on the whole set
    config.testImages = 0;
    config.synthetic = false;
    config.phases = false;
    config.dataOnDevice = false;
    config.tf32 = Tf32::Default;
    std::vector<RunConfig> runs;
    for (const std::string &device : devices) {
        config.device = device;
        config.workload = Workload::ArticleScript;
        runs.push_back(config);
        config.workload = Workload::Faithful;
        runs.push_back(config);
    }
    return runs;
}

std::vector<ProgramRatio> programRatios(const RunSet &store) {
    std::vector<ProgramRatio> ratios;
    const std::vector<RunEntry> &runs = store.runs();
    for (int s = 0; s < store.runCount(); ++s) {
        const RunEntry &script = runs[static_cast<std::size_t>(s)];
        if (script.record.workload != kArticleScriptWorkload || !hasStableMean(script))
            continue;
        for (int f = store.runCount() - 1; f >= 0; --f) { // the latest partner
            const RunEntry &faithful = runs[static_cast<std::size_t>(f)];
            if (faithful.record.workload != "faithful" || !hasStableMean(faithful) ||
                !onlyProgramDiffers(script.record, faithful.record))
                continue;
            ProgramRatio ratio;
            ratio.scriptIndex = s;
            ratio.faithfulIndex = f;
            ratio.ratio = faithful.summary.stableMean / script.summary.stableMean;
            ratio.line = ratioLine(script, faithful, ratio.ratio);
            ratios.push_back(ratio);
            break;
        }
    }
    return ratios;
}

} // namespace devicebench
