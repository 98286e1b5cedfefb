// SPDX-License-Identifier: MIT
// Engine-internal (train): one training step timed phase by phase ("where the time goes";
// PhaseTimes in run_types.h). Used by the phase-timed epochs (RunConfig::phases) and by
// the sweep's phase-timed steps. Every boundary synchronises the device before the clock read,
// so on a GPU this is slower than a normal step (never mixed into a normal run's times).
#pragma once

#include "workload.h"

#include "devicebench/models.h"
#include "devicebench/run_types.h"

#include <torch/torch.h>

#include <chrono>
#include <cstdint>
#include <vector>

namespace devicebench::detail {

// A clock read at phase boundaries: each lap() synchronises the device (synchronize(),
// run_stop.h), reads the steady clock and returns the seconds since the previous lap (or the
// start), so consecutive laps cover the time without a gap.
class PhaseClock {
public:
    // Starts now, after synchronising the device.
    explicit PhaseClock(const torch::Device &device);
    // Starts at `start`, a steady-clock time the caller read just after synchronising the
    // device (the epoch's own start, so that the laps add up to the epoch's time).
    PhaseClock(const torch::Device &device, std::chrono::steady_clock::time_point start);

    double lap();
    // The time of the last lap (or the start).
    std::chrono::steady_clock::time_point last() const { return m_last; }

private:
    torch::Device m_device;
    std::chrono::steady_clock::time_point m_last;
};

// Where a phase-timed epoch's time goes so far: its clock (started at the epoch's start) and
// the phases' sums.
struct EpochPhases {
    EpochPhases(const torch::Device &device, std::chrono::steady_clock::time_point start)
        : clock(device, start) {
        times.measured = true;
    }
    PhaseClock clock;
    PhaseTimes times;
};

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

// The same step on a clock that runs on from the caller's last lap: the data phase counts from
// that lap (so whatever the caller did since, e.g. the loop's stop check, is in it), and the
// step ends with the optimizer's lap. What phase-timed epochs use, so that their phases leave
// no gap between steps.
torch::Tensor phaseTimedTrainStep(ImageClassifier &model, WorkloadStrategy &workload,
                                  torch::optim::Optimizer &optimizer,
                                  const std::vector<torch::Tensor> &parameters,
                                  const SplitTensors &split, std::int64_t start, std::int64_t n,
                                  PhaseClock &clock, PhaseTimes *phases);

} // namespace devicebench::detail
