// SPDX-License-Identifier: MIT
// Engine-internal (train): the step losses of a run, gathered on the device and fetched in
// batches. MEASURING.md, Rules: "Never read a loss value from the device every step just to
// draw it: gather step losses on the device and fetch them every K steps (K a setting,
// recorded)". A fetch is the only host synchronisation of a training step, and it happens
// once every K steps, never per step.
#pragma once

#include "devicebench/run_types.h"

#include <torch/torch.h>

#include <cstdint>
#include <vector>

namespace devicebench::detail {

class LossBuffer {
public:
    // `fetchInterval`: K (RunConfig::lossFetchInterval, >= 1). Fetched losses go to
    // observer.onStepLosses.
    LossBuffer(int fetchInterval, TrainingObserver &observer);

    // Starts epoch `epoch` (from 1): its loss mean starts from nothing.
    void beginEpoch(int epoch);

    // Adds the loss of the next step (a 0-d tensor on the device, detached here); fetches the
    // pending losses when K are pending. Steps count from 1 across the run.
    void add(const torch::Tensor &loss);

    // Fetches every pending loss from the device in one copy and hands them to the observer.
    // Throws RunStop{Diverged} at the first loss that is not finite, after handing the losses
    // up to and including it to the observer.
    void flush();

    // Mean of the epoch's fetched step losses (nats); 0 when none was fetched.
    double epochMean() const;

private:
    int m_fetchInterval;
    TrainingObserver &m_observer;
    std::vector<torch::Tensor> m_pending; // step losses still on the device
    std::int64_t m_step = 0;              // steps added so far in the run
    int m_epoch = 0;
    double m_lossSum = 0.0; // this epoch's fetched losses
    std::int64_t m_lossCount = 0;
};

} // namespace devicebench::detail
