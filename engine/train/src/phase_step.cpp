// SPDX-License-Identifier: MIT
#include "phase_step.h"

#include "run_stop.h"

#include <chrono>

namespace devicebench::detail {

namespace {

// Seconds since the previous call (or construction), read after synchronising the device.
class PhaseClock {
public:
    explicit PhaseClock(const torch::Device &device) : m_device(device) {
        synchronize(m_device);
        m_last = std::chrono::steady_clock::now();
    }
    double lap() {
        synchronize(m_device);
        const auto now = std::chrono::steady_clock::now();
        const double seconds = std::chrono::duration<double>(now - m_last).count();
        m_last = now;
        return seconds;
    }

private:
    torch::Device m_device;
    std::chrono::steady_clock::time_point m_last;
};

} // namespace

torch::Tensor phaseTimedTrainStep(ImageClassifier &model, WorkloadStrategy &workload,
                                  torch::optim::Optimizer &optimizer,
                                  const std::vector<torch::Tensor> &parameters,
                                  const torch::Device &device, const SplitTensors &split,
                                  std::int64_t start, std::int64_t n, PhaseTimes *phases) {
    PhaseClock clock(device);
    auto x = workload.batchImages(split.images, start, n);
    auto y = workload.batchLabels(split.labels, start, n);
    phases->data += clock.lap();
    auto logits = model->forward(x);
    phases->forward += clock.lap();
    auto loss = torch::nn::functional::cross_entropy(logits, y);
    phases->loss += clock.lap();
    workload.clearGradients(optimizer, parameters);
    loss.backward();
    phases->backward += clock.lap();
    optimizer.step();
    phases->optimizer += clock.lap();
    phases->measured = true;
    return loss;
}

} // namespace devicebench::detail
