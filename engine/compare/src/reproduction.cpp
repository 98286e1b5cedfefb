// SPDX-License-Identifier: MIT
// Reproducing the article (reproduction.h).
#include "devicebench/reproduction.h"

#include "devicebench/comparison.h"
#include "devicebench/fingerprint.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

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

// The faithful run not yet paired that differs from runs[script] only in the program and sits
// nearest to it in the set (the one after it on a tie: a reproduction runs the script, then
// its twin); -1 when there is none.
int nearestTwin(const std::vector<RunEntry> &runs, int script, const std::vector<bool> &paired) {
    int best = -1;
    for (int f = 0; f < static_cast<int>(runs.size()); ++f) {
        const RunEntry &faithful = runs[static_cast<std::size_t>(f)];
        if (paired[static_cast<std::size_t>(f)] || faithful.record.workload != "faithful" ||
            !hasStableMean(faithful) ||
            !onlyProgramDiffers(runs[static_cast<std::size_t>(script)].record, faithful.record))
            continue;
        const int distance = std::abs(f - script);
        if (best < 0 || distance < std::abs(best - script) ||
            (distance == std::abs(best - script) && f > best))
            best = f;
    }
    return best;
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
        runs.back().python.clear(); // the engine's run: no Python
    }
    return runs;
}

std::vector<ProgramRatio> programRatios(const RunSet &store) {
    std::vector<ProgramRatio> ratios;
    const std::vector<RunEntry> &runs = store.runs();
    std::vector<bool> paired(runs.size(), false); // each faithful run is one script run's twin
    for (int s = 0; s < store.runCount(); ++s) {
        const RunEntry &script = runs[static_cast<std::size_t>(s)];
        if (script.record.workload != kArticleScriptWorkload || !hasStableMean(script))
            continue;
        const int f = nearestTwin(runs, s, paired);
        if (f < 0)
            continue;
        paired[static_cast<std::size_t>(f)] = true;
        const RunEntry &faithful = runs[static_cast<std::size_t>(f)];
        ProgramRatio ratio;
        ratio.scriptIndex = s;
        ratio.faithfulIndex = f;
        ratio.ratio = faithful.summary.stableMean / script.summary.stableMean;
        ratio.line = ratioLine(script, faithful, ratio.ratio);
        ratios.push_back(ratio);
    }
    return ratios;
}

} // namespace devicebench
