// SPDX-License-Identifier: MIT
// The canary kernel (CanaryTime, run_types.h; the rule: machine_drift.h): the article's second
// convolution (32 -> 64 channels, 5 x 5, padding 2, at 16 x 16), forward, on a fixed tensor made
// without a random generator, so every run on every machine times the same work. What it costs
// and how noisy it is: docs/PERFORMANCE.md, "The canary". LibTorch-free header.
#pragma once

#include "devicebench/run_types.h"

#include <functional>
#include <memory>
#include <string>

namespace devicebench {

// Batch of the canary's input: 64 images on the CPU (about 20 ms at one thread on a 2020s
// core: long enough that a CPU quota's throttling falls inside every repetition), 256 on CUDA,
// where each repetition runs the convolution kCanaryCudaLaunches times between two
// synchronisations.
inline constexpr int kCanaryCpuBatch = 64;
inline constexpr int kCanaryCudaBatch = 256;
inline constexpr int kCanaryCudaLaunches = 8;
// Repetitions: kCanaryWarmups untimed, then kCanaryRepetitions timed, whose median is kept.
// The first measure() of a run is preceded by one whole untimed measurement (cold caches and
// thread pools).
inline constexpr int kCanaryWarmups = 1;
inline constexpr int kCanaryRepetitions = 5;

// The canary of one run: its input and weights made once, on the run's device. Not thread-safe.
class Canary {
public:
    // `device`: "cpu", "cuda" or "cuda:N" (throws std::invalid_argument for anything else);
    // `threads`: the run's intra-op threads (CPU), restored after every measure().
    Canary(const std::string &device, int threads);
    ~Canary();
    Canary(const Canary &) = delete;
    Canary &operator=(const Canary &) = delete;

    // One measurement: on the CPU at the run's threads (runThreadsSeconds) and, unless that is
    // 1, at one thread (seconds); on CUDA on the device. Outside any autograd graph and autocast.
    CanaryTime measure();

private:
    struct Tensors;
    std::unique_ptr<Tensors> m_tensors;
    int m_threads;
};

// Test hook: called inside the timed part of every canary repetition (empty: none), so that a
// test can make the canary slower on purpose. Thread-safe to set; process-wide.
void setCanaryHookForTesting(std::function<void()> hook);

} // namespace devicebench
