// SPDX-License-Identifier: MIT
// Engine-internal (train): one epoch of training and one epoch of testing, as in
// pytorch/examples cpp/mnist (separate train() and test()). Both run on the calling thread,
// check the stop flag before every step, and leave the timing to the caller (trainer.cpp),
// which synchronises the device before each clock read.
#pragma once

#include "loss_buffer.h"
#include "phase_step.h"
#include "workload.h"

#include "devicebench/models.h"

#include <torch/torch.h>

#include <atomic>
#include <cstdint>
#include <vector>

namespace devicebench::detail {

// What both passes work with; every member outlives the run.
struct EpochParts {
    ImageClassifier &model;
    torch::optim::Optimizer &optimizer;
    const std::vector<torch::Tensor> &parameters; // model->parameters(), taken once
    WorkloadStrategy &workload;
    torch::Device device;
    std::int64_t batchSize;
    const std::atomic<bool> &stopRequested;
};

// One pass over `train` in order (no shuffling), SGD step per batch; each step's loss goes to
// `losses` (fetched every K steps, and once at the end of the pass). Throws RunStop{Cancelled}
// (after fetching the pending losses) when a stop is requested, RunStop{Diverged} from
// `losses`. With `phases` (RunConfig::phases; nullptr otherwise, and then nothing is added to
// the step: no synchronisation, no clock read) every step is phaseTimedTrainStep on
// phases->clock, and the loss buffer's work after each step (keeping the loss; every K steps
// and at the end, fetching the losses and handing them to the observer) is counted in
// phases->times.loss, so the laps cover the pass without a gap.
void trainEpoch(const EpochParts &parts, int epoch, const SplitTensors &train, LossBuffer &losses,
                EpochPhases *phases = nullptr);

struct TestResult {
    double loss = 0.0;     // mean cross-entropy per test image (nats)
    double accuracy = 0.0; // fraction classified correctly, 0..1
};

// What a test pass adds up: cross-entropy summed over the images (nats) and the images
// classified correctly.
struct TestSums {
    double lossSum = 0.0;
    std::int64_t correct = 0;
};

// One pass over `test` with autograd off. The sums stay on the device during the pass; the
// two reads at its end are its only host synchronisation. Throws RunStop{Cancelled} when a
// stop is requested.
TestSums testSums(const EpochParts &parts, int epoch, const SplitTensors &test);

// testSums over the size of `test`: mean loss and accuracy.
TestResult testEpoch(const EpochParts &parts, int epoch, const SplitTensors &test);

} // namespace devicebench::detail
