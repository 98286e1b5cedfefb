// SPDX-License-Identifier: MIT
// Run records made in a test, for the views that draw them: the part every such record shares,
// so that each test adds only what it pins down.
#pragma once

#include "devicebench/run_record.h"

#include <cstddef>
#include <string>
#include <vector>

namespace devicebench::testing {

// A finished one-thread CPU run on "host" of synthetic data (128 training + 64 test images):
// one epoch per entry of `seconds`, the first warm-up, test accuracy 0.1, images/s from the
// seconds.
inline RunRecord finishedCpuRun(const std::string &id, const std::vector<double> &seconds) {
    RunRecord r;
    r.runId = id;
    r.status = "finished";
    r.config.epochs = static_cast<int>(seconds.size());
    r.config.warmupEpochs = 1;
    r.started.device = "cpu";
    r.started.deviceName = "CPU";
    r.started.threads = 1;
    r.started.trainImages = 128;
    r.started.testImages = 64;
    r.fingerprint.hostName = "host";
    r.data = {"", "synthetic", 128, 64, ""};
    for (std::size_t i = 0; i < seconds.size(); ++i) {
        EpochResult e;
        e.epoch = static_cast<int>(i) + 1;
        e.seconds = seconds[i];
        e.warmup = i == 0;
        e.testAccuracy = 0.1;
        e.imagesPerSecond = 192.0 / seconds[i];
        r.epochs.push_back(e);
    }
    return r;
}

// A finished CPU run record at the article's settings: 10 epochs (2 warm-up) of `seconds`,
// batch 64, lr 0.01, fp32, 32 px, all 50,000 + 10,000 images; `workload` as given (the
// record's text: "faithful", "article-script", ...).
inline RunRecord articleSettingsRun(const std::string &id, const std::string &workload,
                                    double seconds) {
    RunRecord r;
    r.runId = id;
    r.workload = workload;
    parseWorkload(workload, &r.config.workload);
    r.config.epochs = 10;
    r.config.warmupEpochs = 2;
    r.started.device = "cpu";
    r.started.trainImages = 50000;
    r.started.testImages = 10000;
    r.started.stepsPerEpoch = 782;
    for (int n = 1; n <= 10; ++n) {
        EpochResult e;
        e.epoch = n;
        e.seconds = seconds;
        e.testLoss = 1.5;
        e.testAccuracy = 0.4;
        e.warmup = n <= 2;
        r.epochs.push_back(e);
    }
    r.status = "finished";
    return r;
}

} // namespace devicebench::testing
