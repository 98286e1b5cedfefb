// SPDX-License-Identifier: MIT
// Sweep cell records made in memory for the Sweep view's tests: no training, no files.
#pragma once

#include "devicebench/sweep.h"

#include <string>
#include <vector>

namespace devicebench::test {

// A cell of `model` at batch `batch`, 32 px, on the CPU with `threads` threads, that finished
// at `imagesPerSecond` (interval +-5 %), or that ended `status` with `reason`.
inline SweepCellRecord sweepRecord(const std::string &model, int batch, int threads,
                                   double imagesPerSecond, RunStatus status = RunStatus::Finished,
                                   const std::string &reason = std::string()) {
    SweepCellRecord r;
    r.createdUtc = "2026-11-30T12:00:00Z";
    r.cell.model = model;
    r.cell.batchSize = batch;
    r.cell.imageSize = 32;
    r.cell.device = SweepDevice{"cpu", threads};
    r.warmupSteps = 2;
    r.steps = 10;
    r.phaseSteps = 0;
    r.synthetic = true;
    r.result.status = status;
    r.result.reason = reason;
    r.result.device = "cpu";
    r.result.deviceName = "CPU";
    r.result.threads = threads;
    r.result.modelParameters = 1000;
    r.result.multiplyAddsPerImage = 12'350'000;
    if (status == RunStatus::Finished) {
        r.result.imagesPerSecond = imagesPerSecond;
        r.result.imagesPerSecondLow = imagesPerSecond * 0.95;
        r.result.imagesPerSecondHigh = imagesPerSecond * 1.05;
        r.result.achievedGflops = imagesPerSecond * 6.0 * 12.35e6 / 1e9;
        for (int i = 0; i < r.steps; ++i)
            r.result.stepSeconds.push_back(batch / imagesPerSecond);
    }
    r.fingerprint.hostName = "host-a";
    r.fingerprint.cpuModel = "Test CPU 9000";
    return r;
}

// small-cnn and resnet18 at batch 16 and 64 on cpu x1 and cpu x2; cpu x2 is twice as fast
// as cpu x1 for the small CNN and 1.5 times for ResNet-18; resnet18 is 20x slower.
inline std::vector<SweepCellRecord> twoDeviceSweep() {
    std::vector<SweepCellRecord> records;
    for (const int threads : {1, 2}) {
        const double factorCnn = threads == 1 ? 1.0 : 2.0;
        const double factorResNet = threads == 1 ? 1.0 : 1.5;
        records.push_back(sweepRecord("small-cnn", 16, threads, 1000.0 * factorCnn));
        records.push_back(sweepRecord("small-cnn", 64, threads, 1600.0 * factorCnn));
        records.push_back(sweepRecord("resnet18", 16, threads, 50.0 * factorResNet));
        records.push_back(sweepRecord("resnet18", 64, threads, 80.0 * factorResNet));
    }
    return records;
}

} // namespace devicebench::test
