// SPDX-License-Identifier: MIT
// What the machine did while a run trained: readings taken by a side thread at a fixed period
// (SystemSampler, engine/metrics), each epoch's means, peaks and energy, and the notes of the
// sources that could not be read. What each number means, its resolution and its limits:
// docs/MEASURING.md, "What a run costs". Plain C++: no LibTorch, no Qt.
#pragma once

#include <limits>
#include <string>
#include <vector>

namespace devicebench {

inline constexpr double kNotSampled = std::numeric_limits<double>::quiet_NaN();

// One reading. NaN: not read (the source is absent, failed, or the record is older).
struct SystemSample {
    double seconds = kNotSampled;        // since the run's RunRecorder was made (StepLoss clock)
    double processCores = kNotSampled;   // CPU cores the run's processes kept busy since the
                                         // previous reading (user + system time / wall time)
    double machineCores = kNotSampled;   // CPU cores the whole machine kept busy (/proc/stat)
    double rssBytes = kNotSampled;       // memory of the run's processes, as
                                         // SamplingInfo::memoryMeasure says (Pss or VmRSS)
    double gpuUtilization = kNotSampled; // fraction of the last period a kernel ran (NVML)
    double gpuMemoryBytes = kNotSampled; // device memory in use, all processes (NVML)
    double gpuPowerWatts = kNotSampled;  // board power (NVML)
    // Energy since sampling began, joules, monotonic (wrap-arounds undone): the GPU's (NVML's
    // counter, or its power integrated over time) and the CPU packages' (RAPL).
    double gpuJoules = kNotSampled;
    double cpuJoules = kNotSampled;
};

// Mean and peak of one quantity over an epoch's readings; NaN when none was read.
struct SampledStat {
    double mean = kNotSampled;
    double peak = kNotSampled;
    bool known() const { return mean == mean; }
};

// How an energy figure was measured.
//  - NvmlEnergyCounter: the GPU's own energy counter (nvmlDeviceGetTotalEnergyConsumption,
//    Volta and later), millijoules.
//  - NvmlPowerIntegral: the GPU's power readings integrated over time (trapezoids), where the
//    GPU has no counter.
//  - Rapl: the CPU packages' counters (Linux powercap, /sys/class/powercap/intel-rapl:N).
//  - None: not measured; the reading's note says why.
enum class EnergyMethod { None, NvmlEnergyCounter, NvmlPowerIntegral, Rapl };

// "none", "nvml-energy-counter", "nvml-power-integral", "rapl".
const char *toString(EnergyMethod method);
// Parses the record's text; false for anything else.
bool parseEnergyMethod(const std::string &text, EnergyMethod *method);

// The energy one source measured over an epoch, in joules (NaN with None).
struct EnergyReading {
    EnergyMethod method = EnergyMethod::None;
    double joules = kNotSampled;
    std::string note; // None: why not ("no NVIDIA driver"); otherwise what was counted
    bool measured() const { return method != EnergyMethod::None && joules == joules; }
};

// One epoch's readings. `sampled` false: nothing below is known (records written before
// sampling, or a run that was not sampled).
struct EpochSystem {
    bool sampled = false;
    int samples = 0; // readings taken inside the epoch
    SampledStat processCores;
    SampledStat machineCores;
    SampledStat rssBytes;
    SampledStat gpuUtilization;
    SampledStat gpuMemoryBytes;
    SampledStat gpuPowerWatts;
    EnergyReading gpuEnergy; // the run's CUDA device; None on the CPU
    EnergyReading cpuEnergy; // the CPU packages (RAPL)
};

// The epoch's energy: the sum of the measured readings; NaN when none was measured.
double epochJoules(const EpochSystem &system);
// "nvml-energy-counter + rapl", "rapl", ...; "none" when none was measured.
std::string energyMethods(const EpochSystem &system);

// How a run was sampled: the period, and one note per source that was absent or failed
// ("gpu: no NVIDIA driver (libnvidia-ml.so.1 not found)", "gpu power: nvmlDeviceGetPowerUsage
// failed: Unknown Error; no longer read", "cpu energy: <file>: <error>; no longer read").
struct SamplingInfo {
    bool sampled = false;               // false: the run was not sampled (older records)
    double periodSeconds = kNotSampled; // between readings
    std::vector<std::string> notes;
    // What the memory readings (SystemSample::rssBytes) sum over the run's processes:
    // kProportionalSetSize (each page shared by N processes counted 1/N in each, so once in
    // all: a script's DataLoader workers add only their own pages) or kResidentSetSize (VmRSS,
    // shared pages counted once per process: where smaps_rollup cannot be read, and records
    // written before this was recorded, "" on reading).
    std::string memoryMeasure;
};

inline constexpr const char *kProportionalSetSize = "pss";
inline constexpr const char *kResidentSetSize = "rss";

// How a memory figure is measured, for the text beside it: "proportional set size" or "resident
// set size, shared pages counted in each process" (also for "": older records).
std::string memoryMeasureText(const std::string &measure);

// A note of an EnergyReading that says the source does not apply rather than that it failed.
inline constexpr const char *kNotTheRunsDevice = "not the run's device";

} // namespace devicebench
