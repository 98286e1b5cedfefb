// SPDX-License-Identifier: MIT
// The training loop of the published experiment (../shared/docs/MEASURING.md), as a function
// that the command-line runner and the dashboard's worker thread both call. LibTorch-free header.
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

// Runs the experiment described by `config`, on the calling thread:
//  1. validates the config and the device (devices.h), loads CIFAR-10 from config.dataDir
//     (or generates synthetic data); at an image size other than 32 upsamples both splits
//     once (resizeImages, cifar10.h), before epoch 1 and outside every timed epoch; builds
//     config.model for config.imageSize on the CPU (makeModel, models.h) initialised from
//     config.seed, then moves it to the device;
//  2. for each epoch: synchronises the device, reads std::chrono::steady_clock, runs a training
//     pass (SGD, no momentum, no shuffling, batches converted from uint8 to float in [0, 1]
//     inside the epoch, as the article's ToTensor) and a test pass, synchronises, reads the
//     clock again;
//  3. checks `stopRequested` before every training and test step.
// Events go to `observer` (see TrainingObserver for their order). The returned outcome is the
// same object passed to observer.onRunEnded, which is called exactly once, also on errors:
// bad config, missing data or an unusable device end as RunStatus::Failed with the reason;
// an allocation failure (host or device) ends as RunStatus::Failed with a reason starting
// "out of memory at batch size N (try a smaller batch size)";
// a non-finite step loss ends as RunStatus::Diverged; a stop request ends as
// RunStatus::Cancelled within one step. Finished epochs are kept in every case.
// Sets the process-wide LibTorch intra-op thread count (at::set_num_threads) to config.threads.
RunOutcome runTraining(const RunConfig &config, TrainingObserver &observer,
                       const std::atomic<bool> &stopRequested);

// Same, with the device probe injected (tests; a probe result cached by the caller). Right
// after the device is resolved, `probe` is called with its canonical id ("cpu", "cuda:0");
// when the result is not usable, the run ends as RunStatus::Failed with the reason
// "device <id> is unusable: <probe error>", before any data is loaded, with no epochs and
// without onRunStarted. The overload above uses probeDevice (probe.h), which costs a few
// milliseconds on the CPU.
RunOutcome runTraining(const RunConfig &config, TrainingObserver &observer,
                       const std::atomic<bool> &stopRequested, const DeviceProbe &probe);

} // namespace devicebench
