// SPDX-License-Identifier: MIT
#include "loss_buffer.h"

#include "run_stop.h"

#include <cmath>
#include <cstddef>
#include <string>

namespace devicebench::detail {

LossBuffer::LossBuffer(int fetchInterval, TrainingObserver &observer)
    : m_fetchInterval(fetchInterval), m_observer(observer) {
    m_pending.reserve(static_cast<std::size_t>(m_fetchInterval));
}

void LossBuffer::beginEpoch(int epoch) {
    m_epoch = epoch;
    m_lossSum = 0.0;
    m_lossCount = 0;
}

void LossBuffer::add(const torch::Tensor &loss) {
    ++m_step;
    m_pending.push_back(loss.detach());
    if (static_cast<int>(m_pending.size()) >= m_fetchInterval) {
        flush();
    }
}

void LossBuffer::flush() {
    if (m_pending.empty()) {
        return;
    }
    // The one host synchronisation of the training pass: every K steps, not every step.
    const auto values = torch::stack(m_pending).to(torch::kCPU, torch::kFloat64).contiguous();
    const auto *v = values.data_ptr<double>();
    std::vector<StepLoss> losses(m_pending.size());
    const std::int64_t first = m_step - static_cast<std::int64_t>(m_pending.size());
    for (std::size_t i = 0; i < m_pending.size(); ++i) {
        losses[i] = {m_epoch, first + static_cast<std::int64_t>(i) + 1, v[i]};
        if (!std::isfinite(v[i])) {
            losses.resize(i + 1);
            m_observer.onStepLosses(losses);
            m_pending.clear();
            throw RunStop{RunStatus::Diverged, "training loss became " + formatNumber(v[i]) +
                                                   " at step " + std::to_string(losses[i].step) +
                                                   " (epoch " + std::to_string(m_epoch) +
                                                   "); lower the learning rate"};
        }
        m_lossSum += v[i];
    }
    m_lossCount += static_cast<std::int64_t>(m_pending.size());
    m_pending.clear();
    m_observer.onStepLosses(losses);
}

double LossBuffer::epochMean() const {
    return m_lossCount > 0 ? m_lossSum / static_cast<double>(m_lossCount) : 0.0;
}

} // namespace devicebench::detail
