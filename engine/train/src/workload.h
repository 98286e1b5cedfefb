// SPDX-License-Identifier: MIT
// Engine-internal (train): the workload strategy. Every difference between the faithful and
// the tuned workload (run_types.h, Workload) is a method here and nowhere else: the training
// loop (trainer.cpp, epochs.cpp) is the same code for both and asks the strategy at each
// point where they differ. Both compute the same model, hyper-parameters, data order and
// initial weights; the faithful strategy's operations are the article's, so its results are
// bit-identical to the loop before the split (tests/engine/trainer_test.cpp pins both).
#pragma once

#include "devicebench/models.h"
#include "devicebench/run_types.h"
#include "graphed_step.h"
#include "step_precision.h"

#include <torch/torch.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

namespace devicebench::detail {

// One split's images (uint8, N x 3 x S x S, S the run's image size) and labels (int64, N), on the
// host or the device.
struct SplitTensors {
    torch::Tensor images;
    torch::Tensor labels;
    std::int64_t size() const { return labels.defined() ? labels.size(0) : 0; }
};

class WorkloadStrategy {
public:
    explicit WorkloadStrategy(StepPrecision precision) : m_precision(std::move(precision)) {}
    virtual ~WorkloadStrategy() = default;

    // The run's arithmetic (the same in both workloads): autocast, loss scaling.
    const StepPrecision &stepPrecision() const { return m_precision; }

    virtual Workload workload() const = 0;

    // After the model was initialised on the CPU and moved to the device, before the
    // optimiser is made: lays out its parameters (values unchanged).
    virtual void prepareModel(ImageClassifier &model) const = 0;

    // cuDNN's benchmark mode on CUDA (times several convolution algorithms on the first call
    // of each shape and keeps the fastest). Set before onRunStarted, so the run's fingerprint
    // records what the run used.
    virtual bool cudnnBenchmark() const = 0;

    // The host copy of a split, once, before epoch 1: its memory layout.
    virtual void layOutHostData(SplitTensors &split) const = 0;

    // The host copy of a split when the data stays on the host (RunConfig::dataOnDevice off,
    // or the CPU): where it lives so that the per-step copies are as fast as this workload
    // allows.
    virtual void stageHostData(SplitTensors &split) const = 0;

    // Once, after the data is in place and before epoch 1: what the batches need for the whole
    // run (may allocate on the device).
    virtual void prepareBatches() = 0;

    // Images [start, start + n) of `images` (uint8) as float32 in [0, 1] on the device
    // (torchvision's ToTensor conversion, inside the timed epoch in both workloads). The
    // result is valid until the next call.
    virtual torch::Tensor batchImages(const torch::Tensor &images, std::int64_t start,
                                      std::int64_t n) = 0;

    // Labels [start, start + n) of `labels` on the device.
    virtual torch::Tensor batchLabels(const torch::Tensor &labels, std::int64_t start,
                                      std::int64_t n) const = 0;

    // Clears the gradients of `parameters` before a backward pass.
    virtual void clearGradients(torch::optim::Optimizer &optimizer,
                                const std::vector<torch::Tensor> &parameters) const = 0;

    // Runs `body` (the test pass) with autograd off in this workload's way.
    virtual void withoutAutograd(const std::function<void()> &body) const = 0;

    // One training step on batch (x, y) (batchImages, batchLabels): forward and cross-entropy
    // (under the precision's autocast), gradients cleared (clearGradients), backward and
    // optimiser step (the precision's: loss scaling for float16), in this order. Returns the
    // step's loss (0-d, on the device; the caller's LossBuffer fetches it later). This base
    // version runs it eagerly; the tuned workload on CUDA replays a captured graph
    // (graphed_step.h).
    virtual torch::Tensor trainStep(ImageClassifier &model, torch::optim::Optimizer &optimizer,
                                    const std::vector<torch::Tensor> &parameters,
                                    const torch::Tensor &x, const torch::Tensor &y);

    // The eager step of trainStep. `autocastCache` false inside a CUDA graph capture.
    torch::Tensor eagerTrainStep(ImageClassifier &model, torch::optim::Optimizer &optimizer,
                                 const std::vector<torch::Tensor> &parameters,
                                 const torch::Tensor &x, const torch::Tensor &y,
                                 bool autocastCache = true) const;

private:
    StepPrecision m_precision;
};

// The strategy of `workload` for a run on `device` with batches of at most `batchSize` images
// of `imageSize` pixels per side, computed in `precision`.
std::unique_ptr<WorkloadStrategy>
makeWorkloadStrategy(Workload workload, const torch::Device &device, std::int64_t batchSize,
                     std::int64_t imageSize = 32, Precision precision = Precision::Float32);

} // namespace devicebench::detail
