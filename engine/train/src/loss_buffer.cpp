// SPDX-License-Identifier: MIT
#include "loss_buffer.h"

#include "run_stop.h"

#include <cmath>
#include <string>

namespace devicebench::detail {

LossBuffer::LossBuffer(int fetchInterval, TrainingObserver &observer)
    : fetchInterval_(fetchInterval), observer_(observer) {
    pending_.reserve(static_cast<std::size_t>(fetchInterval_));
}

void LossBuffer::beginEpoch(int epoch) {
    epoch_ = epoch;
    lossSum_ = 0.0;
    lossCount_ = 0;
}

void LossBuffer::add(const torch::Tensor &loss) {
    ++step_;
    pending_.push_back(loss.detach());
    if (static_cast<int>(pending_.size()) >= fetchInterval_) {
        flush();
    }
}

void LossBuffer::flush() {
    if (pending_.empty()) {
        return;
    }
    // The one host synchronisation of the training pass: every K steps, not every step.
    const auto values = torch::stack(pending_).to(torch::kCPU, torch::kFloat64).contiguous();
    const auto *v = values.data_ptr<double>();
    std::vector<StepLoss> losses(pending_.size());
    const std::int64_t first = step_ - static_cast<std::int64_t>(pending_.size());
    for (std::size_t i = 0; i < pending_.size(); ++i) {
        losses[i] = {epoch_, first + static_cast<std::int64_t>(i) + 1, v[i]};
        if (!std::isfinite(v[i])) {
            losses.resize(i + 1);
            observer_.onStepLosses(losses);
            pending_.clear();
            throw RunStop{RunStatus::Diverged, "training loss became " + formatNumber(v[i]) +
                                                   " at step " + std::to_string(losses[i].step) +
                                                   " (epoch " + std::to_string(epoch_) +
                                                   "); lower the learning rate"};
        }
        lossSum_ += v[i];
    }
    lossCount_ += static_cast<std::int64_t>(pending_.size());
    pending_.clear();
    observer_.onStepLosses(losses);
}

double LossBuffer::epochMean() const {
    return lossCount_ > 0 ? lossSum_ / static_cast<double>(lossCount_) : 0.0;
}

} // namespace devicebench::detail
