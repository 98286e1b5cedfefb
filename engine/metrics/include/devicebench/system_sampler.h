// SPDX-License-Identifier: MIT
// The system sampler: a side thread that reads what the machine does while a run trains (the
// run's CPU use and memory, the machine's CPU use, the GPU's utilisation, memory and power
// through NVML loaded at run time, the energy counters of the GPU and of the CPU packages) at a
// fixed period, off the training thread's path. runRecorded (recorded_run.h) runs one for every
// run. What each reading means: system_metrics.h; docs/MEASURING.md, "What a run costs".
// Plain C++ (Linux /proc and /sys, dlopen): no LibTorch, no Qt.
#pragma once

#include "devicebench/system_metrics.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace devicebench {

// What to sample and where to read it (tests point the roots at folders of their own).
struct SamplerOptions {
    double periodSeconds = 0.5; // between readings (MLPerf's power rule: 1 s or less)
    // The shortest period the sampler takes (a shorter one is raised to it): 1 ms.
    static constexpr double kShortestPeriodSeconds = 0.001;
    std::vector<std::string> notes; // set up before start (a setting ignored): in info().notes
    std::string procRoot = "/proc";
    std::string powercapRoot = "/sys/class/powercap";
    std::string nvmlLibrary; // "": $DEVICEBENCH_NVML_LIBRARY, else libnvidia-ml.so.1
    bool gpu = false;        // the run's device is a CUDA GPU: read it through NVML
    int gpuIndex = 0;        // its NVML index, used when gpuPciBusId is empty
    std::string gpuPciBusId; // "00000000:3B:00.0"; "" unknown
    // The root of the run's process tree (its process and every descendant): a child run's
    // pid once it is known; null or 0: this process.
    std::function<int()> process;
    // Seconds on the run's clock (the recorder's: SystemSample::seconds); null: since start().
    std::function<double()> clock;
};

// The options for a run on `device` ("cpu", "cuda", "cuda:N"): its GPU through NVML, found by
// `gpuPciBusId` (gpu_bus.h's cudaPciBusId; "" uses the index), and the period: 0.5 s, or
// $DEVICEBENCH_SAMPLING_PERIOD seconds: 0 (do not sample, for bench/sampling_overhead) or a
// number from 0.001 to 60; empty is unset. Other text is ignored with a note in `notes` that
// names it, so the record says so. `process` and `clock` left empty.
SamplerOptions samplerOptionsFor(const std::string &device, const std::string &gpuPciBusId);

// CPU seconds (user + system) the process `pid` and its descendants have used so far, as
// /proc tells them, with its children that ended and were waited for (a deeper descendant
// that ended drops out); NaN when `pid` cannot be read.
double processTreeCpuSeconds(int pid, const std::string &procRoot = "/proc");

// The CUDA index of `device`: "cuda" -> 0, "cuda:3" -> 3, anything else -> -1.
int cudaDeviceIndex(const std::string &device);

// One sampler per run. start() opens the sources and starts the thread; readings accumulate
// until taken. Every call but the constructor may come from any one thread (the run's).
// A source that fails is dropped with a note (info().notes); the sampler never throws from
// its thread and never stops the run.
class SystemSampler {
public:
    explicit SystemSampler(SamplerOptions options);
    ~SystemSampler(); // stop()s
    SystemSampler(const SystemSampler &) = delete;
    SystemSampler &operator=(const SystemSampler &) = delete;

    void start();
    // Ends the thread (no reading after it); idempotent.
    void stop();
    // Asks the thread for a reading now and waits for it (up to two periods): called between
    // epochs, outside their clocks, so that an epoch's end has a reading after it.
    void readNow();
    // The readings made since the last call, in time order.
    std::vector<SystemSample> takeNew();
    // The period and the sources' notes so far.
    SamplingInfo info() const;
    // The readings of [fromSeconds, toSeconds] on the run's clock (summarizeEpoch).
    EpochSystem epoch(double fromSeconds, double toSeconds) const;

private:
    struct State;
    std::unique_ptr<State> m_state;
};

// What the energy of an epoch is measured with: each source's method and note (joules NaN).
struct EnergySources {
    EnergyReading gpu;
    EnergyReading cpu;
};

// An epoch's means and peaks over the readings inside [from, to], and its energy: each
// cumulative counter (SystemSample::gpuJoules, cpuJoules) interpolated linearly at `from` and
// at `to` between the readings around them, the difference. `samples` in time order. With no
// reading inside the window, the means are the nearest reading's. Energy is NaN (and the
// method None with "no reading after the epoch's end" / "before its start") when a counter
// has no reading on one side.
EpochSystem summarizeEpoch(const std::vector<SystemSample> &samples, double from, double to,
                           const EnergySources &sources);

} // namespace devicebench
