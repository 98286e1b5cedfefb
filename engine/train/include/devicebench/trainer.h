// SPDX-License-Identifier: MIT
// The training loop of the published experiment, as the one function that the command-line
// runner and the dashboard's worker thread both call. LibTorch-free header.
#pragma once

#include "devicebench/probe.h"
#include "devicebench/run_types.h"

#include <atomic>
#include <string>
#include <vector>

namespace devicebench {

// Checks every field of `config` without touching data or devices. Returns one message per
// problem, each naming the field and the value (e.g. "batch size must be at least 1 (got 0)");
// empty when the config is valid.
std::vector<std::string> validateRunConfig(const RunConfig &config);

// The precision part of validateRunConfig, for front ends that check it before anything else:
// "" when `device` ("cpu", "cuda", "cuda:N") can run `precision` with this LibTorch; otherwise
// the problem naming both ("precision fp16 is CUDA only: device cpu cannot run it (use bf16 or
// fp32 on the CPU)").
std::string precisionProblem(Precision precision, const std::string &device);

// Runs `config` on the calling thread; what an epoch's time includes: docs/MEASURING.md, "One
// run". Events go to `observer`; onRunEnded is called exactly once, with the outcome returned,
// also on errors: a bad config, missing data or an unusable device end as Failed with the
// reason, an allocation failure as Failed with "out of memory at batch size N (try a smaller
// batch size)", a non-finite step loss as Diverged, a stop request as Cancelled within one step
// (`stopRequested` is checked before every step). Finished epochs are kept in every case. Sets
// LibTorch's process-wide intra-op thread count to config.threads.
RunOutcome runTraining(const RunConfig &config, TrainingObserver &observer,
                       const std::atomic<bool> &stopRequested);

// Same, with the device probe injected (tests; a cached result; the overload above uses
// probeDevice). An unusable device ends the run as Failed, "device <id> is unusable: <probe
// error>", before any data is loaded and without onRunStarted.
RunOutcome runTraining(const RunConfig &config, TrainingObserver &observer,
                       const std::atomic<bool> &stopRequested, const DeviceProbe &probe);

} // namespace devicebench
