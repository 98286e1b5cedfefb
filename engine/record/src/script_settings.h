// SPDX-License-Identifier: MIT
// What a script run trained, taken from the script (RunStarted) into the record's settings.
#pragma once

#include "devicebench/run_record.h"
#include "devicebench/workloads.h"

namespace devicebench::detail {

// A script run's model, batch size and learning rate are what the script stated to
// devicebench.run() ("", 0 and NaN when it did not), never the request's defaults. Applied when
// a run starts and when a record is read: records of earlier versions held the request's
// defaults there (small-cnn, 64, 0.01), which the script never saw. Other workloads: unchanged.
inline void adoptScriptSettings(RunRecord &record) {
    if (workloadRow(record.config.workload).engineModel || record.started.device.empty())
        return; // an engine run, or a script that never started: nothing stated
    const RunStarted &s = record.started;
    record.model = s.modelName;
    record.config.model = s.modelName;
    record.config.batchSize = static_cast<int>(s.batchSize);
    record.config.learningRate = s.learningRate;
    // Records of earlier versions did not count a script's steps per epoch: epoch 1's steps.
    if (record.started.stepsPerEpoch == 0 && !record.epochs.empty()) {
        for (const TimedStepLoss &step : record.steps)
            record.started.stepsPerEpoch += step.epoch == 1 ? 1 : 0;
    }
}

} // namespace devicebench::detail
