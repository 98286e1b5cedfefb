// SPDX-License-Identifier: MIT
#include "step_precision.h"

#include <cstdint>
#include <limits>

namespace devicebench::detail {

StepPrecision::StepPrecision(Precision precision, const torch::Device &device)
    : m_precision(precision), m_deviceType(device.type()) {
    if (precision == Precision::Float16)
        m_scaler = std::make_unique<LossScaler>(device);
}

std::unique_ptr<AutocastScope> StepPrecision::autocast(bool cacheEnabled) const {
    if (m_precision == Precision::Float32)
        return nullptr;
    return std::make_unique<AutocastScope>(m_deviceType, lowerPrecisionType(m_precision),
                                           cacheEnabled);
}

void StepPrecision::backward(const torch::Tensor &loss) const {
    if (m_scaler)
        m_scaler->scale(loss).backward();
    else
        loss.backward();
}

void StepPrecision::step(torch::optim::Optimizer &optimizer,
                         const std::vector<torch::Tensor> &parameters) const {
    if (m_scaler)
        m_scaler->unscaleAndUpdate(parameters);
    optimizer.step();
}

std::int64_t StepPrecision::takeSkippedSteps() const {
    return m_scaler ? m_scaler->takeSkippedSteps() : -1;
}

double StepPrecision::lossScale() const {
    return m_scaler ? m_scaler->currentScale() : std::numeric_limits<double>::quiet_NaN();
}

} // namespace devicebench::detail
