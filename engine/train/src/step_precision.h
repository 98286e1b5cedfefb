// SPDX-License-Identifier: MIT
// Engine-internal (train): a run's arithmetic (run_types.h, Precision) at the three points of a
// training step where it matters, so that every step of the engine (the workload's eager step,
// the phase-timed step, a data-parallel rank's step) computes it the same way:
// the forward pass and the loss under autocast, the backward pass on the scaled loss, the
// optimiser's step after unscaling. Float32 adds nothing at any point.
#pragma once

#include "autocast.h"
#include "loss_scaler.h"

#include "devicebench/run_types.h"

#include <torch/torch.h>

#include <cstdint>
#include <memory>
#include <vector>

namespace devicebench::detail {

class StepPrecision {
public:
    StepPrecision(Precision precision, const torch::Device &device);

    // Autocast for the forward pass and the loss (training and test) while the returned scope
    // lives; nullptr for float32. `cacheEnabled` as AutocastScope's.
    std::unique_ptr<AutocastScope> autocast(bool cacheEnabled = true) const;

    // backward() on the loss, scaled first when float16.
    void backward(const torch::Tensor &loss) const;

    // The optimiser's step; float16 unscales the gradients first and skips a step that
    // overflowed (LossScaler::unscaleAndUpdate).
    void step(torch::optim::Optimizer &optimizer,
              const std::vector<torch::Tensor> &parameters) const;

    // Float16: the steps skipped since the last call (a device read), and the current scale;
    // other precisions: -1 and NaN.
    std::int64_t takeSkippedSteps() const;
    double lossScale() const;

private:
    Precision m_precision;
    c10::DeviceType m_deviceType;
    std::unique_ptr<LossScaler> m_scaler; // float16 only
};

} // namespace devicebench::detail
