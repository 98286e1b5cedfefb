// SPDX-License-Identifier: MIT
#include "phase_step.h"

#include "run_stop.h"

namespace devicebench::detail {

PhaseClock::PhaseClock(const torch::Device &device) : m_device(device) {
    synchronize(m_device);
    m_last = std::chrono::steady_clock::now();
}

PhaseClock::PhaseClock(const torch::Device &device, std::chrono::steady_clock::time_point start)
    : m_device(device), m_last(start) {}

double PhaseClock::lap() {
    synchronize(m_device);
    const auto now = std::chrono::steady_clock::now();
    const double seconds = std::chrono::duration<double>(now - m_last).count();
    m_last = now;
    return seconds;
}

torch::Tensor phaseTimedTrainStep(ImageClassifier &model, WorkloadStrategy &workload,
                                  torch::optim::Optimizer &optimizer,
                                  const std::vector<torch::Tensor> &parameters,
                                  const torch::Device &device, const SplitTensors &split,
                                  std::int64_t start, std::int64_t n, PhaseTimes *phases) {
    PhaseClock clock(device);
    return phaseTimedTrainStep(model, workload, optimizer, parameters, split, start, n, clock,
                               phases);
}

torch::Tensor phaseTimedTrainStep(ImageClassifier &model, WorkloadStrategy &workload,
                                  torch::optim::Optimizer &optimizer,
                                  const std::vector<torch::Tensor> &parameters,
                                  const SplitTensors &split, std::int64_t start, std::int64_t n,
                                  PhaseClock &clock, PhaseTimes *phases) {
    auto x = workload.batchImages(split.images, start, n);
    auto y = workload.batchLabels(split.labels, start, n);
    phases->data += clock.lap();
    const StepPrecision &precision = workload.stepPrecision();
    torch::Tensor loss;
    {
        const auto autocast = precision.autocast();
        auto logits = model->forward(x);
        phases->forward += clock.lap();
        loss = torch::nn::functional::cross_entropy(logits, y);
    }
    phases->loss += clock.lap();
    workload.clearGradients(optimizer, parameters);
    precision.backward(loss);
    phases->backward += clock.lap();
    precision.step(optimizer, parameters);
    phases->optimizer += clock.lap();
    phases->measured = true;
    return loss;
}

} // namespace devicebench::detail
