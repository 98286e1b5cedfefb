// SPDX-License-Identifier: MIT
#include "devicebench/machine_speed.h"

#include "devicebench/machine_drift.h"
#include "devicebench/summary.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace devicebench {
namespace {

// One machine, and one library computing the canary (another LibTorch or BLAS runs other
// kernels for the same product).
bool sameMachine(const RunRecord &a, const RunRecord &b) {
    const Fingerprint &x = a.fingerprint;
    const Fingerprint &y = b.fingerprint;
    return !x.hostName.empty() && x.hostName == y.hostName && !x.cpuModel.empty() &&
           x.cpuModel == y.cpuModel && x.libtorchVersion == y.libtorchVersion &&
           x.blasLibrary == y.blasLibrary;
}

} // namespace

RunCanary runCanary(const RunRecord &record) {
    std::vector<double> seconds;
    std::vector<double> noise;
    const std::string &device =
        record.started.device.empty() ? record.config.device : record.started.device;
    const auto add = [&](const CanaryTime &canary) {
        if (!canary.measured || !(canary.seconds > 0.0))
            return;
        seconds.push_back(canary.seconds);
        if (std::isfinite(canary.noise))
            noise.push_back(canary.noise);
    };
    RunCanary canary;
    if (device != "cpu")
        return canary;
    add(record.started.canary);
    // A contended epoch's canary timed the busy machine, not its speed: the contention is
    // reported as such (contention.h), and is not to be read as the machine's drift.
    for (const EpochResult &e : record.epochs)
        if (!e.load.contended)
            add(e.canary);
    if (seconds.empty())
        return canary;
    canary.known = true;
    canary.seconds = median(seconds);
    canary.noise = noise.empty() ? 0.0 : median(noise);
    canary.count = static_cast<int>(seconds.size());
    return canary;
}

MachineSpeedDifference machineSpeedDifference(const RunRecord &baseline, const RunRecord &run) {
    MachineSpeedDifference difference;
    if (!sameMachine(baseline, run))
        return difference;
    const RunCanary a = runCanary(baseline);
    const RunCanary b = runCanary(run);
    if (!a.known || !b.known)
        return difference;
    difference.compared = true;
    difference.change = b.seconds / a.seconds - 1.0;
    // Symmetric: the slower canary over the faster, whichever run is the baseline.
    const double apart = std::max(b.seconds / a.seconds, a.seconds / b.seconds) - 1.0;
    const bool many = a.count >= kRunCanaryCount && b.count >= kRunCanaryCount;
    difference.biased =
        apart > std::max(a.noise, b.noise) + (many ? kRunCanaryMargin : kCanaryMargin);
    return difference;
}

std::string machineSpeedWarning(const MachineSpeedDifference &difference,
                                const std::string &runName, const std::string &baselineName) {
    if (!difference.biased)
        return {};
    const long percent = std::lround(100.0 * std::abs(difference.change));
    return "the machine was " + std::to_string(percent) + " % " +
           (difference.change > 0.0 ? "slower" : "faster") + " during " + runName +
           " than during " + baselineName +
           " (one-thread canary): the speed-up is biased; rerun the two close together on an "
           "idle machine";
}

} // namespace devicebench
