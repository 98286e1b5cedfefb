// SPDX-License-Identifier: MIT
// Engine-internal (train): dynamic loss scaling for float16 training, PyTorch's GradScaler in
// C++ (LibTorch has none), built on the same two fused operations:
// at::_amp_foreach_non_finite_check_and_unscale_ and at::_amp_update_scale_. Its state (the
// scale, the growth tracker, the step's found-inf flag, the count of skipped steps) stays on the
// device, and no call synchronises the host, so a captured CUDA graph can hold a whole step.
// Those operations have CUDA kernels in both LibTorch builds and CPU kernels from 2.x on.
#pragma once

#include <torch/torch.h>

#include <cstdint>
#include <vector>

namespace devicebench::detail {

// GradScaler's defaults: start at 2^16, double after 2000 steps without overflow, halve on one.
struct LossScalerOptions {
    double initialScale = 65536.0;
    double growthFactor = 2.0;
    double backoffFactor = 0.5;
    std::int64_t growthInterval = 2000;
};

class LossScaler {
public:
    LossScaler(const torch::Device &device, LossScalerOptions options = {});

    // loss x scale: what backward() runs on.
    torch::Tensor scale(const torch::Tensor &loss) const;

    // After backward() on a scaled loss: divides every defined gradient of `parameters` by the
    // scale; when any of them is not finite, sets all of them to 0 (the step is skipped: a zero
    // gradient leaves the weights of plain SGD, the run's optimiser, exactly as they were) and
    // counts the step as skipped; then updates the scale (backed off on overflow, grown after
    // growthInterval clean steps). Call optimizer.step() after it.
    void unscaleAndUpdate(const std::vector<torch::Tensor> &parameters);

    // Steps skipped since the last call, read from the device (one synchronisation).
    std::int64_t takeSkippedSteps();

    // The current scale, read from the device.
    double currentScale() const;

private:
    LossScalerOptions m_options;
    torch::Tensor m_scale;         // float32, 1 element
    torch::Tensor m_growthTracker; // int32, 1 element: clean steps since the last change
    torch::Tensor m_foundInf;      // float32, 1 element: 1 when this step's gradients overflowed
    torch::Tensor m_skipped;       // float32, 1 element: skipped steps since takeSkippedSteps
};

} // namespace devicebench::detail
