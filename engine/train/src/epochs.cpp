// SPDX-License-Identifier: MIT
#include "epochs.h"

#include "devicebench/stop_cause.h"
#include "run_stop.h"

#include <algorithm>
#include <string>

namespace devicebench::detail {

void trainEpoch(const EpochParts &parts, int epoch, const SplitTensors &train, LossBuffer &losses,
                EpochPhases *phases) {
    const std::int64_t size = train.size();
    parts.model->train();
    for (std::int64_t start = 0; start < size; start += parts.batchSize) {
        if (parts.stopRequested.load(std::memory_order_relaxed)) {
            losses.flush();
            throw RunStop{RunStatus::Cancelled,
                          "stopped by " + stopCause() + " during epoch " + std::to_string(epoch)};
        }
        const std::int64_t n = std::min(parts.batchSize, size - start);
        if (phases != nullptr) {
            losses.add(phaseTimedTrainStep(parts.model, parts.workload, parts.optimizer,
                                           parts.parameters, train, start, n, phases->clock,
                                           &phases->times));
            phases->times.loss += phases->clock.lap();
            continue;
        }
        auto x = parts.workload.batchImages(train.images, start, n);
        auto y = parts.workload.batchLabels(train.labels, start, n);
        auto loss = parts.workload.trainStep(parts.model, parts.optimizer, parts.parameters, x, y);
        // No host synchronisation here: the loss stays on the device (LossBuffer).
        losses.add(loss);
    }
    losses.flush();
    if (phases != nullptr)
        phases->times.loss += phases->clock.lap();
}

TestSums testSums(const EpochParts &parts, int epoch, const SplitTensors &test) {
    const std::int64_t size = test.size();
    parts.model->eval();
    torch::Tensor lossSum = torch::zeros({}, torch::TensorOptions().device(parts.device));
    torch::Tensor correct =
        torch::zeros({}, torch::TensorOptions().device(parts.device).dtype(torch::kInt64));
    parts.workload.withoutAutograd([&] {
        const auto autocast = parts.workload.stepPrecision().autocast();
        for (std::int64_t start = 0; start < size; start += parts.batchSize) {
            if (parts.stopRequested.load(std::memory_order_relaxed)) {
                throw RunStop{RunStatus::Cancelled, "stopped by " + stopCause() +
                                                        " during the test pass of epoch " +
                                                        std::to_string(epoch)};
            }
            const std::int64_t n = std::min(parts.batchSize, size - start);
            auto x = parts.workload.batchImages(test.images, start, n);
            auto y = parts.workload.batchLabels(test.labels, start, n);
            auto out = parts.model->forward(x);
            lossSum += torch::nn::functional::cross_entropy(
                out, y, torch::nn::functional::CrossEntropyFuncOptions().reduction(torch::kSum));
            correct += (out.argmax(1) == y).sum();
        }
    });
    return {lossSum.item<double>(), correct.item<std::int64_t>()};
}

TestResult testEpoch(const EpochParts &parts, int epoch, const SplitTensors &test) {
    const TestSums sums = testSums(parts, epoch, test);
    const auto size = static_cast<double>(test.size());
    return {sums.lossSum / size, static_cast<double>(sums.correct) / size};
}

} // namespace devicebench::detail
