// SPDX-License-Identifier: MIT
// Engine-internal (train): the tuned workload's training step captured once and replayed as a
// CUDA graph, in the CUDA build only.
//
// What a CUDA graph saves: a training step of the small CNN launches a few hundred short
// kernels, and on a fast GPU the CPU's time to launch them one by one is longer than the GPU's
// time to run them. A graph records the launches once and replays them with one call. The
// recipe is PyTorch's "Whole-network capture" (docs: CUDA semantics, CUDA Graphs): a few eager
// warm-up steps on a side stream (cuDNN's benchmark mode picks its algorithms there, outside
// the capture), gradients set to none, then forward, loss, backward and optimiser step
// captured on a side stream with static input and target tensors; each later step copies its
// batch into the static tensors and replays. The captured step is the same computation, so its
// results equal the uncaptured step's within float rounding (each replay re-runs the recorded
// kernels on the same memory).
//
// Steps that do not fit the captured shape (the last, partial batch of an epoch) run eagerly on
// the same parameters and optimiser: the graph keeps its own gradient memory (the capture's
// private pool), so both kinds of step stay correct.
#pragma once

#include <torch/torch.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace devicebench::detail {

// One training step on batch (x: float32 N x 3 x S x S on the device, y: int64 N): forward,
// cross-entropy, gradients cleared, backward, optimiser step. Returns the step's loss (0-d).
using TrainStepFn = std::function<torch::Tensor(const torch::Tensor &x, const torch::Tensor &y)>;

class GraphedTrainStep {
public:
    virtual ~GraphedTrainStep() = default;

    // Runs one step: eagerly (`eager`) for the first warm-up steps and for batches of another
    // size than the captured one; captures at the first full batch after the warm-up, then
    // replays. Returns the step's loss as a tensor of its own (a copy of the graph's static
    // loss, made on the device: no host synchronisation). Throws what LibTorch throws when a
    // capture fails (the caller's run then fails with that reason).
    virtual torch::Tensor step(const torch::Tensor &x, const torch::Tensor &y,
                               const TrainStepFn &eager) = 0;

    // True once the step has been captured.
    virtual bool captured() const = 0;
};

// The eager warm-up steps before the capture (PyTorch's example uses 3).
inline constexpr int kGraphWarmupSteps = 3;

// True in a build against a LibTorch with CUDA (DEVICEBENCH_TORCH_CUDA): the graphed step is
// compiled in.
bool cudaGraphsCompiledIn();

// A graphed step for full batches of `batchSize` images on the current CUDA device; nullptr in
// a build without CUDA (the tuned workload then runs every step eagerly).
std::unique_ptr<GraphedTrainStep> makeGraphedTrainStep(std::int64_t batchSize);

} // namespace devicebench::detail
