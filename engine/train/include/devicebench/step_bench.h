// SPDX-License-Identifier: MIT
// Timing training steps rather than epochs, for the sweep: one short run of a model at one
// batch size and image size on one device, and the machine's measured peak throughput. How a
// step run is timed: docs/sweep-record.md. LibTorch-free header.
#pragma once

#include "devicebench/run_types.h"

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace devicebench {

// One sweep cell's run: setup (untimed), `warmupSteps` untimed steps, `steps` timed steps (the
// device synchronised around each), then `phaseSteps` phase-timed steps, kept out of images/s.
struct StepBenchConfig {
    RunConfig run;       // model, imageSize, batchSize, device, threads, workload, seed,
                         // learningRate, dataDir / synthetic; epochs and warm-up epochs unused
    int warmupSteps = 5; // >= 0
    int steps = 20;      // >= 2: the interval needs two timed steps
    int phaseSteps = 5;  // >= 0; 0: no phase timing
};

// "" or the first problem, naming the field and the value (as validateRunConfig).
std::string validateStepBenchConfig(const StepBenchConfig &config);

struct StepBenchResult {
    RunStatus status = RunStatus::Failed; // Finished, Cancelled (stop requested) or Failed
    std::string reason;                   // why not finished: e.g. "out of memory at batch size
                                          // 1024 (try a smaller batch size): ..."
    std::string device;                   // canonical, e.g. "cpu", "cuda:0"
    std::string deviceName;               // e.g. "CPU", "NVIDIA H200"
    int threads = 0;                      // intra-op threads in use
    std::int64_t modelParameters = 0;
    std::int64_t multiplyAddsPerImage = 0; // forward, at the cell's image size (models.h)
    double setupSeconds = 0.0;  // device start, data load and upsampling, model build (untimed)
    double warmupSeconds = 0.0; // the warm-up steps (untimed)
    std::vector<double> stepSeconds; // each timed step, in order
    // Median of batchSize / stepSeconds[i], and its 95% interval on the log of the step times
    // (NaN with < 2 steps).
    double imagesPerSecond = 0.0;
    double imagesPerSecondLow = 0.0;
    double imagesPerSecondHigh = 0.0;
    // imagesPerSecond x 6 x multiplyAddsPerImage / 1e9: GFLOP/s of forward + backward.
    double achievedGflops = 0.0;
    PhaseTimes phases; // summed over the phase-timed steps (test stays 0); measured false: none
    int phaseSteps = 0;
};

// Runs one cell on the calling thread. Never throws: errors (bad config, unusable device, out
// of memory) end as Failed with the reason; `stopRequested` ends it as Cancelled within a step.
// Sets LibTorch's intra-op thread count to config.run.threads (0: the usable cores).
StepBenchResult runStepBench(const StepBenchConfig &config, const std::atomic<bool> &stopRequested);

// The machine's measured peak in GFLOP/s on `device` with `threads` (0: the usable cores): the
// best of the small CNN's convolutions on the CPU, a large float32 matrix product on a GPU.
// About a second. Throws std::runtime_error naming the device when it cannot run.
struct PeakThroughput {
    double gflops = 0.0;
    std::string method; // what was measured, e.g. "conv 32->32 5x5 @16x16 batch 64, channels-last"
};
PeakThroughput measurePeakThroughput(const std::string &device, int threads);

} // namespace devicebench
