// SPDX-License-Identifier: MIT
// The canary kernel (CanaryTime, run_types.h; the rule: machine_drift.h): one fixed float32
// matrix product into a preallocated result, on fixed matrices made without a random
// generator, so every run on every machine times the same work and nothing is allocated while
// it is timed (a convolution allocates its output, and its time then follows the allocator's
// state: docs/MEASURING.md, "A machine that changes speed"). What it costs and how steady it
// is: docs/PERFORMANCE.md, "The canary". LibTorch-free header.
#pragma once

#include "devicebench/run_types.h"

#include <functional>
#include <memory>
#include <string>

namespace devicebench {

// The product's side: 896 x 896 times 896 x 896 on the CPU (about 14 ms at one thread on this
// project's 2-core VM), 2048 on CUDA, where each repetition runs the product
// kCanaryCudaLaunches times between two synchronisations.
inline constexpr int kCanaryCpuSide = 896;
inline constexpr int kCanaryCudaSide = 2048;
inline constexpr int kCanaryCudaLaunches = 4;
// Repetitions: kCanaryWarmups untimed, then kCanaryRepetitions timed, whose median is kept.
// The first measure() of a run is preceded by one whole untimed measurement.
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
