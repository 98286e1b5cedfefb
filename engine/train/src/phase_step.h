// SPDX-License-Identifier: MIT
// Engine-internal (train): one training step timed phase by phase (issue 13, "where the time
// goes"; PhaseTimes in run_types.h). Used by the phase-timed epochs (RunConfig::phases) and by
// the sweep's phase-timed steps. Every boundary synchronises the device before the clock read,
// so on a GPU this is slower than a normal step (never mixed into a normal run's times).
#pragma once

#include "workload.h"

#include "devicebench/models.h"
#include "devicebench/run_types.h"

#include <torch/torch.h>

#include <cstdint>
#include <vector>

namespace devicebench::detail {

// Batch [start, start + n) of `split` through `workload`: data (batchImages + batchLabels),
// forward, loss (cross-entropy), backward (clearGradients + loss.backward()), optimizer
// (optimizer.step()), always eagerly (no CUDA graph: its phases cannot be told apart). Adds
// each phase's seconds (steady clock) to the matching field of *phases and sets
// phases->measured. Returns the step's loss (0-d, on the device).
torch::Tensor phaseTimedTrainStep(ImageClassifier &model, WorkloadStrategy &workload,
                                  torch::optim::Optimizer &optimizer,
                                  const std::vector<torch::Tensor> &parameters,
                                  const torch::Device &device, const SplitTensors &split,
                                  std::int64_t start, std::int64_t n, PhaseTimes *phases);

} // namespace devicebench::detail
