// SPDX-License-Identifier: MIT
#include "loss_scaler.h"

namespace devicebench::detail {

LossScaler::LossScaler(const torch::Device &device, LossScalerOptions options)
    : m_options(options) {
    const auto f32 = torch::TensorOptions().dtype(torch::kFloat32).device(device);
    m_scale = torch::full({1}, options.initialScale, f32);
    m_growthTracker = torch::zeros({1}, f32.dtype(torch::kInt32));
    m_foundInf = torch::zeros({1}, f32);
    m_skipped = torch::zeros({1}, f32);
}

torch::Tensor LossScaler::scale(const torch::Tensor &loss) const {
    return loss * m_scale.to(loss.scalar_type());
}

void LossScaler::unscaleAndUpdate(const std::vector<torch::Tensor> &parameters) {
    torch::NoGradGuard noGrad;
    std::vector<torch::Tensor> grads;
    grads.reserve(parameters.size());
    for (const torch::Tensor &p : parameters) {
        if (p.grad().defined())
            grads.push_back(p.grad());
    }
    m_foundInf.zero_();
    const torch::Tensor inverse = m_scale.reciprocal();
    at::_amp_foreach_non_finite_check_and_unscale_(grads, m_foundInf, inverse);
    const torch::Tensor overflowed = m_foundInf > 0;
    for (torch::Tensor &g : grads)
        g.masked_fill_(overflowed, 0.0);
    m_skipped.add_(m_foundInf);
    at::_amp_update_scale_(m_scale, m_growthTracker, m_foundInf, m_options.growthFactor,
                           m_options.backoffFactor, m_options.growthInterval);
}

std::int64_t LossScaler::takeSkippedSteps() {
    const auto skipped = static_cast<std::int64_t>(m_skipped.item<float>());
    m_skipped.zero_();
    return skipped;
}

double LossScaler::currentScale() const { return m_scale.item<double>(); }

} // namespace devicebench::detail
