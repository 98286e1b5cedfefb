// SPDX-License-Identifier: MIT
#include "devicebench/comparison.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace devicebench {

std::vector<std::string> workloadDifferences(const RunRecord &a, const RunRecord &b) {
    std::vector<std::string> names;
    const auto differs = [&names](bool different, const char *name) {
        if (different) {
            names.emplace_back(name);
        }
    };
    differs(a.model != b.model, "model");
    differs(a.config.batchSize != b.config.batchSize, "batch size");
    // Exact: both come from the same decimal text, printed back with full precision.
    differs(a.config.learningRate != b.config.learningRate, "learning rate");
    differs(a.config.epochs != b.config.epochs, "epochs");
    differs(a.data.variant != b.data.variant || a.data.contentHash != b.data.contentHash,
            "data set");
    differs(a.data.trainImages != b.data.trainImages, "training images");
    differs(a.data.testImages != b.data.testImages, "test images");
    differs(a.precision != b.precision, "precision");
    differs(a.workload != b.workload, "workload");
    differs(a.config.dataOnDevice != b.config.dataOnDevice, "data on device");
    return names;
}

SpeedUp speedUp(const Summary &baseline, const Summary &run) {
    constexpr double nan = std::numeric_limits<double>::quiet_NaN();
    constexpr double inf = std::numeric_limits<double>::infinity();
    SpeedUp s{nan, nan, nan};
    if (!baseline.hasStable || !run.hasStable || !(run.stableMean > 0.0)) {
        return s;
    }
    s.ratio = baseline.stableMean / run.stableMean;
    const bool known = !std::isnan(baseline.ciLow) && !std::isnan(baseline.ciHigh) &&
                       !std::isnan(run.ciLow) && !std::isnan(run.ciHigh);
    if (known) {
        // An interval reaching zero or below (few, scattered epochs) leaves that end unbounded.
        s.low = baseline.ciLow <= 0.0 ? 0.0 : baseline.ciLow / run.ciHigh;
        s.high = run.ciLow <= 0.0 ? inf : baseline.ciHigh / run.ciLow;
    }
    return s;
}

double maxTestLossDifference(const RunRecord &a, const RunRecord &b) {
    double largest = std::numeric_limits<double>::quiet_NaN();
    for (const auto &ea : a.epochs) {
        for (const auto &eb : b.epochs) {
            if (ea.epoch != eb.epoch) {
                continue;
            }
            double d = std::fabs(ea.testLoss - eb.testLoss);
            if (!std::isfinite(d)) {
                // One run diverged (NaN/inf loss) where the other did not, or both did: they
                // did not compute the same thing.
                d = std::numeric_limits<double>::infinity();
            }
            largest = std::isnan(largest) ? d : std::max(largest, d);
        }
    }
    return largest;
}

std::string runLabel(const RunRecord &record) {
    const bool started = !record.started.device.empty();
    std::string label =
        machineLabel(record.fingerprint, started ? record.started.device : record.config.device,
                     started ? record.started.threads : record.config.threads);
    // The article's computation is the default; any other workload is named in the label.
    if (!record.workload.empty() && record.workload != "faithful") {
        label += " (" + record.workload + ")";
    }
    // Times on generated data are real, accuracy is not: every view of the run says so.
    if (record.data.variant == "synthetic") {
        label += " [synthetic]";
    }
    return label;
}

} // namespace devicebench
