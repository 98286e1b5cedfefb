// SPDX-License-Identifier: MIT
// Engine-internal (train): a workload that brings its own network, optimiser and epoch (an
// EngineRecipe row of the workload table: the speedrun). The run (trainer.cpp) starts the
// device, loads the data, times each epoch, tests and tells it as for every other workload;
// the recipe does what happens inside the epoch's clock.
#pragma once

#include "epochs.h"
#include "loss_buffer.h"

#include "devicebench/cifar10.h"
#include "devicebench/run_types.h"

#include <torch/torch.h>

#include <atomic>
#include <cstdint>
#include <memory>

namespace devicebench::detail {

class Recipe {
public:
    virtual ~Recipe() = default;
    virtual std::int64_t modelParameters() const = 0; // trainable elements
    virtual std::int64_t multiplyAddsPerImage() const = 0;
    virtual std::int64_t stepsPerEpoch() const = 0; // the longest epoch's training steps
    // One epoch's training, its step losses into `losses` (flushed at its end). The recipe's
    // own set-up that it times (fitting a layer to the data, say) happens in epoch 1. Throws
    // RunStop{Cancelled} when `stopRequested` is set, between two steps.
    virtual void trainEpoch(int epoch, LossBuffer &losses,
                            const std::atomic<bool> &stopRequested) = 0;
    // The epoch's test pass: mean cross-entropy and accuracy of the recipe's evaluation.
    virtual TestResult testEpoch(int epoch, const std::atomic<bool> &stopRequested) = 0;
};

// The recipe of `config.workload` (an EngineRecipe row) on `device` over `data` (held, not
// copied, until the first epoch places it), its network built from config.seed.
std::unique_ptr<Recipe> makeRecipe(const RunConfig &config, const torch::Device &device,
                                   const Cifar10 &data);

} // namespace devicebench::detail
